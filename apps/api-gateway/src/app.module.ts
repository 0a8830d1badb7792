import { DynamicModule, Module } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, Infrastructure, InfrastructureModule, ProbesModule } from '@docrender/platform';
import type { Logger } from '@docrender/observability';
import { GATEWAY_LOGGER } from './http/tokens';

/** The API gateway's root module: every /v1 endpoint of the contract. */
@Module({})
export class ApiGatewayModule {
  static register(infrastructure: Infrastructure, logger: Logger): DynamicModule {
    return {
      module: ApiGatewayModule,
      imports: [
        InfrastructureModule.forRoot(infrastructure, logger),
        // Spec 4.17: the gateway's status probe checks the database and blob storage.
        ProbesModule.register({ checks: () => [databaseCheck(infrastructure.dataSource), blobStoreCheck(infrastructure.blobStore)] }),
      ],
      providers: [{ provide: GATEWAY_LOGGER, useValue: logger }],
      exports: [GATEWAY_LOGGER],
    };
  }
}
