import { ApiKeyEntity } from './api-key.entity';
import { FontFamilyEntity } from './font-family.entity';
import { FontFileEntity } from './font-file.entity';
import { OrganisationEntity } from './organisation.entity';
import { OutboxMessageEntity } from './outbox-message.entity';
import { ProjectEntity } from './project.entity';
import { RenderJobDocumentEntity } from './render-job-document.entity';
import { RenderJobIssueEntity } from './render-job-issue.entity';
import { RenderJobEntity } from './render-job.entity';
import { StoredDocumentEntity } from './stored-document.entity';
import { TemplateVersionEntity } from './template-version.entity';
import { TemplateEntity } from './template.entity';
import { UsagePeriodEntity } from './usage-period.entity';
import { WebhookSecretEntity } from './webhook-secret.entity';
import { WorkspaceSessionEntity } from './workspace-session.entity';
import { WorkspaceUserEntity } from './workspace-user.entity';

export {
  ApiKeyEntity,
  FontFamilyEntity,
  FontFileEntity,
  OrganisationEntity,
  OutboxMessageEntity,
  ProjectEntity,
  RenderJobDocumentEntity,
  RenderJobEntity,
  RenderJobIssueEntity,
  StoredDocumentEntity,
  TemplateEntity,
  TemplateVersionEntity,
  UsagePeriodEntity,
  WebhookSecretEntity,
  WorkspaceSessionEntity,
  WorkspaceUserEntity,
};

/** Every entity of the schema (the rate-limit table has none: it is used through SQL only). */
export const ENTITIES = [
  OrganisationEntity,
  ApiKeyEntity,
  WebhookSecretEntity,
  ProjectEntity,
  TemplateEntity,
  TemplateVersionEntity,
  StoredDocumentEntity,
  RenderJobEntity,
  RenderJobIssueEntity,
  RenderJobDocumentEntity,
  OutboxMessageEntity,
  UsagePeriodEntity,
  FontFamilyEntity,
  FontFileEntity,
  WorkspaceUserEntity,
  WorkspaceSessionEntity,
];
