import type { DeliverWebhookCommand, JobState, RenderIssue, RenderOutcome, RenderStatus } from '@docrender/contracts';
import type { TemplateRender } from '../render-target';

// The async job as the use case reads and ends it; persistence keeps it (render_jobs, render_job_documents) and
// adapts to these types.

/** One async render job (spec 3.1). */
export type RenderJobRecord = TemplateRender & {
  id: string;
  persist: boolean;
  includeDocument: boolean;
  callbackUrl: string;
  /** Blob key of the job's input: the JSON array of documents. */
  inputBlobKey: string;
  state: JobState;
  /** null while pending. */
  status: RenderStatus | null;
  requestedCount: number;
  renderedCount: number;
  /** Every issue the job produced (exact); only the first 100 are stored. */
  issueCount: number;
  /** When the job was accepted (the enqueue). */
  createdAt: Date;
  /** When a worker first picked it up; null until then (report createdAt as startedAt meanwhile). */
  startedAt: Date | null;
  completedAt: Date | null;
  failureReason: string | null;
  updatedAt: Date;
};

/** The recorded outcome of one document of a job. */
export type JobDocumentResult = {
  jobId: string;
  documentIndex: number;
  outcome: RenderOutcome;
  /** The stored document, when rendered with persist=true. */
  documentId: string | null;
  /** Every issue of the document, untruncated, each with its documentIndex. */
  issues: RenderIssue[];
  createdAt: Date;
};

export type JobCompletion =
  | { state: JobState.Completed; status: RenderStatus }
  | { state: JobState.Failed; status: RenderStatus; failureReason: string };

/** The job's rows as a run reads them (persistence's RenderJobRepository). */
export interface JobRuns {
  findAnyById(jobId: string): Promise<RenderJobRecord | null>;
  /** Sets when a worker first picked the job up (kept by later runs). */
  markStarted(jobId: string): Promise<void>;
  listDocumentResults(jobId: string): Promise<JobDocumentResult[]>;
}

/** Ends a job (persistence's RenderJobLedger). */
export interface JobEnding {
  /**
   * In one transaction with the job row locked: `decide` gets the job and its recorded documents and says how it ends
   * and with which completion callback (stored in the outbox). Null when the job is not pending any more or `decide`
   * declined.
   */
  finish<T extends { completion: JobCompletion; callback: DeliverWebhookCommand }>(
    jobId: string,
    decide: (job: RenderJobRecord, results: JobDocumentResult[]) => T | null,
  ): Promise<T | null>;
}

/** Signs the view URL of a stored document (spec 2.5 `viewUrl`). */
export interface ViewUrls {
  sign(documentId: string, now?: Date): string;
}

/** What a run counts for the job worker's metrics. */
export interface JobCounters {
  documentEnded(outcome: RenderOutcome): void;
  jobEnded(state: JobState, status: RenderStatus): void;
}
