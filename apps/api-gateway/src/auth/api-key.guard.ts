import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import { RATE_LIMIT_CATEGORY } from '../http/route-category';
import { ApiKeyUseRecorder } from './api-key-use.recorder';
import { API_KEYS, type ApiKeyAuthenticator } from './auth.tokens';
import type { AuthenticatedRequest } from './caller';
import { bearerToken } from './bearer-token';

/** RFC 6750: a 401 names the scheme the client should use. */
const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/**
 * Spec part 5: every endpoint except the probes needs `Authorization: Bearer <API_KEY>`.
 * - missing, malformed, unknown or revoked key → 401 Unauthorized;
 * - a known key whose organisation was deleted → 401 NotAuthenticated;
 * - a key of a suspended organisation on a render or write request (a POST or PATCH of rate-limit category Render or
 *   Write; job status polls stay allowed) → 403 Forbidden: it may read but not act, and a new key does not help (5.4).
 * On success the caller (organisation, environment from the key's prefix, key id) is attached to the request.
 * Every request with a known key of a live organisation counts as a use (the workspace shows the last one); the
 * request does not wait for that to be recorded.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @Inject(API_KEYS) private readonly apiKeys: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
    private readonly uses: ApiKeyUseRecorder,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (header === undefined) throw new DomainError(ErrorCode.Unauthorized, 'missing API key: send Authorization: Bearer <API_KEY>', CHALLENGE);
    const key = bearerToken(header);
    if (key === null) throw new DomainError(ErrorCode.Unauthorized, 'malformed Authorization header: expected Bearer <API_KEY>', CHALLENGE);
    const authenticated = await this.apiKeys.authenticate(key);
    if (authenticated === null) throw new DomainError(ErrorCode.Unauthorized, 'invalid API key', CHALLENGE);
    if (authenticated.organisationDeleted) {
      throw new DomainError(ErrorCode.NotAuthenticated, 'the API key has no associated organisation', CHALLENGE);
    }
    void this.uses.used(authenticated.apiKeyId);
    if (authenticated.organisationSuspended && request.method !== 'GET') {
      const category = this.reflector.getAllAndOverride<RateLimitCategory | undefined>(RATE_LIMIT_CATEGORY, [context.getHandler(), context.getClass()]);
      if (category === RateLimitCategory.Render || category === RateLimitCategory.Write) {
        throw new DomainError(ErrorCode.Forbidden, 'the organisation is suspended: it may read, but not render or change anything; contact the service operator');
      }
    }
    request.caller = {
      organisationId: authenticated.organisationId,
      environment: authenticated.environment,
      apiKeyId: authenticated.apiKeyId,
    };
    return true;
  }
}
