import { DocumentType, Environment, type DeliverWebhookCommand, type DocumentConformance, type RenderIssue, type RenderOutcome } from '@docrender/contracts';
import type { RenderedPdf } from './render-command';
import type { RenderScope, RenderSource, TemplateRender } from './render-target';

/** One rendered document, as the use case records it. */
export type RenderedDocumentFacts = {
  /** The stored document's id; null when it is not persisted. */
  documentId: string | null;
  /** The stored template and version; null for a stateless render (never persisted). */
  source: RenderSource | null;
  language: string | null;
  documentName: string;
  pdf: RenderedPdf;
  renderDurationMs: number;
  renderedAt: Date;
  /** The async job that rendered it; absent for a sync render. */
  renderJobId?: string;
};

/** The stored document's row a persisted render of a stored template writes (spec 2.4). */
export type StoredDocumentDraft = TemplateRender & {
  id: string;
  documentName: string;
  documentType: DocumentType;
  pdfBlobKey: string;
  fileSizeBytes: number;
  pageCount: number;
  renderedAt: Date;
  renderDurationMs: number;
  /** What it asked to conform to and the result of the render service's checks (decision 0032); null or absent: plain. */
  conformance?: DocumentConformance | null;
  /** The async job that rendered it; absent for a sync render. */
  renderJobId?: string;
};

/** What paying for and recording one rendered document writes, in one transaction. */
export type RenderedDocumentEntry = {
  /** The pages a production render takes from the organisation's credit; null: a test render, which is free. */
  payment: { organisationId: string; pages: number } | null;
  /** The stored document's row; null when the document is not persisted. */
  document: StoredDocumentDraft | null;
  renderedAt: Date;
};

/**
 * A progress callback before its `processed` (spec 2.10: the job's recorded documents once this one counts) is
 * known: the store reads that count under the job row's lock, in the statement that stores the callback, and stores
 * the body as `bodyHead + processed + bodyTail` (progressCallbackOf).
 */
export type ProgressCallbackDraft = { command: Omit<DeliverWebhookCommand, 'body'>; bodyHead: string; bodyTail: string };

/** The progress callback of `draft` once the job's recorded documents are `processed`. */
export function progressCallbackOf(draft: ProgressCallbackDraft, processed: number): DeliverWebhookCommand {
  return { ...draft.command, body: `${draft.bodyHead}${processed}${draft.bodyTail}` };
}

/** The outcome of one document of an async job, and what its recording writes with it. */
export type JobDocumentEntry = {
  jobId: string;
  documentIndex: number;
  outcome: RenderOutcome;
  /** Every issue of the document (each stored with its documentIndex). */
  issues: readonly RenderIssue[];
  /** Set for a rendered document: its payment and stored row. */
  rendered: RenderedDocumentEntry | null;
  /** Set for a rendered document: its progress callback, whose `processed` the recording fills in. */
  progress: ProgressCallbackDraft | null;
  recordedAt: Date;
};

/** recorded; duplicate: another run of the job recorded the document first; no-credit: nothing recorded. */
export type JobDocumentRecording = 'recorded' | 'duplicate' | 'no-credit';

/** What recording a document did; a recorded one with the progress callback it stored (null for a document without a PDF). */
export type JobDocumentRecorded = { recording: 'recorded'; callback: DeliverWebhookCommand | null } | { recording: Exclude<JobDocumentRecording, 'recorded'> };

/** The port a sync render records through: pays and stores in one transaction. */
export type RenderedDocumentStore = {
  /**
   * False, taking and storing nothing, when the pages do not fit the organisation's credit. Throws OutcomeUnknownError
   * (@docrender/contracts) when the store went away after the recording was sent (it may have been paid for), any
   * other error when nothing was recorded.
   */
  record(entry: RenderedDocumentEntry): Promise<boolean>;
};

/** The port a job's documents are recorded through: each document's outcome, payment, row and callback in one transaction. */
export type JobDocumentStore = {
  record(entry: JobDocumentEntry): Promise<JobDocumentRecorded>;
  /** Whether the outcome of the document is recorded (by any run of the job). */
  isRecorded(jobId: string, documentIndex: number): Promise<boolean>;
};

/**
 * Spec 3.1 rule 3 and 2.4: a production render takes its pages of credit, a test render is free; a persisted
 * document of a stored template gets its row (PDF at its blob key), named by the template and version rendered.
 */
export function renderedDocumentEntry(scope: RenderScope, facts: RenderedDocumentFacts): RenderedDocumentEntry {
  const { pdf, renderedAt } = facts;
  return {
    payment: scope.environment === Environment.Production ? { organisationId: scope.organisationId, pages: pdf.pageCount } : null,
    document:
      facts.documentId === null || facts.source === null
        ? null
        : {
            id: facts.documentId,
            organisationId: scope.organisationId,
            templateId: facts.source.templateId,
            versionNumber: facts.source.versionNumber,
            environment: scope.environment,
            language: facts.language,
            documentName: facts.documentName,
            documentType: DocumentType.Template,
            pdfBlobKey: pdf.blobKey,
            fileSizeBytes: pdf.fileSizeBytes,
            pageCount: pdf.pageCount,
            renderedAt,
            renderDurationMs: Math.round(facts.renderDurationMs),
            conformance: pdf.conformance ?? null,
            ...(facts.renderJobId === undefined ? {} : { renderJobId: facts.renderJobId }),
          },
    renderedAt,
  };
}

/** Pays for and records the documents of sync renders (spec 4.2): payment and row in one transaction. */
export class RenderedDocumentRecorder {
  constructor(private readonly ledger: RenderedDocumentStore) {}

  /** False, recording nothing, when the pages do not fit the organisation's credit (the batch stops). */
  record(scope: RenderScope, facts: RenderedDocumentFacts): Promise<boolean> {
    return this.ledger.record(renderedDocumentEntry(scope, facts));
  }
}

/**
 * Records the documents of async jobs (spec 3.1), each once: its outcome, and for a rendered one its payment, row
 * and progress callback, in one transaction, so a job run again after a crash never pays or calls back twice.
 */
export class JobDocumentRecorder {
  constructor(private readonly ledger: JobDocumentStore) {}

  recordRendered(
    scope: RenderScope & { jobId: string },
    documentIndex: number,
    facts: RenderedDocumentFacts,
    issues: readonly RenderIssue[],
    progress: ProgressCallbackDraft,
  ): Promise<JobDocumentRecorded> {
    return this.ledger.record({
      jobId: scope.jobId,
      documentIndex,
      outcome: 'rendered',
      issues,
      rendered: renderedDocumentEntry(scope, { ...facts, renderJobId: scope.jobId }),
      progress,
      recordedAt: facts.renderedAt,
    });
  }

  /** Records a document that ended without a PDF; false when it was recorded already. */
  async recordMissing(jobId: string, documentIndex: number, outcome: 'blocked' | 'failed', issues: readonly RenderIssue[]): Promise<boolean> {
    return (await this.ledger.record({ jobId, documentIndex, outcome, issues, rendered: null, progress: null, recordedAt: new Date() })).recording === 'recorded';
  }

  isRecorded(jobId: string, documentIndex: number): Promise<boolean> {
    return this.ledger.isRecorded(jobId, documentIndex);
  }
}
