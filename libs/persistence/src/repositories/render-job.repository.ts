import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { JobState, Limits, MessageName, type RenderIssue, type RenderOutcome } from '@docrender/contracts';
import type { JobCompletion, JobDocumentResult, RenderJobRecord } from '@docrender/rendering';
import { RenderJobDocumentEntity, RenderJobEntity, RenderJobIssueEntity } from '../entities';
import { OutboxRepository } from './outbox.repository';

export type NewRenderJob = Pick<
  RenderJobRecord,
  | 'organisationId'
  | 'templateId'
  | 'versionNumber'
  | 'environment'
  | 'language'
  | 'persist'
  | 'includeDocument'
  | 'callbackUrl'
  | 'inputBlobKey'
  | 'requestedCount'
> & {
  /** Made up when absent (pass one when the input blob key is derived from it). */
  id?: string;
};

export class RenderJobRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Stores a pending job and, in the same transaction, the outbox message `job.run` that starts it, so a job is never
   * stored without being announced (nor announced without being stored).
   */
  async createQueued(input: NewRenderJob, now: Date = new Date()): Promise<RenderJobRecord> {
    const row: RenderJobEntity = {
      ...input,
      id: input.id ?? randomUUID(),
      state: JobState.Pending,
      status: null,
      renderedCount: 0,
      issueCount: 0,
      recordedCount: 0,
      createdAt: now,
      startedAt: null,
      completedAt: null,
      failureReason: null,
      updatedAt: now,
    };
    await this.manager.transaction(async (m) => {
      await m.insert(RenderJobEntity, row);
      await new OutboxRepository(m).add(MessageName.RunJob, { jobId: row.id }, { now });
    });
    return { ...row };
  }

  /** The job when it exists and belongs to the organisation (job status endpoint). */
  async findById(organisationId: string, jobId: string): Promise<RenderJobRecord | null> {
    const row = await this.manager.findOneBy(RenderJobEntity, { id: jobId, organisationId });
    return row ? { ...row } : null;
  }

  /** The job whatever its organisation (the worker, which gets only a job id). */
  async findAnyById(jobId: string): Promise<RenderJobRecord | null> {
    const row = await this.manager.findOneBy(RenderJobEntity, { id: jobId });
    return row ? { ...row } : null;
  }

  /** Records the first pick-up by a worker; later calls (redeliveries) keep the first time. */
  async markStarted(jobId: string, now: Date = new Date()): Promise<void> {
    await this.manager.query(`UPDATE render_jobs SET started_at = $2, updated_at = $2 WHERE id = $1 AND started_at IS NULL`, [jobId, now]);
  }

  /**
   * Counts issues on the job and stores them while fewer than 100 are stored (spec 4.6: the first 100, counts exact).
   * For batch-wide issues; per-document issues go through recordDocumentResult.
   */
  async appendIssues(jobId: string, issues: readonly RenderIssue[], now: Date = new Date()): Promise<void> {
    if (issues.length === 0) return;
    await this.manager.transaction(async (m) => {
      const locked = (await m.query(`SELECT issue_count FROM render_jobs WHERE id = $1 FOR NO KEY UPDATE`, [jobId])) as { issue_count: number }[];
      if (locked.length === 0) throw new Error(`render job ${jobId} not found`);
      const stored = Math.min(locked[0].issue_count, Limits.jobIssuesStored);
      const room = Limits.jobIssuesStored - stored;
      const rows: RenderJobIssueEntity[] = issues.slice(0, room).map((issue, i) => ({
        jobId,
        position: stored + i,
        type: issue.type,
        severity: issue.severity,
        description: issue.description,
        elementId: issue.elementId,
        documentIndex: issue.documentIndex,
      }));
      if (rows.length > 0) await m.insert(RenderJobIssueEntity, rows);
      await m.query(`UPDATE render_jobs SET issue_count = issue_count + $2, updated_at = $3 WHERE id = $1`, [jobId, issues.length, now]);
    });
  }

  /** The stored issues (at most 100), in the order they were produced. */
  async listStoredIssues(jobId: string): Promise<RenderIssue[]> {
    const rows = await this.manager.find(RenderJobIssueEntity, { where: { jobId }, order: { position: 'ASC' } });
    return rows.map((r) => ({ type: r.type, severity: r.severity, description: r.description, elementId: r.elementId, documentIndex: r.documentIndex }));
  }

  /**
   * Records the outcome of one document once. Returns false, changing nothing, when the document was already recorded
   * (a redelivered job). Otherwise, in one transaction: stores the result with all its issues, counts it on the job
   * (a rendered document in renderedCount too), and appends the issues to the job's stored issues. Each issue's documentIndex is set
   * to `documentIndex`.
   */
  async recordDocumentResult(
    input: { jobId: string; documentIndex: number; outcome: RenderOutcome; documentId: string | null; issues: readonly RenderIssue[] },
    now: Date = new Date(),
  ): Promise<boolean> {
    const issues = input.issues.map((issue) => ({ ...issue, documentIndex: input.documentIndex }));
    return this.manager.transaction(async (m) => {
      // Lock the job row first: concurrent results of one job then queue here instead of deadlocking later.
      await m.query(`SELECT id FROM render_jobs WHERE id = $1 FOR NO KEY UPDATE`, [input.jobId]);
      const inserted = (await m.query(
        `INSERT INTO render_job_documents (job_id, document_index, outcome, document_id, issues, created_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT DO NOTHING RETURNING job_id`,
        [input.jobId, input.documentIndex, input.outcome, input.documentId, JSON.stringify(issues), now],
      )) as unknown[];
      if (inserted.length === 0) return false;
      await m.query(`UPDATE render_jobs SET rendered_count = rendered_count + $3, recorded_count = recorded_count + 1, updated_at = $2 WHERE id = $1`, [
        input.jobId,
        now,
        input.outcome === 'rendered' ? 1 : 0,
      ]);
      await new RenderJobRepository(m).appendIssues(input.jobId, issues, now);
      return true;
    });
  }

  /** The recorded document outcomes of the job, by documentIndex. */
  async listDocumentResults(jobId: string): Promise<JobDocumentResult[]> {
    const rows = await this.manager.find(RenderJobDocumentEntity, { where: { jobId }, order: { documentIndex: 'ASC' } });
    return rows.map((r) => ({ ...r }));
  }

  /**
   * Moves a pending job to its terminal state. Returns false, changing nothing, when the job is not pending any more
   * (a redelivered job must not complete twice).
   */
  async complete(jobId: string, completion: JobCompletion, now: Date = new Date()): Promise<boolean> {
    const failureReason = completion.state === JobState.Failed ? completion.failureReason : null;
    const result = (await this.manager.query(
      `UPDATE render_jobs SET state = $2, status = $3, failure_reason = $4, completed_at = $5, updated_at = $5
        WHERE id = $1 AND state = 'pending'`,
      [jobId, completion.state, completion.status, failureReason, now],
    )) as [unknown[], number];
    return result[1] > 0;
  }

  /** Pending jobs across all organisations (queue capacity). */
  async countPending(): Promise<number> {
    const [{ count }] = (await this.manager.query(`SELECT count(*)::int AS count FROM render_jobs WHERE state = 'pending'`)) as { count: number }[];
    return count;
  }
}
