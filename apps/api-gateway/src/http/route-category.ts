import { SetMetadata } from '@nestjs/common';
import type { RateLimitCategory } from '@docrender/contracts';

export const RATE_LIMIT_CATEGORY = Symbol('RateLimitCategory');

/**
 * The spec part 8 category of a route's requests (read, write, render; on a controller class or a handler; the
 * handler's wins). The rate limit counts a request against it (`@UseGuards(ApiKeyGuard, RateLimitGuard)`; a route
 * without it is not limited), and the key check refuses a suspended organisation's writes and renders by it. Here,
 * beside the other route conventions, so that neither of those two guards imports the other's module.
 */
export const RateLimit = (category: RateLimitCategory): MethodDecorator & ClassDecorator => SetMetadata(RATE_LIMIT_CATEGORY, category);
