import type { DataSource } from 'typeorm';
import type { EventMessageName } from '@docrender/contracts';
import type { OutboxMessage, OutboxStore, StoredOutboxMessage } from '@docrender/messaging';

type Row = { id: string; message_name: EventMessageName; payload: unknown; created_at: Date; trace_context: unknown };

/**
 * The `outbox` table as the relay's OutboxStore. Messages are taken with FOR UPDATE SKIP LOCKED inside the
 * transaction that marks them, so relays on every replica never hand one message out twice at once.
 */
export class OutboxSqlStore implements OutboxStore {
  constructor(private readonly dataSource: DataSource) {}

  publishOldest(
    query: { names: readonly EventMessageName[]; storedBefore: Date; limit: number; now: Date },
    publish: (messages: StoredOutboxMessage[]) => Promise<number>,
  ): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      const rows = (await m.query(
        `SELECT id, message_name, payload, created_at, trace_context FROM outbox
          WHERE published_at IS NULL AND message_name = ANY($1::text[]) AND created_at <= $2
          ORDER BY created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [[...query.names], query.storedBefore, query.limit],
      )) as Row[];
      const messages = rows.map((row) => ({
        message: { id: row.id, name: row.message_name, payload: row.payload, createdAt: row.created_at } as OutboxMessage,
        trace: row.trace_context,
      }));
      const published = await publish(messages);
      const done = rows.slice(0, published).map((row) => row.id);
      if (done.length > 0) await m.query(`UPDATE outbox SET published_at = $2 WHERE id = ANY($1::uuid[])`, [done, query.now]);
      return rows.length;
    });
  }

  async markPublished(ids: readonly string[], at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE outbox SET published_at = $2 WHERE id = ANY($1::uuid[]) AND published_at IS NULL`, [[...ids], at]);
  }

  async deletePublishedBefore(names: readonly EventMessageName[], before: Date): Promise<number> {
    const result = (await this.dataSource.query(`DELETE FROM outbox WHERE published_at < $1 AND message_name = ANY($2::text[])`, [before, [...names]])) as [unknown[], number];
    return result[1];
  }
}
