import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto, RATE_LIMIT_PER_WINDOW, RATE_LIMIT_WINDOW_SECONDS, RateLimitCategory } from '@docrender/contracts';
import { RateLimit } from '../http/route-category';

/**
 * `@RateLimit(category)` plus its OpenAPI: the 429 answer with `Retry-After`. Use this on routes; `@RateLimit`
 * alone when the documentation is written by hand.
 */
export function RateLimited(category: RateLimitCategory): MethodDecorator & ClassDecorator {
  return applyDecorators(
    RateLimit(category),
    ApiResponse({
      status: 429,
      type: ErrorEnvelopeDto,
      description: `TooManyRequests: more than ${RATE_LIMIT_PER_WINDOW[category]} ${category} requests of the organisation in a sliding ${RATE_LIMIT_WINDOW_SECONDS} s window.`,
      headers: {
        'Retry-After': { description: 'Whole seconds after which a request succeeds (unless other requests take the freed permit first).', schema: { type: 'integer' } },
      },
    }),
  );
}
