import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { Settings } from '@docrender/config';
import { BLOB_STORE } from '@docrender/storage';
import { MESSAGE_BUS } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { DATABASE } from './database.token';
import { Connections, hasDatabase } from './infrastructure';

/** The one logger token: every app's services, consumers and filters take the process's logger under it. */
export const LOGGER = Symbol('Logger');

/**
 * Makes an app's share of the process's infrastructure injectable: MESSAGE_BUS, BLOB_STORE, LOGGER and the
 * process's `Settings` for every app; for an app whose service definition asks for the database, the persistence
 * `Database` under a token only PersistenceModule injects — no repository: each module declares the repositories it
 * uses with PersistenceModule.forFeature (issue 37), and none gets the raw connection (issue 19). The shared bootstrap
 * (createServiceApp) imports it above each app's root module; app modules do not import it themselves.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(infrastructure: Connections, logger: Logger, settings: Settings): DynamicModule {
    const providers: Provider[] = [
      { provide: MESSAGE_BUS, useValue: infrastructure.bus },
      { provide: BLOB_STORE, useValue: infrastructure.blobStore },
      { provide: LOGGER, useValue: logger },
      { provide: Settings, useValue: settings },
    ];
    if (hasDatabase(infrastructure)) providers.push({ provide: DATABASE, useValue: infrastructure.database });
    return { module: InfrastructureModule, providers, exports: providers.map((p) => (p as { provide: unknown }).provide as never) };
  }
}
