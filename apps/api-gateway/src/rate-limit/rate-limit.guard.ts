import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimitCategory } from '@docrender/contracts';
import type { Response } from 'express';
import { callerOf, type AuthenticatedRequest } from '../auth/caller';
import { deferPermit, RATE_LIMIT_OVERLAPPED } from './overlapped-permit';
import { RATE_LIMIT_CATEGORY } from '../http/route-category';
import { RateLimiter } from './rate-limiter';

/**
 * Spec part 8: per organisation and category, a sliding window; one request costs one permit whatever it carries.
 * Refused requests cost nothing and answer 429 TooManyRequests with `Retry-After` (whole seconds). The category comes
 * from `@RateLimit`/`@RateLimited` on the handler or its controller; a route without one is not limited. Runs after
 * ApiKeyGuard (it keys by the caller's organisation). Every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`.
 * On routes with `@OverlapRateLimit` the handler runs while the permit is being taken and joins it (withPermit).
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
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const permit = this.limiter.acquire(callerOf(request).organisationId, category).then((headers) => {
      response.set(headers);
    });
    if (this.reflector.getAllAndOverride<boolean | undefined>(RATE_LIMIT_OVERLAPPED, [context.getHandler(), context.getClass()]) === true) {
      deferPermit(request, permit);
    } else {
      await permit;
    }
    return true;
  }
}
