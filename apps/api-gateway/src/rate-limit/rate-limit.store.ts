import type { RateLimitCategory } from '@docrender/contracts';
import type { RateLimitDecision } from '@docrender/persistence';

export type { RateLimitDecision };

/**
 * The store deciding whether a request gets a permit: a sliding log of permits per (organisation, category) in
 * PostgreSQL, shared by every gateway replica (RateLimitRepository implements it).
 */
export interface RateLimitStore {
  tryAcquire(
    organisationId: string,
    category: RateLimitCategory,
    options: { limit: number; windowSeconds: number; now?: Date },
  ): Promise<RateLimitDecision>;
}

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');
export const RATE_LIMIT_POLICY = Symbol('RateLimitPolicy');
