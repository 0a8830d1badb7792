import { SetMetadata } from '@nestjs/common';
import type { RateLimitCategory } from '@docrender/contracts';

export const RATE_LIMIT_CATEGORY = Symbol('RateLimitCategory');

/**
 * The spec part 8 category a route's requests count against (on a controller class or a handler; the handler's
 * wins). Used with `@UseGuards(ApiKeyGuard, RateLimitGuard)`. A route without it is not limited.
 */
export const RateLimit = (category: RateLimitCategory): MethodDecorator & ClassDecorator => SetMetadata(RATE_LIMIT_CATEGORY, category);
