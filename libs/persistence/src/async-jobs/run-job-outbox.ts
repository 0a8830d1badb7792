import type { EntityManager } from 'typeorm';
import { MessageName } from '@docrender/contracts';

/**
 * The enqueue side of a job's job.run outbox message (spec 4.5): the gateway publishes the message of the job it has
 * just stored at once, so that a full job queue can still be answered with 503 QueueFull, and leaves it to the outbox
 * relay otherwise. Use it on a transaction's entity manager: the lock lasts until that transaction ends.
 */
export class RunJobOutbox {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Locks the job's unpublished job.run message and returns its id (the message id to publish with); null when it
   * was published already or a relay holds it (SKIP LOCKED).
   */
  async lockUnpublished(jobId: string): Promise<string | null> {
    const rows = (await this.manager.query(
      `SELECT id FROM outbox
        WHERE published_at IS NULL AND message_name = $1 AND payload->>'jobId' = $2
        FOR UPDATE SKIP LOCKED`,
      [MessageName.RunJob, jobId],
    )) as { id: string }[];
    return rows.length > 0 ? rows[0].id : null;
  }

  async markPublished(outboxId: string, now: Date = new Date()): Promise<void> {
    await this.manager.query(`UPDATE outbox SET published_at = $2 WHERE id = $1`, [outboxId, now]);
  }

  /**
   * Withdraws a job that was never announced (its queue was full): deletes its unpublished job.run message and the
   * job with everything recorded for it. Returns false, deleting nothing, when the message was already published.
   */
  async withdraw(jobId: string): Promise<boolean> {
    const deleted = (await this.manager.query(
      `DELETE FROM outbox WHERE published_at IS NULL AND message_name = $1 AND payload->>'jobId' = $2`,
      [MessageName.RunJob, jobId],
    )) as [unknown[], number];
    if (deleted[1] === 0) return false;
    await this.manager.query(`DELETE FROM render_jobs WHERE id = $1 AND state = 'pending' AND started_at IS NULL`, [jobId]);
    return true;
  }
}

