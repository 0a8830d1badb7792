import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each API key was last used (issue 35 item 4: the workspace lists it). The gateway writes it at most about once
 * a minute per key, outside the request's critical path (ApiKeyUseRecorder), so it is accurate to a minute.
 */
export class ApiKeyLastUse1764048200000 implements MigrationInterface {
  name = 'ApiKeyLastUse1764048200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
  }
}
