import type { EntityManager } from 'typeorm';
import { RATE_LIMIT_PER_WINDOW, RATE_LIMIT_WINDOW_SECONDS, type RateLimitCategory } from '@docrender/contracts';
import { queryPrepared, type PreparedStatement } from '../prepared-statement';

export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Permits left in the window after this decision. */
  remaining: number;
  /** When refused: seconds until the oldest permit in the window expires (at least 1); 0 when allowed. */
  retryAfterSeconds: number;
};

/** Takes a permit or refuses one (every limited request's statement). */
const ACQUIRE: PreparedStatement = {
  name: 'rate-limit-acquire',
  text: `SELECT allowed, permits_in_window, oldest_in_window FROM rate_limit_acquire($1, $2, $3, $4, $5)`,
};

/**
 * Sliding-window rate limiting shared by every gateway instance (spec part 8): one row per permit, counted over the
 * last `windowSeconds`. Decisions for one (organisation, category) are serialized with a transaction-scoped advisory
 * lock inside the `rate_limit_acquire` database function (one round trip), so concurrent requests never exceed the limit.
 */
export class RateLimitRepository {
  constructor(private readonly manager: EntityManager) {}

  async tryAcquire(
    organisationId: string,
    category: RateLimitCategory,
    options: { limit?: number; windowSeconds?: number; now?: Date } = {},
  ): Promise<RateLimitDecision> {
    const limit = options.limit ?? RATE_LIMIT_PER_WINDOW[category];
    const windowMs = (options.windowSeconds ?? RATE_LIMIT_WINDOW_SECONDS) * 1000;
    const now = options.now ?? new Date();
    const windowStart = new Date(now.getTime() - windowMs);
    // One round trip: the lock, the count and the insert run in the rate_limit_acquire function (see its migration).
    const [row] = await queryPrepared<{ allowed: boolean; permits_in_window: number; oldest_in_window: Date | null }>(this.manager, ACQUIRE, [
      organisationId,
      category,
      limit,
      windowStart,
      now,
    ]);
    if (!row.allowed) {
      const expiresAt = (row.oldest_in_window ?? now).getTime() + windowMs;
      return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((expiresAt - now.getTime()) / 1000)) };
    }
    return { allowed: true, limit, remaining: limit - row.permits_in_window - 1, retryAfterSeconds: 0 };
  }

  /** Housekeeping: deletes permits older than `cutoff` (anything older than the window is never counted again). */
  async pruneOlderThan(cutoff: Date): Promise<number> {
    const result = (await this.manager.query(`DELETE FROM rate_limit_permits WHERE permitted_at < $1`, [cutoff])) as [unknown[], number];
    return result[1];
  }
}
