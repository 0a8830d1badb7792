import { Global, Module } from '@nestjs/common';
import { rateLimitSettings, Settings } from '@docrender/config';
import { RateLimitRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { RateLimitPermitPruner } from './rate-limit-permit.pruner';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimiter } from './rate-limiter';
import { RATE_LIMIT_POLICY, RATE_LIMIT_STORE } from './rate-limit.store';

/**
 * The per-organisation rate limits (spec part 8), with RATE_LIMIT_* settings read at start. Global, so that any
 * feature module's `@UseGuards(ApiKeyGuard, RateLimitGuard)` resolves the guard's dependencies (the store as
 * RATE_LIMIT_STORE, not the RateLimitRepository this module declares).
 */
@Global()
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [RateLimitRepository] })],
  providers: [
    RateLimitGuard,
    RateLimiter,
    RateLimitPermitPruner,
    { provide: RATE_LIMIT_POLICY, useFactory: (settings: Settings) => new RateLimitPolicy(settings.get(rateLimitSettings)), inject: [Settings] },
    { provide: RATE_LIMIT_STORE, useExisting: RateLimitRepository },
  ],
  exports: [RateLimitGuard, RateLimiter, RATE_LIMIT_POLICY, RATE_LIMIT_STORE],
})
export class RateLimitModule {}
