import {
  DomainError,
  Environment,
  JobState,
  PLAIN_PDF_CONFORMANCE,
  renderIssue,
  RenderIssueType,
  renderStatusOf,
  RenderStatus,
  type DeliverWebhookCommand,
  type RenderDocumentResult,
} from '@docrender/contracts';
import type { Logger } from '@docrender/observability';
import type { BlobStore } from '@docrender/storage';
import { jobDocumentPdfBlobKey, jobInputKey, jobTransientPdfBlobKey } from '../blob-keys';
import { jobDocumentId } from '../deterministic-id';
import { hasCreditLeft, renderWhileCreditLasts, type CreditGauge, type CreditRun } from '../render-batch';
import type { RenderServiceClient } from '../render-service.client';
import { UnreadableTemplateError, type RenderTarget, type RenderTargetResolver } from '../render-target';
import { documentOutcomeOf } from '../render-command';
import type { JobDocumentRecorder } from '../rendered-document';
import { completionCallback, jobMessage, progressCallback, type JobOutcome } from './job-callbacks';
import type { JobCounters, JobEnding, JobRuns, RenderJobRecord, ViewUrls } from './render-job';

export type RenderJobHandlerOptions = {
  /** Documents of one job rendered in parallel. */
  renderConcurrency: number;
};

/**
 * What the handler's surroundings provide: the render use case (target, recording), the job's repositories, the
 * connections, and a signal that callback messages were stored.
 */
export type RenderJobHandlerDependencies = {
  jobs: JobRuns;
  ledger: JobEnding;
  credit: CreditGauge;
  targets: Pick<RenderTargetResolver, 'forStoredTemplate'>;
  documents: JobDocumentRecorder;
  blobStore: BlobStore;
  /** The one render-service client: no reply in time, or no message bus, is thrown as an outage (the job waits and retries). */
  renderService: Pick<RenderServiceClient, 'renderForJob'>;
  logger: Logger;
  viewUrl: ViewUrls;
  counters: JobCounters;
  /**
   * Called after a transaction stored a callback in the outbox (a document's progress callback or the job's
   * completion callback) with that callback, so that it is published at once.
   */
  callbackStored: (callback: DeliverWebhookCommand) => void;
  /** True once the process is shutting down: a running job stops starting documents and returns to the queue. */
  isStopping: () => boolean;
};

/** The loaded, unchanging context of one run of a job. */
type JobContext = { job: RenderJobRecord; target: RenderTarget };


/** Thrown when a job cannot be run at all for a reason inside the job (not an outage): it fails with this reason. */
export class JobNotRunnableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobNotRunnableError';
  }
}

/** The process is shutting down: the job's message returns to the queue and another run resumes it. */
export class JobInterruptedError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} interrupted by shutdown; it resumes from its recorded documents`);
    this.name = 'JobInterruptedError';
  }
}

/**
 * Runs one async render job (spec 3.1), idempotently: a job run again after a crash or a redelivery skips every
 * document whose outcome is recorded, and everything a document produces — its stored document, its credit, its
 * recorded outcome and its progress callback (an outbox message with a deterministic delivery id) — is written in
 * one transaction, so it exists exactly once. Documents render in parallel through the render service; the job ends
 * with one completion callback written in the transaction that makes the job terminal.
 */
export class RenderJobHandler {
  constructor(
    private readonly deps: RenderJobHandlerDependencies,
    private readonly options: RenderJobHandlerOptions,
  ) {}

  /** Runs the job to its end. Errors (outages, bugs) propagate; what was recorded stays recorded. */
  async run(jobId: string): Promise<void> {
    const { jobs } = this.deps;
    const job = await jobs.findAnyById(jobId);
    if (!job) {
      this.deps.logger.warn('job.run for a job that does not exist (withdrawn or deleted); nothing to do', { jobId });
      return;
    }
    if (job.state !== JobState.Pending) {
      this.deps.logger.info('job already finished; nothing to do', { jobId, state: job.state });
      return;
    }
    // The job's start in parallel (issue 23: five round trips one after another before the first render): the first
    // pick-up, the render target, the documents recorded by an earlier run, and the credit (looked at once, before the
    // first document; after that each rendered document's transaction takes its pages or stops the job — a look
    // before every document cost two queries each and decided nothing that transaction does not).
    const [target, recordedResults, exhausted] = await Promise.all([
      this.target(job).catch((error: unknown) => {
        if (error instanceof JobNotRunnableError) return error;
        throw error;
      }),
      jobs.listDocumentResults(jobId),
      job.environment === Environment.Production ? hasCreditLeft(this.deps.credit, job.organisationId).then((left) => !left) : false,
      jobs.markStarted(jobId),
    ]);
    if (target instanceof JobNotRunnableError) {
      this.deps.logger.error('job cannot be run', { jobId, err: target });
      await this.explainUnrecorded(job, target.message);
      await this.finish(job, { creditStopped: false }, target.message);
      return;
    }
    const context: JobContext = { job, target };
    const recorded = new Set(recordedResults.map((r) => r.documentIndex));
    const remaining = Array.from({ length: job.requestedCount }, (_, i) => i).filter((i) => !recorded.has(i));
    if (recorded.size > 0) this.deps.logger.info('job resumed', { jobId, recorded: recorded.size, remaining: remaining.length });
    // The loop is the sync batch's (renderWhileCreditLasts); what differs is the job's own: it renders only the
    // documents no earlier run recorded, stops on shutdown, and records each document with its progress callback.
    const creditStopped = remaining.length > 0 && exhausted;
    const run = await renderWhileCreditLasts(remaining, { concurrency: this.options.renderConcurrency, creditStopped }, async (documentIndex, state) => {
      if (this.deps.isStopping()) throw new JobInterruptedError(jobId);
      const reply = await this.render(context, documentIndex);
      await this.record(context, documentIndex, reply, state);
    });
    await this.finish(job, run);
  }

  /**
   * Ends a pending job that cannot run (its message was dead-lettered after repeated failures): completed with
   * status partial when it produced documents, otherwise failed with `reason`.
   */
  async abandon(jobId: string, reason: string): Promise<void> {
    const job = await this.deps.jobs.findAnyById(jobId);
    if (!job || job.state !== JobState.Pending) return;
    await this.explainUnrecorded(job, reason);
    await this.finish(job, { creditStopped: false }, reason);
  }

  /**
   * Spec 3.1 rule 2: every document of a job ended before it rendered is recorded as failed with an issue naming it
   * (RenderTimeout, docs/decisions/0010), so the job status and the completion callback explain each missing one.
   */
  private async explainUnrecorded(job: RenderJobRecord, reason: string): Promise<void> {
    const recorded = new Set((await this.deps.jobs.listDocumentResults(job.id)).map((r) => r.documentIndex));
    for (let documentIndex = 0; documentIndex < job.requestedCount; documentIndex++) {
      if (recorded.has(documentIndex)) continue;
      const issue = renderIssue(RenderIssueType.RenderTimeout, `The document was not rendered: the job was ended because ${reason}.`);
      if (await this.deps.documents.recordMissing(job.id, documentIndex, 'failed', [issue])) this.deps.counters.documentEnded('failed');
    }
  }

  /** The render target of the job (the render use case's one path); a template or version gone makes it not runnable. */
  private async target(job: RenderJobRecord): Promise<RenderTarget> {
    try {
      return await this.deps.targets.forStoredTemplate(job, job.templateId, job.versionNumber, { matched: job.language });
    } catch (error) {
      if (error instanceof DomainError) throw new JobNotRunnableError(`template ${job.templateId} version ${job.versionNumber} no longer exists`);
      if (error instanceof UnreadableTemplateError) throw new JobNotRunnableError(error.message);
      throw error;
    }
  }

  private render({ job, target }: JobContext, documentIndex: number): Promise<RenderDocumentResult> {
    return this.deps.renderService.renderForJob(target, {
      requestId: `${job.id}:${documentIndex}`,
      data: { blobKey: jobInputKey(job.inputBlobKey, documentIndex) },
      outputBlobKey: jobDocumentPdfBlobKey(job, documentIndex),
    });
  }

  private async record({ job, target }: JobContext, documentIndex: number, reply: RenderDocumentResult, state: CreditRun): Promise<void> {
    const result = documentOutcomeOf(reply);
    if (result.pdf === null) {
      await this.deps.documents.recordMissing(job.id, documentIndex, result.outcome, result.issues);
      this.deps.counters.documentEnded(result.outcome);
      return;
    }
    const { pdf } = result;
    if (state.creditStopped) {
      // Credit ran out while this document was rendering: the job has stopped (as a sync batch discards its in-flight documents).
      await this.discardPdf(job, documentIndex, pdf.blobKey);
      return;
    }
    const documentId = job.persist ? jobDocumentId(job.id, documentIndex) : null;
    const needsBytes = job.includeDocument || !job.persist;
    const documentBase64 = needsBytes ? (await this.deps.blobStore.get(pdf.blobKey)).toString('base64') : null;
    const renderedAt = new Date();
    const renderDurationMs = Math.round(reply.renderDurationMs);
    const recorded = await this.deps.documents.recordRendered(
      { organisationId: job.organisationId, environment: job.environment, jobId: job.id },
      documentIndex,
      { documentId, source: target.source, language: job.language, documentName: reply.documentName, pdf, renderDurationMs, renderedAt },
      result.issues,
      progressCallback(job, documentIndex, {
        id: documentId,
        documentName: reply.documentName,
        pageCount: pdf.pageCount,
        fileSizeBytes: pdf.fileSizeBytes,
        renderedAt,
        renderDurationMs,
        viewUrl: documentId === null ? null : this.deps.viewUrl.sign(documentId, renderedAt),
        documentBase64,
        conformance: pdf.conformance ?? PLAIN_PDF_CONFORMANCE,
      }),
    );
    switch (recorded.recording) {
      case 'recorded':
        this.deps.counters.documentEnded('rendered');
        if (recorded.callback) this.deps.callbackStored(recorded.callback);
        if (!job.persist) await this.deleteQuietly(pdf.blobKey);
        return;
      case 'duplicate':
        this.deps.logger.info('document already recorded by another run of the job', { jobId: job.id, documentIndex });
        return;
      case 'no-credit':
        state.creditStopped = true;
        this.deps.logger.info('credit ran out; the job stops and keeps the documents already rendered', { jobId: job.id, documentIndex });
        await this.discardPdf(job, documentIndex, pdf.blobKey);
        return;
    }
  }

  /**
   * Makes the job terminal (spec 3.1) and stores its completion callback in the same transaction. `failureReason`
   * forces the reason of a job that produced nothing (a job that could not be run).
   */
  private async finish(job: RenderJobRecord, state: CreditRun, failureReason?: string): Promise<void> {
    const ended = await this.deps.ledger.finish(job.id, (current, results) => {
      const status = renderStatusOf(current.requestedCount, current.renderedCount, state.creditStopped);
      const outcome: JobOutcome = {
        state: current.renderedCount > 0 ? JobState.Completed : JobState.Failed,
        status,
        renderedCount: current.renderedCount,
        requestedCount: current.requestedCount,
        message: failureReason !== undefined && current.renderedCount === 0 ? `The job could not be run: ${failureReason}` : jobMessage(status, current.requestedCount, current.renderedCount),
        issues: results.flatMap((r) => r.issues),
      };
      return {
        outcome,
        completion:
          outcome.state === JobState.Completed
            ? { state: JobState.Completed, status }
            : { state: JobState.Failed, status, failureReason: failureReason ?? failureReasonOf(status, current.requestedCount) },
        callback: completionCallback(current, outcome),
      };
    });
    if (ended === null) return;
    const { outcome } = ended;
    this.deps.callbackStored(ended.callback);
    this.deps.counters.jobEnded(outcome.state, outcome.status);
    this.deps.logger.info('job finished', { jobId: job.id, state: outcome.state, status: outcome.status, renderedCount: outcome.renderedCount, requestedCount: outcome.requestedCount });
    await this.deleteJobBlobs(job);
  }

  /**
   * The job's inputs (and any PDF of a document not persisted that a crashed run left) are not needed once it is
   * terminal. One at a time: the job is already answered, and this keeps the blob store's load low.
   */
  private async deleteJobBlobs(job: RenderJobRecord): Promise<void> {
    for (let i = 0; i < job.requestedCount; i++) {
      await this.deleteQuietly(jobInputKey(job.inputBlobKey, i));
      if (!job.persist) await this.deleteQuietly(jobTransientPdfBlobKey(job.id, i));
    }
  }

  /**
   * Deletes the PDF of a document this run will not record. A persisted document's PDF key is shared by every run of
   * the job (its id is deterministic), so it stays when another run has recorded that document meanwhile.
   */
  private async discardPdf(job: RenderJobRecord, documentIndex: number, blobKey: string): Promise<void> {
    if (job.persist && (await this.deps.documents.isRecorded(job.id, documentIndex))) return;
    await this.deleteQuietly(blobKey);
  }

  private async deleteQuietly(key: string): Promise<void> {
    try {
      await this.deps.blobStore.delete(key);
    } catch (error) {
      this.deps.logger.warn('could not delete a job blob; it stays behind', { blobKey: key, errorMessage: error instanceof Error ? error.message : String(error) });
    }
  }
}

function failureReasonOf(status: RenderStatus, requested: number): string {
  return status === RenderStatus.InsufficientCredit
    ? 'insufficient credit: the organisation had no page credit left before any document rendered'
    : `no document rendered: all ${requested} were blocked or failed (see issues)`;
}
