import { DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ValidationPipe } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, PersistenceModule, ProbesModule, renderServiceProviders, type Infrastructure } from '@docrender/platform';
import { Settings, workspaceSettings } from '@docrender/config';
import {
  ApiKeyRepository,
  DocumentListingQuery,
  FontRepository,
  OrganisationRepository,
  StoredDocumentRepository,
  TemplateListingQuery,
  TemplateRepository,
  TemplateVersionRepository,
  UsageRepository,
  WebhookDeliveryRepository,
  WebhookSecretRepository,
  WorkspaceInvitationRepository,
  WorkspaceSessionRepository,
  WorkspaceUserRepository,
} from '@docrender/persistence';
import { RenderTargetResolver } from '@docrender/rendering';
import { AssetsController } from './assets/assets.controller';
import { SESSION_LIFETIME_MS } from './auth/auth.tokens';
import { DeliveriesController } from './deliveries/deliveries.controller';
import { DocumentsController } from './documents/documents.controller';
import { FontsController } from './fonts/fonts.controller';
import { InvitationController } from './auth/invitation.controller';
import { SessionController } from './auth/session.controller';
import { SessionCookie } from './auth/session-cookie';
import { SignInLimiter } from './auth/sign-in-limiter';
import { WorkspaceAuthGuard } from './auth/workspace-auth.guard';
import { MembersController } from './organisation/members.controller';
import { OrganisationController } from './organisation/organisation.controller';
import { PreviewController } from './preview/preview.controller';
import { PreviewService } from './preview/preview.service';
import { ExamplesCatalog, findExamplesDir } from './templates/examples.catalog';
import { TemplatesController } from './templates/templates.controller';
import { WorkspaceTemplates } from './templates/templates.service';

/** The template workspace's HTTP API (issue 35, docs/workspace.md); its pages are static files (configureWorkspaceHttp). */
@Module({})
export class WorkspaceModule {
  static register(infrastructure: Infrastructure): DynamicModule {
    return {
      module: WorkspaceModule,
      imports: [
        // Spec 4.17's probes for the workspace's own app (its port is public: no metrics on it).
        ProbesModule.register({ checks: () => [databaseCheck(infrastructure.database), blobStoreCheck(infrastructure.blobStore)], metricsOnAppPort: false }),
        PersistenceModule.forFeature({
          repositories: [
            WorkspaceSessionRepository,
            WorkspaceUserRepository,
            WorkspaceInvitationRepository,
            OrganisationRepository,
            ApiKeyRepository,
            WebhookSecretRepository,
            WebhookDeliveryRepository,
            TemplateRepository,
            TemplateVersionRepository,
            TemplateListingQuery,
            FontRepository,
            StoredDocumentRepository,
            DocumentListingQuery,
            UsageRepository,
          ],
          transactions: ['workspaceInvitations', 'workspaceUsers', 'webhookDeliveries', 'templates', 'templateVersions'],
        }),
      ],
      controllers: [SessionController, InvitationController, TemplatesController, PreviewController, OrganisationController, MembersController, DeliveriesController, DocumentsController, FontsController, AssetsController],
      providers: [
        WorkspaceAuthGuard,
        { provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }) },
        { provide: SessionCookie, useFactory: (s: Settings) => new SessionCookie(s.get(workspaceSettings).secureCookies), inject: [Settings] },
        { provide: SignInLimiter, useFactory: (s: Settings) => new SignInLimiter(s.get(workspaceSettings).signInAttempts), inject: [Settings] },
        { provide: SESSION_LIFETIME_MS, useFactory: (s: Settings) => s.get(workspaceSettings).sessionHours * 3600 * 1000, inject: [Settings] },
        ...renderServiceProviders,
        {
          provide: RenderTargetResolver,
          useFactory: (templates: TemplateRepository, fonts: FontRepository) => new RenderTargetResolver(templates, fonts),
          inject: [TemplateRepository, FontRepository],
        },
        { provide: ExamplesCatalog, useFactory: () => new ExamplesCatalog(findExamplesDir()) },
        WorkspaceTemplates,
        PreviewService,
      ],
    };
  }
}
