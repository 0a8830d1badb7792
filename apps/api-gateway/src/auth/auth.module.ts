import { Global, Module } from '@nestjs/common';
import { ApiKeyRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { ApiKeyUseRecorder } from './api-key-use.recorder';
import { ApiKeyGuard } from './api-key.guard';
import { API_KEYS } from './auth.tokens';

/**
 * Bearer-key authentication (spec part 5). Global, so that any feature module's `@UseGuards(ApiKeyGuard, …)`
 * resolves the guard's dependencies: the guard, the use recorder and API_KEYS (the keys' `authenticate`), not the
 * ApiKeyRepository this module declares.
 */
@Global()
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [ApiKeyRepository] })],
  providers: [ApiKeyGuard, ApiKeyUseRecorder, { provide: API_KEYS, useExisting: ApiKeyRepository }],
  exports: [ApiKeyGuard, ApiKeyUseRecorder, API_KEYS],
})
export class AuthModule {}
