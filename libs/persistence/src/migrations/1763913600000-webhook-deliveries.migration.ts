import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook delivery records (spec 6.3): one row per logical delivery (the X-Service-Delivery id) and one per attempt.
 * The attempt row doubles as the dispatcher's claim on that attempt: a duplicate message for an attempt already
 * made (or being made) finds the row and does not call the receiver again. No foreign key to render_jobs: the record
 * of what was sent outlives the job row, and the dispatcher never waits on the job's table.
 */
export class WebhookDeliveries1763913600000 implements MigrationInterface {
  name = 'WebhookDeliveries1763913600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_deliveries (
        delivery_id uuid PRIMARY KEY,
        job_id uuid NOT NULL,
        organisation_id uuid NOT NULL,
        event text NOT NULL CHECK (event IN ('render.progress', 'render.completed', 'render.failed')),
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'abandoned', 'dropped')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_http_status integer NULL,
        last_error text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The deliveries of a job (operators, tests); pending deliveries by age (stuck-delivery checks).
    await q.query(`CREATE INDEX webhook_deliveries_job_idx ON webhook_deliveries (job_id, created_at)`);
    await q.query(`CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (updated_at) WHERE state = 'pending'`);

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries (delivery_id) ON DELETE CASCADE,
        attempt integer NOT NULL CHECK (attempt >= 1),
        started_at timestamptz NOT NULL,
        lease_until timestamptz NOT NULL,
        finished_at timestamptz NULL,
        outcome text NULL CHECK (outcome IN ('delivered', 'failed', 'refused')),
        http_status integer NULL,
        error text NULL,
        duration_ms integer NULL CHECK (duration_ms >= 0),
        PRIMARY KEY (delivery_id, attempt),
        CHECK ((finished_at IS NULL) = (outcome IS NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
  }
}
