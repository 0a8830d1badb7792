import { Global, Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard';

/**
 * Bearer-key authentication (spec part 5). Global, so that any feature module's `@UseGuards(ApiKeyGuard, …)`
 * resolves the guard's dependencies; ApiKeyRepository itself comes from the InfrastructureModule.
 */
@Global()
@Module({ providers: [ApiKeyGuard], exports: [ApiKeyGuard] })
export class AuthModule {}
