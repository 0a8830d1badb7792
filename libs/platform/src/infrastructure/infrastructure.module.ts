import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { BLOB_STORE } from '@docrender/storage';
import { MESSAGE_BUS } from '@docrender/messaging';
import { createRepositories, Database } from '@docrender/persistence';
import type { Logger } from '@docrender/observability';
import type { Infrastructure } from './infrastructure';

export const DATA_SOURCE = Symbol('DataSource');
export const LOGGER = Symbol('Logger');

/**
 * Makes the process's infrastructure injectable: MESSAGE_BUS, BLOB_STORE, DATA_SOURCE, LOGGER, the persistence
 * `Database` (repositories plus transactions) and every repository by its class. The root modules of the api-gateway,
 * the job-worker and the webhook-dispatcher import it with the instance their main.ts (or the one-process launcher)
 * built; the render service opens no database and wires its own bus and blob store (render-service.module.ts).
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(infrastructure: Infrastructure, logger: Logger): DynamicModule {
    const options = { apiKeyPepper: infrastructure.apiKeyPepper };
    const repositories = Object.values(createRepositories(infrastructure.dataSource.manager, options));
    const providers: Provider[] = [
      { provide: DATA_SOURCE, useValue: infrastructure.dataSource },
      { provide: MESSAGE_BUS, useValue: infrastructure.bus },
      { provide: BLOB_STORE, useValue: infrastructure.blobStore },
      { provide: LOGGER, useValue: logger },
      { provide: Database, useValue: new Database(infrastructure.dataSource, options) },
      ...repositories.map((repository) => ({ provide: repository.constructor, useValue: repository })),
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((p) => (p as { provide: unknown }).provide as never) };
  }
}
