import { DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ValidationPipe } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, ProbesModule, type Infrastructure } from '@docrender/platform';
import { AssetsController } from './assets/assets.controller';
import { WorkspaceAuthModule } from './auth/workspace-auth.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { DocumentsModule } from './documents/documents.module';
import { FontsModule } from './fonts/fonts.module';
import { OrganisationModule } from './organisation/organisation.module';
import { PreviewModule } from './preview/preview.module';
import { TemplatesModule } from './templates/templates.module';

/**
 * The template workspace's HTTP API (issue 35, docs/workspace.md); its pages are static files (configureWorkspaceHttp).
 * One module per feature, each declaring the repositories it uses (issue 37 item 1).
 */
@Module({})
export class WorkspaceModule {
  static register(infrastructure: Infrastructure): DynamicModule {
    return {
      module: WorkspaceModule,
      imports: [
        // Spec 4.17's probes for the workspace's own app (its port is public: no metrics on it).
        ProbesModule.register({ checks: () => [databaseCheck(infrastructure.database), blobStoreCheck(infrastructure.blobStore)], metricsOnAppPort: false }),
        WorkspaceAuthModule,
        TemplatesModule,
        PreviewModule,
        OrganisationModule,
        DeliveriesModule,
        DocumentsModule,
        FontsModule,
      ],
      controllers: [AssetsController],
      providers: [{ provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }) }],
    };
  }
}
