import type { EntityManager } from 'typeorm';
import { RATE_LIMIT_PER_WINDOW, RATE_LIMIT_WINDOW_SECONDS, type RateLimitCategory } from '@docrender/contracts';

export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Permits left in the window after this decision. */
  remaining: number;
  /** When refused: seconds until the oldest permit in the window expires (at least 1); 0 when allowed. */
  retryAfterSeconds: number;
};

/**
 * Sliding-window rate limiting shared by every gateway instance (spec part 8): one row per permit, counted over the
 * last `windowSeconds`. Decisions for one (organisation, category) are serialized with a transaction-scoped advisory
 * lock, so concurrent requests can never exceed the limit.
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
    return this.manager.transaction(async (m) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`rate-limit:${organisationId}:${category}`]);
      const [{ count, oldest }] = (await m.query(
        `SELECT count(*)::int AS count, min(permitted_at) AS oldest FROM rate_limit_permits
          WHERE organisation_id = $1 AND category = $2 AND permitted_at > $3`,
        [organisationId, category, windowStart],
      )) as { count: number; oldest: Date | null }[];
      if (count >= limit) {
        const expiresAt = (oldest ?? now).getTime() + windowMs;
        return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((expiresAt - now.getTime()) / 1000)) };
      }
      await m.query(`INSERT INTO rate_limit_permits (organisation_id, category, permitted_at) VALUES ($1, $2, $3)`, [organisationId, category, now]);
      return { allowed: true, limit, remaining: limit - count - 1, retryAfterSeconds: 0 };
    });
  }

  /** Housekeeping: deletes permits older than `cutoff` (anything older than the window is never counted again). */
  async pruneOlderThan(cutoff: Date): Promise<number> {
    const result = (await this.manager.query(`DELETE FROM rate_limit_permits WHERE permitted_at < $1`, [cutoff])) as [unknown[], number];
    return result[1];
  }
}
