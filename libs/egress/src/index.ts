export * from './address-class';
export * from './egress.error';
export { checkUrl, isAddressAllowed } from './url-check';
export type { CheckedUrl, EgressPolicy } from './url-check';
export * from './guarded-fetch';
