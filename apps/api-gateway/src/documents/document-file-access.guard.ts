import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';

/** True when the request carries a signed-link query (`expires` or `signature`): the signature is then its credential. */
export function isSignedLinkRequest(request: Request): boolean {
  return request.query.signature !== undefined || request.query.expires !== undefined;
}

/**
 * Spec 4.15 with 2.4: the PDF download accepts either the bearer key (then ApiKeyGuard and RateLimitGuard apply as on
 * every route) or a signed viewUrl, which DocumentsService verifies (a bad link is 401 Unauthorized) before anything
 * is read. A request with a signature is judged by its signature alone.
 */
@Injectable()
export class DocumentFileAccessGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyGuard,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isSignedLinkRequest(context.switchToHttp().getRequest<Request>())) return true;
    return (await this.apiKeys.canActivate(context)) && (await this.rateLimit.canActivate(context));
  }
}
