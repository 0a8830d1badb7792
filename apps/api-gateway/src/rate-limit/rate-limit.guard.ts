import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimitCategory } from '@docrender/contracts';
import type { Response } from 'express';
import { callerOf, type AuthenticatedRequest } from '../auth/caller';
import { RATE_LIMIT_CATEGORY } from './rate-limit.decorator';
import { RateLimiter } from './rate-limiter';

/**
 * Spec part 8: per organisation and category, a sliding window; one request costs one permit whatever it carries.
 * Refused requests cost nothing and answer 429 TooManyRequests with `Retry-After` (whole seconds). The category comes
 * from `@RateLimit`/`@RateLimited` on the handler or its controller; a route without one is not limited. Runs after
 * ApiKeyGuard (it keys by the caller's organisation). Every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const category = this.reflector.getAllAndOverride<RateLimitCategory | undefined>(RATE_LIMIT_CATEGORY, [context.getHandler(), context.getClass()]);
    if (category === undefined) return true;
    const http = context.switchToHttp();
    const headers = await this.limiter.acquire(callerOf(http.getRequest<AuthenticatedRequest>()).organisationId, category);
    http.getResponse<Response>().set(headers);
    return true;
  }
}
