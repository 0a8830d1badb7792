import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { BLOB_STORE } from '@docrender/storage';
import { MESSAGE_BUS } from '@docrender/messaging';
import {
  ApiKeyRepository,
  OrganisationRepository,
  OutboxRepository,
  ProjectRepository,
  RenderJobRepository,
  StoredDocumentRepository,
  TemplateRepository,
  TemplateVersionRepository,
  UsageRepository,
  WebhookSecretRepository,
} from '@docrender/persistence';
import type { Logger } from '@docrender/observability';
import type { Infrastructure } from './infrastructure';

export const DATA_SOURCE = Symbol('DataSource');
export const LOGGER = Symbol('Logger');

/** Repositories that need only the entity manager, provided under their own class as token. */
const plainRepositories = [
  OrganisationRepository,
  OutboxRepository,
  ProjectRepository,
  RenderJobRepository,
  StoredDocumentRepository,
  TemplateRepository,
  TemplateVersionRepository,
  UsageRepository,
  WebhookSecretRepository,
] as const;

/**
 * Makes the process's infrastructure injectable: MESSAGE_BUS, BLOB_STORE, DATA_SOURCE, LOGGER and every repository
 * (by its class). Each app's root module imports it with the instance its main.ts (or the one-process launcher) built.
 */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(infrastructure: Infrastructure, logger: Logger): DynamicModule {
    const manager = infrastructure.dataSource.manager;
    const providers: Provider[] = [
      { provide: DATA_SOURCE, useValue: infrastructure.dataSource },
      { provide: MESSAGE_BUS, useValue: infrastructure.bus },
      { provide: BLOB_STORE, useValue: infrastructure.blobStore },
      { provide: LOGGER, useValue: logger },
      { provide: ApiKeyRepository, useValue: new ApiKeyRepository(manager, infrastructure.apiKeyPepper) },
      ...plainRepositories.map((repository) => ({ provide: repository, useValue: new repository(manager) })),
    ];
    return { module: InfrastructureModule, providers, exports: providers.map((p) => (p as { provide: unknown }).provide as never) };
  }
}
