import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stored document keeps what it asked to conform to and the result of the render service's own checks
 * (documents.conformance, decision 0032); null for documents stored before.
 */
export class DocumentConformance1764018000000 implements MigrationInterface {
  name = 'DocumentConformance1764018000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ADD COLUMN conformance jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents DROP COLUMN conformance`);
  }
}
