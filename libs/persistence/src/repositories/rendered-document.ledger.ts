import type { EntityManager } from 'typeorm';
import { traceCarrier } from '@docrender/observability';
import { JobState, Limits, MessageName, type DeliverWebhookCommand, type RenderIssue, type RenderOutcome } from '@docrender/contracts';
import { RenderJobEntity } from '../entities';
import { OutboxRepository } from './outbox.repository';
import { RenderJobRepository, type JobCompletion, type JobDocumentResult, type RenderJobRecord } from './render-job.repository';
import { StoredDocumentRepository, type NewStoredDocument } from './stored-document.repository';
import { UsageRepository } from './usage.repository';

/** What paying for and recording one rendered document writes, in one transaction. */
export type RenderedDocumentEntry = {
  /** The pages a production render takes from the organisation's credit; null: a test render, which is free. */
  payment: { organisationId: string; pages: number } | null;
  /** The stored document's row; null when the document is not persisted. */
  document: NewStoredDocument | null;
  renderedAt: Date;
};

/** The outcome of one document of an async job, and what its recording writes with it. */
export type JobDocumentEntry = {
  jobId: string;
  documentIndex: number;
  outcome: RenderOutcome;
  /** Every issue of the document (each stored with its documentIndex). */
  issues: readonly RenderIssue[];
  /** Set for a rendered document: its payment and stored row. */
  rendered: RenderedDocumentEntry | null;
  /** Set for a rendered document: its progress callback, given the job's recorded documents once this one counts. */
  progress: ((processed: number) => DeliverWebhookCommand) | null;
  recordedAt: Date;
};

/** recorded; duplicate: another run of the job recorded the document first; no-credit: nothing recorded. */
export type JobDocumentRecording = 'recorded' | 'duplicate' | 'no-credit';

/**
 * Pays for and stores the documents of sync renders: a production render takes its pages, a persisted document gets
 * its row, both or neither (StoredDocumentRepository.createPaid: one statement while the billing period is current).
 */
export class RenderedDocumentLedger {
  constructor(private readonly manager: EntityManager) {}

  /** False, taking and storing nothing, when the pages do not fit the organisation's credit. */
  record(entry: RenderedDocumentEntry): Promise<boolean> {
    return payAndStore(this.manager, entry);
  }
}

/** Rolls back a job document's transaction that must not count (another run recorded it, or no credit). */
class NotRecorded extends Error {
  constructor(readonly recording: Exclude<JobDocumentRecording, 'recorded'>) {
    super(recording);
  }
}

/**
 * Records the documents of async jobs, each once, in one transaction per document: it locks the job row (so the
 * results of one job queue instead of deadlocking, and `processed` counts every result committed before), pays and
 * stores a rendered document, and stores the outcome with the first 100 issues of the job and the progress callback
 * (in the outbox) and counts them on the job in one statement. Nothing of it exists twice: a document recorded by
 * another run of the job (or one whose pages do not fit) rolls the transaction back.
 * Statements per rendered document: BEGIN, the lock, the payment and row, the outcome with its callback, COMMIT.
 */
export class RenderJobLedger {
  constructor(private readonly manager: EntityManager) {}

  async record(entry: JobDocumentEntry): Promise<JobDocumentRecording> {
    try {
      return await this.manager.transaction(async (m) => {
        // The row returned once the lock is taken is the job's latest (the counts include every result committed
        // before); `recorded` may be older when the lock was waited for: recordOutcome's insert decides then.
        const [job] = (await m.query(
          `SELECT j.issue_count, j.recorded_count, EXISTS (SELECT 1 FROM render_job_documents d WHERE d.job_id = j.id AND d.document_index = $2) AS recorded
             FROM render_jobs j WHERE j.id = $1 FOR NO KEY UPDATE OF j`,
          [entry.jobId, entry.documentIndex],
        )) as { issue_count: number; recorded_count: number; recorded: boolean }[];
        if (job === undefined) throw new Error(`render job ${entry.jobId} not found`);
        if (job.recorded) return 'duplicate';
        if (entry.rendered !== null && !(await payAndStore(m, entry.rendered))) throw new NotRecorded('no-credit');
        const callback = entry.progress === null ? null : entry.progress(job.recorded_count + 1);
        if (!(await recordOutcome(m, entry, job.issue_count, callback))) throw new NotRecorded('duplicate');
        return 'recorded';
      });
    } catch (error) {
      if (error instanceof NotRecorded) return error.recording;
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

/**
 * In one statement: stores the document's outcome (nothing when it is recorded already), the issues that fit in the
 * job's first 100 (spec 4.6), its progress callback in the outbox, and counts them on the job. False when the
 * document was recorded already. The job row is locked by the caller.
 */
async function recordOutcome(manager: EntityManager, entry: JobDocumentEntry, issueCount: number, callback: DeliverWebhookCommand | null): Promise<boolean> {
  const issues = entry.issues.map((issue) => ({ ...issue, documentIndex: entry.documentIndex }));
  const stored = Math.min(issueCount, Limits.jobIssuesStored);
  const trace = callback === null ? null : traceCarrier();
  const updated = (await manager.query(
    `WITH recorded AS (
       INSERT INTO render_job_documents (job_id, document_index, outcome, document_id, issues, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT DO NOTHING RETURNING job_id
     ), kept_issues AS (
       INSERT INTO render_job_issues (job_id, position, type, severity, description, element_id, document_index)
       SELECT recorded.job_id, $7 + i.n - 1, i.issue->>'type', i.issue->>'severity', i.issue->>'description', i.issue->>'elementId', $2
         FROM recorded, jsonb_array_elements($8::jsonb) WITH ORDINALITY AS i(issue, n)
     ), callback AS (
       INSERT INTO outbox (id, message_name, payload, created_at, published_at, trace_context)
       SELECT $11::uuid, $12::text, $13::jsonb, $6, NULL, $14::jsonb FROM recorded WHERE $11::uuid IS NOT NULL
     )
     UPDATE render_jobs j
        SET rendered_count = j.rendered_count + $9, issue_count = j.issue_count + $10, recorded_count = j.recorded_count + 1, updated_at = $6
       FROM recorded WHERE j.id = recorded.job_id
     RETURNING j.id`,
    [
      entry.jobId,
      entry.documentIndex,
      entry.outcome,
      entry.rendered?.document?.id ?? null,
      JSON.stringify(issues),
      entry.recordedAt,
      stored,
      JSON.stringify(issues.slice(0, Limits.jobIssuesStored - stored)),
      entry.outcome === 'rendered' ? 1 : 0,
      issues.length,
      callback?.deliveryId ?? null,
      MessageName.DeliverWebhook,
      callback === null ? null : JSON.stringify(callback),
      trace === null ? null : JSON.stringify(trace),
    ],
  )) as [unknown[], number];
  return updated[0].length > 0;
}
