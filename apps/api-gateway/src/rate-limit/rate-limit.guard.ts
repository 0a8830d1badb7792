import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import type { Response } from 'express';
import { callerOf, type AuthenticatedRequest } from '../auth/caller';
import { RATE_LIMIT_CATEGORY } from './rate-limit.decorator';
import { RateLimitPolicy } from './rate-limit.policy';
import { RATE_LIMIT_POLICY, RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

/**
 * Spec part 8: per organisation and category, a sliding window; one request costs one permit whatever it carries.
 * Refused requests cost nothing and answer 429 TooManyRequests with `Retry-After` (whole seconds) after which a
 * request succeeds unless others took the freed permit first. Runs after ApiKeyGuard (it keys by organisation).
 * Every answer also carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(RATE_LIMIT_POLICY) private readonly policy: RateLimitPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const category = this.reflector.getAllAndOverride<RateLimitCategory | undefined>(RATE_LIMIT_CATEGORY, [context.getHandler(), context.getClass()]);
    if (category === undefined || !this.policy.enabled) return true;
    const http = context.switchToHttp();
    const caller = callerOf(http.getRequest<AuthenticatedRequest>());
    const { limit, windowSeconds } = this.policy.limitOf(category);
    const decision = await this.store.tryAcquire(caller.organisationId, category, { limit, windowSeconds });
    const headers = { 'X-RateLimit-Limit': String(decision.limit), 'X-RateLimit-Remaining': String(decision.remaining) };
    if (!decision.allowed) {
      throw new DomainError(
        ErrorCode.TooManyRequests,
        `rate limit exceeded: ${decision.limit} ${category} requests per ${windowSeconds} s for this organisation; retry after ${decision.retryAfterSeconds} s`,
        { ...headers, 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    http.getResponse<Response>().set(headers);
    return true;
  }
}
