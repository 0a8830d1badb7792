import { InitialSchema1763740800000 } from './1763740800000-initial-schema.migration';
import { WebhookDeliveries1763913600000 } from './1763913600000-webhook-deliveries.migration';
import { OrganisationSuspension1764000000000 } from './1764000000000-organisation-suspension.migration';
import { RateLimitAcquireFunction1764003600000 } from './1764003600000-rate-limit-acquire-function.migration';
import { OutboxTraceContext1764007200000 } from './1764007200000-outbox-trace-context.migration';
import { RenderJobRecordedCount1764010800000 } from './1764010800000-render-job-recorded-count.migration';
import { RenderJobDocumentDeferredReference1764014400000 } from './1764014400000-render-job-document-deferred-reference.migration';
import { DocumentConformance1764018000000 } from './1764018000000-document-conformance.migration';
import { WorkspaceUsers1764021600000 } from './1764021600000-workspace-users.migration';
import { UndeliveredRenders1764041000000 } from './1764041000000-undelivered-renders.migration';
import { WorkspaceInvitations1764044600000 } from './1764044600000-workspace-invitations.migration';
import { ApiKeyLastUse1764048200000 } from './1764048200000-api-key-last-use.migration';

/** Every migration, oldest first. Add new ones at the end; never edit one that has shipped. */
export const MIGRATIONS = [InitialSchema1763740800000, WebhookDeliveries1763913600000, OrganisationSuspension1764000000000, RateLimitAcquireFunction1764003600000, OutboxTraceContext1764007200000, RenderJobRecordedCount1764010800000, RenderJobDocumentDeferredReference1764014400000, DocumentConformance1764018000000, WorkspaceUsers1764021600000, UndeliveredRenders1764041000000, WorkspaceInvitations1764044600000, ApiKeyLastUse1764048200000];
