import type { ApiKeyRepository } from '@docrender/persistence';

/**
 * What the API-key guard needs of the stored keys: AuthModule declares ApiKeyRepository and exports only this, so the
 * guard resolves in every feature module that uses it while the repository stays the auth module's.
 */
export const API_KEYS = Symbol('ApiKeys');
export type ApiKeyAuthenticator = Pick<ApiKeyRepository, 'authenticate'>;
