import { DocumentType, Environment, type RenderIssue } from '@docrender/contracts';
import type { JobDocumentEntry, JobDocumentRecorded, JobDocumentRecording, ProgressCallbackDraft, RenderedDocumentEntry } from '@docrender/persistence';
import type { RenderedPdf } from './render-command';
import type { RenderScope, RenderSource } from './render-target';

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

export type { JobDocumentEntry, JobDocumentRecorded, JobDocumentRecording, ProgressCallbackDraft, RenderedDocumentEntry };

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
