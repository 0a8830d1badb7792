import { Global, Module } from '@nestjs/common';
import { ApiKeyUseRecorder } from './api-key-use.recorder';
import { ApiKeyGuard } from './api-key.guard';

/**
 * Bearer-key authentication (spec part 5). Global, so that any feature module's `@UseGuards(ApiKeyGuard, …)`
 * resolves the guard's dependencies; ApiKeyRepository itself comes from the InfrastructureModule.
 */
@Global()
@Module({ providers: [ApiKeyGuard, ApiKeyUseRecorder], exports: [ApiKeyGuard, ApiKeyUseRecorder] })
export class AuthModule {}
