import {
  CompletionCallbackDto,
  DeliverWebhookCommand,
  type DocumentConformance,
  DocumentType,
  JobState,
  ProgressCallbackDto,
  RenderedDocumentDto,
  RenderIssue,
  RenderStatus,
  WebhookEvent,
} from '@docrender/contracts';
import { completionDeliveryId, progressDeliveryId } from '../deterministic-id';
import type { ProgressCallbackDraft } from '../rendered-document';
import type { RenderJobRecord } from './render-job';

/** What the progress callback says about one rendered document (spec 2.5 without documentIndex). */
export type ProgressDocumentFacts = {
  id: string | null;
  documentName: string;
  pageCount: number;
  fileSizeBytes: number;
  renderedAt: Date;
  renderDurationMs: number;
  viewUrl: string | null;
  documentBase64: string | null;
  conformance: DocumentConformance;
};

/**
 * Spec 2.10: the progress callback of one rendered document, as the message the dispatcher delivers, with `processed`
 * left for the recording to fill in (the body is `bodyHead + processed + bodyTail`).
 */
export function progressCallback(job: RenderJobRecord, documentIndex: number, document: ProgressDocumentFacts): ProgressCallbackDraft {
  const rendered: RenderedDocumentDto = {
    id: document.id,
    documentName: document.documentName,
    templateId: job.templateId,
    versionNumber: job.versionNumber,
    environment: job.environment,
    fileSizeBytes: document.fileSizeBytes,
    pageCount: document.pageCount,
    renderedAt: document.renderedAt.toISOString(),
    renderDuration: document.renderDurationMs,
    viewUrl: document.viewUrl,
    documentType: DocumentType.Template,
    language: job.language,
    documentBase64: document.documentBase64,
    documentIndex,
    conformance: document.conformance,
  };
  const rest: Omit<ProgressCallbackDto, 'jobId' | 'processed'> = { requestedCount: job.requestedCount, documentIndex, document: rendered };
  return {
    command: {
      deliveryId: progressDeliveryId(job.id, documentIndex),
      jobId: job.id,
      organisationId: job.organisationId,
      event: WebhookEvent.Progress,
      callbackUrl: job.callbackUrl,
      attempt: 1,
    },
    // {"jobId":…,"processed":N,"requestedCount":…,…}: the body ProgressCallbackDto serialises to, N filled in
    bodyHead: `{"jobId":${JSON.stringify(job.id)},"processed":`,
    bodyTail: `,${JSON.stringify(rest).slice(1)}`,
  };
}

export type JobOutcome = {
  state: JobState.Completed | JobState.Failed;
  status: RenderStatus;
  renderedCount: number;
  requestedCount: number;
  message: string;
  /** Every issue of the job, untruncated. */
  issues: RenderIssue[];
};

/** Spec 2.11: the completion callback (event render.completed or render.failed), as the message the dispatcher delivers. */
export function completionCallback(job: RenderJobRecord, outcome: JobOutcome): DeliverWebhookCommand {
  const body: CompletionCallbackDto = {
    jobId: job.id,
    state: outcome.state,
    status: outcome.status,
    renderedCount: outcome.renderedCount,
    requestedCount: outcome.requestedCount,
    missingCount: outcome.requestedCount - outcome.renderedCount,
    message: outcome.message,
    issues: outcome.issues,
  };
  return {
    deliveryId: completionDeliveryId(job.id),
    jobId: job.id,
    organisationId: job.organisationId,
    event: outcome.state === JobState.Completed ? WebhookEvent.Completed : WebhookEvent.Failed,
    callbackUrl: job.callbackUrl,
    body: JSON.stringify(body),
    attempt: 1,
  };
}

/** The human-readable summary of a finished job (not for parsing). */
export function jobMessage(status: RenderStatus, requested: number, rendered: number): string {
  const documents = (n: number): string => `${n} document${n === 1 ? '' : 's'}`;
  switch (status) {
    case RenderStatus.Ok:
      return `All ${documents(requested)} rendered.`;
    case RenderStatus.Partial:
      return `${rendered} of ${documents(requested)} rendered; ${requested - rendered} missing (see issues).`;
    case RenderStatus.Failed:
      return `None of the ${documents(requested)} rendered (see issues).`;
    case RenderStatus.InsufficientCredit:
      return `Credit ran out: ${rendered} of ${documents(requested)} rendered; the job stopped and ${requested - rendered} are missing.`;
  }
}
