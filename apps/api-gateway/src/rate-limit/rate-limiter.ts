import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import { counter } from '@docrender/observability';
import { RateLimitPolicy } from './rate-limit.policy';
import { RATE_LIMIT_POLICY, RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

const rejections = counter('docrender_rate_limit_rejections_total', 'Requests refused with 429 by the per-organisation rate limits, by category.', ['category']);

/** Headers telling the client its budget: `X-RateLimit-Limit`, `X-RateLimit-Remaining`. */
export type RateLimitHeaders = Record<string, string>;

/**
 * Takes one permit of an organisation's category (spec part 8), or refuses with 429 TooManyRequests and an integer
 * `Retry-After` after which a request succeeds unless others took the freed permit first. Refused requests cost nothing.
 * Used by RateLimitGuard, and directly where the organisation is known only after a lookup (signed links).
 */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(RATE_LIMIT_POLICY) private readonly policy: RateLimitPolicy,
  ) {}

  /** Resolves with the budget headers to send, or {} when rate limiting is switched off. */
  async acquire(organisationId: string, category: RateLimitCategory): Promise<RateLimitHeaders> {
    if (!this.policy.enabled) return {};
    const { limit, windowSeconds } = this.policy.limitOf(category);
    const decision = await this.store.tryAcquire(organisationId, category, { limit, windowSeconds });
    const headers = { 'X-RateLimit-Limit': String(decision.limit), 'X-RateLimit-Remaining': String(decision.remaining) };
    if (!decision.allowed) {
      rejections.inc({ category });
      throw new DomainError(
        ErrorCode.TooManyRequests,
        `rate limit exceeded: ${decision.limit} ${category} requests per ${windowSeconds} s for this organisation; retry after ${decision.retryAfterSeconds} s`,
        { ...headers, 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    return headers;
  }
}
