import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An organisation can be suspended by an operator (e.g. unpaid invoices): its keys still authenticate and it can
 * read, but rendering and writes answer 403 Forbidden (spec 5.4: "a new key does not help") until it is resumed.
 */
export class OrganisationSuspension1764000000000 implements MigrationInterface {
  name = 'OrganisationSuspension1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organisations ADD COLUMN suspended_at timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organisations DROP COLUMN suspended_at`);
  }
}
