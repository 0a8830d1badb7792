import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventMessageName, MessagePayloads } from '@docrender/contracts';
import { OutboxMessageEntity } from '../entities';

/** A message stored in the same transaction as the state change it announces, published later by a relay. */
export type OutboxMessage = {
  [N in EventMessageName]: { id: string; name: N; payload: MessagePayloads[N]; createdAt: Date };
}[EventMessageName];

export class OutboxRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Stores a message to publish; call it inside the transaction of the change it announces. Returns its id. */
  async add<N extends EventMessageName>(name: N, payload: MessagePayloads[N], options: { id?: string; now?: Date } = {}): Promise<string> {
    const id = options.id ?? randomUUID();
    await this.manager.insert(OutboxMessageEntity, { id, messageName: name, payload, createdAt: options.now ?? new Date(), publishedAt: null });
    return id;
  }

  /**
   * Publishes up to `limit` unpublished messages, oldest first, and marks them published. Rows are locked with
   * SKIP LOCKED, so several relays can run at once without publishing a message twice concurrently.
   * Delivery is at-least-once: a crash between publish and commit publishes again (use the id as message id).
   * When `publish` throws, the messages published before it are marked, the rest stay, and the error is rethrown.
   * Returns how many were published.
   */
  async publishPending(publish: (message: OutboxMessage) => Promise<void>, options: { limit: number; now?: () => Date }): Promise<number> {
    const clock = options.now ?? (() => new Date());
    let failure: unknown = null;
    const published = await this.manager.transaction(async (m) => {
      const rows = (await m.query(
        `SELECT id, message_name, payload, created_at FROM outbox
          WHERE published_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [options.limit],
      )) as { id: string; message_name: EventMessageName; payload: unknown; created_at: Date }[];
      const done: string[] = [];
      for (const row of rows) {
        try {
          await publish({ id: row.id, name: row.message_name, payload: row.payload, createdAt: row.created_at } as OutboxMessage);
        } catch (error) {
          failure = error;
          break;
        }
        done.push(row.id);
      }
      if (done.length > 0) await m.query(`UPDATE outbox SET published_at = $2 WHERE id = ANY($1::uuid[])`, [done, clock()]);
      return done.length;
    });
    if (failure !== null) throw failure;
    return published;
  }

  async countUnpublished(): Promise<number> {
    const [{ count }] = (await this.manager.query(`SELECT count(*)::int AS count FROM outbox WHERE published_at IS NULL`)) as { count: number }[];
    return count;
  }

  /** Housekeeping: removes messages published before `cutoff`; returns how many. */
  async deletePublishedBefore(cutoff: Date): Promise<number> {
    const result = (await this.manager.query(`DELETE FROM outbox WHERE published_at < $1`, [cutoff])) as [unknown[], number];
    return result[1];
  }
}
