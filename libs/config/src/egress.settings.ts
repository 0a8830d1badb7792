import { ConfigOf, setting } from './setting';

/**
 * The SSRF guard's policy (libs/egress) for every outgoing request the service makes on a client's behalf:
 * template image URLs fetched by the render service, callback URLs called by the webhook dispatcher.
 * The loaded object is an `EgressPolicy` of @docrender/egress as is.
 */
export const egressSettings = {
  allowPrivate: setting.bool(
    'EGRESS_ALLOW_PRIVATE',
    'Allow outgoing requests to loopback, private, link-local and other non-public addresses (cloud metadata addresses stay refused). For tests and local development only.',
    false,
  ),
  allowHttp: setting.bool('EGRESS_ALLOW_HTTP', 'Allow plain http:// for outgoing requests; otherwise https:// only.', false),
};

export type EgressSettings = ConfigOf<typeof egressSettings>;
