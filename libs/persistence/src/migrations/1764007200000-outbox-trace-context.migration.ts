import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An outbox message is published after the request or job that stored it (by the relay, possibly much later): it
 * keeps the W3C trace context (`traceparent`, `tracestate`) that was active when it was stored, so that its publish
 * and its consumers continue that trace. Null when tracing was off.
 */
export class OutboxTraceContext1764007200000 implements MigrationInterface {
  name = 'OutboxTraceContext1764007200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN trace_context jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox DROP COLUMN trace_context`);
  }
}
