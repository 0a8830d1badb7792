import { DomainError, ErrorCode } from '@docrender/contracts';
import { checkUrlLiteral, EgressRefusal, EgressRefusedError, type EgressPolicy } from '@docrender/egress';

/** How to allow, for local development, what the policy refused. */
const HTTP_HINT = 'EGRESS_ALLOW_HTTP=true allows http:// for local development';
const PRIVATE_HINT = 'EGRESS_ALLOW_PRIVATE=true allows non-public targets for local development';

/**
 * Spec 4.5 / 6: the callback URL of an async job, checked when the job is accepted with the egress policy's rules that
 * need no DNS (`checkUrlLiteral` of @docrender/egress, the same statement the webhook dispatcher applies before every
 * delivery): https (http only with EGRESS_ALLOW_HTTP), no credentials in the URL, and no address literal of a refused
 * class (loopback — `localhost` included —, private, link-local, unspecified, multicast, reserved: allowed only with
 * EGRESS_ALLOW_PRIVATE; cloud metadata: never). A host name is not resolved here: the dispatcher resolves and checks it
 * at each delivery, so a name that later points somewhere refused (DNS rebinding) is still never called.
 * @throws DomainError 422 BindingError naming callbackUrl and the setting that would allow it
 */
export function checkCallbackUrl(callbackUrl: string, policy: EgressPolicy): void {
  try {
    checkUrlLiteral(callbackUrl, policy);
  } catch (error) {
    if (!(error instanceof EgressRefusedError)) throw error;
    throw new DomainError(ErrorCode.BindingError, refusalMessage(error, policy));
  }
}

function refusalMessage(error: EgressRefusedError, policy: EgressPolicy): string {
  switch (error.reason) {
    case EgressRefusal.InvalidUrl:
      return 'callbackUrl must be an absolute https URL';
    case EgressRefusal.SchemeNotAllowed:
      return policy.allowHttp ? 'callbackUrl must be an http(s) URL' : `callbackUrl must be an https URL (${HTTP_HINT})`;
    case EgressRefusal.CredentialsInUrl:
      return 'callbackUrl must not carry a user name or password; put an unguessable token in its path or query and verify the signature';
    case EgressRefusal.AddressNotAllowed: {
      const { ip, class: cls } = error.address ?? { ip: error.target, class: 'reserved' };
      if (cls === 'metadata') return `callbackUrl points at a cloud metadata address (${ip}), which is never called`;
      return `callbackUrl points at a ${cls} address (${ip}); callbacks go to public addresses only (${PRIVATE_HINT})`;
    }
  }
}
