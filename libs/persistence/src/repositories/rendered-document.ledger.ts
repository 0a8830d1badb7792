import type { EntityManager } from 'typeorm';
import { traceCarrier } from '@docrender/observability';
import { dependencyOutageOf } from '@docrender/messaging';
import { DependencyOutageError, JobState, Limits, MessageName, OutcomeUnknownError, type DeliverWebhookCommand } from '@docrender/contracts';
import {
  progressCallbackOf,
  type JobCompletion,
  type JobDocumentEntry,
  type JobDocumentRecorded,
  type JobDocumentRecording,
  type JobDocumentResult,
  type RenderedDocumentEntry,
  type RenderJobRecord,
} from '@docrender/rendering';
import { RenderJobEntity } from '../entities';
import { OutboxRepository } from './outbox.repository';
import { RenderJobRepository } from './render-job.repository';
import { paidDocumentConformance, paidDocumentParams, paidDocumentSteps, StoredDocumentRepository } from './stored-document.repository';
import { lockPagesOfCurrentPeriod, UsageRepository } from './usage.repository';
import { queryPrepared } from '../prepared-statement';

/**
 * Pays for and stores the documents of sync renders: a production render takes its pages, a persisted document gets
 * its row, both or neither (StoredDocumentRepository.createPaid: one statement while the billing period is current).
 */
export class RenderedDocumentLedger {
  constructor(private readonly manager: EntityManager) {}

  /**
   * False, taking and storing nothing, when the pages do not fit the organisation's credit. A failure to reach the
   * database (no connection) throws DependencyOutageError('database'): nothing was sent, nothing taken. A connection lost once the statement
   * was sent throws OutcomeUnknownError: the payment and the row may have been committed (issue 31: the caller then
   * answers the document rather than a retry that would pay for it again).
   */
  async record(entry: RenderedDocumentEntry): Promise<boolean> {
    const runner = this.manager.connection.createQueryRunner();
    try {
      await runner.connect();
    } catch (error) {
      await runner.release().catch(() => undefined);
      if (dependencyOutageOf(error) === null) throw error;
      throw new DependencyOutageError('database', 'the database could not be reached to record the document: nothing was stored or paid', { cause: error });
    }
    try {
      return await payAndStore(runner.manager, entry);
    } catch (error) {
      if (dependencyOutageOf(error) === null) throw error;
      throw new OutcomeUnknownError('database', 'the database connection was lost after the document was sent to be recorded: it may or may not be stored and paid', { cause: error });
    } finally {
      await runner.release().catch(() => undefined);
    }
  }
}


/** Rolls back a job document's transaction that must not count (another run recorded it, or no credit). */
class NotRecorded extends Error {
  constructor(readonly recording: Exclude<JobDocumentRecording, 'recorded'>) {
    super(recording);
  }
}

/**
 * Records the documents of async jobs, each once, in one transaction per document: one statement locks the job row
 * (so the results of one job queue instead of deadlocking, and `processed` counts every result committed before),
 * stores the outcome with the first 100 issues of the job and the progress callback (in the outbox), counts them on
 * the job, and pays for and stores a persisted production document while its billing period is current; any other
 * payment follows in the transaction. Nothing of it exists twice: a document recorded by another run of the job
 * records nothing, and one whose pages do not fit rolls the transaction back.
 * Statements per rendered, persisted, paid document: BEGIN, that statement, COMMIT.
 */
export class RenderJobLedger {
  constructor(private readonly manager: EntityManager) {}

  async record(entry: JobDocumentEntry): Promise<JobDocumentRecorded> {
    // A document without a PDF, or a persisted production one while its pages fit the current billing period, is
    // recorded by one statement alone (its own transaction); anything else in a transaction that pays after it.
    const payment = entry.rendered?.payment ?? null;
    const paidAlone = payment !== null && entry.rendered?.document !== null;
    if (entry.rendered === null || paidAlone) {
      const alone = await recordOutcome(this.manager, entry, paidAlone);
      if (alone.processed !== null) return { recording: 'recorded', callback: entry.progress === null ? null : progressCallbackOf(entry.progress, alone.processed) };
      if (!paidAlone || alone.creditFits) return { recording: 'duplicate' };
    }
    try {
      return await this.manager.transaction(async (m) => {
        const { processed, paid } = await recordOutcome(m, entry, false);
        if (processed === null) return { recording: 'duplicate' } as const;
        // A payment the statement could not take (the billing period ended, the pages do not fit, a test render, a
        // document not persisted) is decided here, in its transaction: pages that do not fit roll the outcome back.
        if (entry.rendered !== null && !paid && !(await payAndStore(m, entry.rendered))) throw new NotRecorded('no-credit');
        return { recording: 'recorded', callback: entry.progress === null ? null : progressCallbackOf(entry.progress, processed) } as const;
      });
    } catch (error) {
      if (error instanceof NotRecorded) return { recording: error.recording };
      throw error;
    }
  }

  /**
   * Ends a pending job: in one transaction, with the job row locked, `decide` gets the job and its recorded
   * documents and says how it ends and with which completion callback (stored in the outbox). Returns what `decide`
   * returned, or null when the job is not pending any more (another run ended it) or `decide` declined.
   */
  async finish<T extends { completion: JobCompletion; callback: DeliverWebhookCommand }>(
    jobId: string,
    decide: (job: RenderJobRecord, results: JobDocumentResult[]) => T | null,
  ): Promise<T | null> {
    return this.manager.transaction(async (m) => {
      const row = await m.findOne(RenderJobEntity, { where: { id: jobId }, lock: { mode: 'for_no_key_update' } });
      if (row === null || row.state !== JobState.Pending) return null;
      const jobs = new RenderJobRepository(m);
      const decided = decide({ ...row }, await jobs.listDocumentResults(jobId));
      if (decided === null || !(await jobs.complete(jobId, decided.completion))) return null;
      await new OutboxRepository(m).add(MessageName.DeliverWebhook, decided.callback, { id: decided.callback.deliveryId });
      return decided;
    });
  }

  /** Whether the outcome of the document is recorded (by any run of the job). */
  async isRecorded(jobId: string, documentIndex: number): Promise<boolean> {
    const rows = (await this.manager.query(`SELECT 1 FROM render_job_documents WHERE job_id = $1 AND document_index = $2`, [jobId, documentIndex])) as unknown[];
    return rows.length > 0;
  }
}

async function payAndStore(manager: EntityManager, { payment, document, renderedAt }: RenderedDocumentEntry): Promise<boolean> {
  if (document === null) return payment === null || new UsageRepository(manager).tryConsumePages(payment.organisationId, payment.pages, renderedAt);
  const documents = new StoredDocumentRepository(manager);
  if (payment !== null) return (await documents.createPaid(document, renderedAt)) !== null;
  await documents.create(document, renderedAt);
  return true;
}

/** recordOutcome's statement: $1–$15 paidDocumentParams, then the job's ($16–$31), then the document's conformance ($32). */
const RECORD_JOB_DOCUMENT = {
  name: 'render-job-record-document',
  text: `WITH job AS (
     SELECT j.id, j.issue_count, j.recorded_count FROM render_jobs j WHERE j.id = $16 FOR NO KEY UPDATE
   ), credit AS (
     ${lockPagesOfCurrentPeriod('$31::boolean AND EXISTS (SELECT 1 FROM job)')}
   ), recorded AS (
     INSERT INTO render_job_documents (job_id, document_index, outcome, document_id, issues, created_at)
     SELECT job.id, $17, $18, $19, $20::jsonb, $21 FROM job WHERE NOT $31::boolean OR EXISTS (SELECT 1 FROM credit)
     ON CONFLICT DO NOTHING RETURNING job_id
   ), ${paidDocumentSteps('EXISTS (SELECT 1 FROM recorded)', '$32')}, kept_issues AS (
     INSERT INTO render_job_issues (job_id, position, type, severity, description, element_id, document_index)
     SELECT recorded.job_id, LEAST(job.issue_count, $22) + i.n - 1, i.issue->>'type', i.issue->>'severity', i.issue->>'description', i.issue->>'elementId', $17
       FROM recorded, job, jsonb_array_elements($20::jsonb) WITH ORDINALITY AS i(issue, n)
      WHERE LEAST(job.issue_count, $22) + i.n <= $22
   ), callback AS (
     INSERT INTO outbox (id, message_name, payload, created_at, published_at, trace_context)
     SELECT $25::uuid, $26::text, jsonb_set($27::jsonb, '{body}', to_jsonb($28::text || (job.recorded_count + 1) || $29::text)), $21, NULL, $30::jsonb
       FROM recorded, job WHERE $25::uuid IS NOT NULL
   ), counted AS (
     UPDATE render_jobs j
        SET rendered_count = j.rendered_count + $23, issue_count = j.issue_count + $24, recorded_count = j.recorded_count + 1, updated_at = $21
       FROM recorded WHERE j.id = recorded.job_id
     RETURNING j.recorded_count
   )
   SELECT EXISTS (SELECT 1 FROM job) AS found, (SELECT recorded_count FROM counted) AS processed, EXISTS (SELECT 1 FROM stored) AS paid,
          EXISTS (SELECT 1 FROM credit) AS credit_fits`,
};

/**
 * In one statement: locks the job row (so the results of one job queue instead of deadlocking, and the counts read
 * include every result committed before), stores the document's outcome (nothing when it is recorded already), the
 * issues that fit in the job's first 100 (spec 4.6), its progress callback in the outbox with `processed` filled in,
 * and counts them on the job; for a persisted production document it also takes the pages and stores the row while
 * the billing period is current and they fit (paidDocumentSteps, only once the outcome is stored). With
 * `onlyIfPaid` (the statement is its own transaction) nothing is stored unless the pages fit: the usage row is
 * locked after the job row and before the outcome is stored, so the payment that follows cannot fail.
 * Returns `processed` (the job's recorded outcomes, this one included; null when nothing was recorded), whether it
 * paid, and whether the pages fitted. A duplicate is found by the outcome's primary key, which sees every committed
 * outcome whatever the statement's snapshot; the counts are the locked row's latest (READ COMMITTED re-reads a row
 * whose lock it waited for), and so is the usage row the payment updates.
 */
async function recordOutcome(manager: EntityManager, entry: JobDocumentEntry, onlyIfPaid: boolean): Promise<{ processed: number | null; paid: boolean; creditFits: boolean }> {
  const issues = entry.issues.map((issue) => ({ ...issue, documentIndex: entry.documentIndex }));
  const callback = entry.progress;
  const trace = callback === null ? null : traceCarrier();
  const payment = entry.rendered?.payment ?? null;
  const document = entry.rendered?.document ?? null;
  const rows = await queryPrepared<{ found: boolean; processed: number | null; paid: boolean; credit_fits: boolean }>(
    manager,
    RECORD_JOB_DOCUMENT,
    [
      ...paidDocumentParams(payment === null ? null : document, entry.rendered?.renderedAt ?? entry.recordedAt),
      entry.jobId,
      entry.documentIndex,
      entry.outcome,
      document?.id ?? null,
      JSON.stringify(issues),
      entry.recordedAt,
      Limits.jobIssuesStored,
      entry.outcome === 'rendered' ? 1 : 0,
      issues.length,
      callback?.command.deliveryId ?? null,
      MessageName.DeliverWebhook,
      callback === null ? null : JSON.stringify({ ...callback.command, body: '' }),
      callback?.bodyHead ?? null,
      callback?.bodyTail ?? null,
      trace === null ? null : JSON.stringify(trace),
      onlyIfPaid,
      paidDocumentConformance(payment === null ? null : document),
    ],
  );
  if (!rows[0].found) throw new Error(`render job ${entry.jobId} not found`);
  return { processed: rows[0].processed, paid: rows[0].paid, creditFits: rows[0].credit_fits };
}
