import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The template workspace's people (issue 35, decision 0035): users of one organisation with a role, their password
 * hashed with scrypt, and their sessions (only a SHA-256 of the session token is stored; revoked at sign-out).
 */
export class WorkspaceUsers1764021600000 implements MigrationInterface {
  name = 'WorkspaceUsers1764021600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workspace_users (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        disabled_at timestamptz NULL
      )`);
    // An e-mail address signs in to one account, whatever its case.
    await q.query(`CREATE UNIQUE INDEX workspace_users_email_idx ON workspace_users (lower(email))`);
    await q.query(`CREATE INDEX workspace_users_organisation_idx ON workspace_users (organisation_id)`);
    await q.query(`
      CREATE TABLE workspace_sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES workspace_users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX workspace_sessions_user_idx ON workspace_sessions (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workspace_sessions`);
    await q.query(`DROP TABLE workspace_users`);
  }
}
