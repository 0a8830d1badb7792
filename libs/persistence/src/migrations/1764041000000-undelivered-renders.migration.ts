import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The documents a sync render paid for but whose answer did not reach the client (a 5xx after the payment), by the
 * request's fingerprint, so that the same request sent again takes them instead of paying again (decision 0041).
 */
export class UndeliveredRenders1764041000000 implements MigrationInterface {
  name = 'UndeliveredRenders1764041000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE undelivered_renders (
      organisation_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      fingerprint text NOT NULL,
      documents jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, fingerprint)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE undelivered_renders`);
  }
}
