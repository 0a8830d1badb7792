export * from './address-class';
export * from './egress.error';
export { checkUrl, checkUrlLiteral, isAddressAllowed } from './url-check';
export type { CheckedUrl, EgressPolicy, LiteralCheckedUrl } from './url-check';
export * from './guarded-fetch';
export { PinnedConnections } from './pinned-connections';
export type { PinnedConnectionsOptions } from './pinned-connections';
