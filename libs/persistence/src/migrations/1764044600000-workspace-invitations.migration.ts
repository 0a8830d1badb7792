import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owners invite people into their organisation from the workspace (issue 35 item 1): an invitation names an e-mail
 * address and a role; only a SHA-256 of its one-time token is stored; it expires, is used once, and can be revoked.
 */
export class WorkspaceInvitations1764044600000 implements MigrationInterface {
  name = 'WorkspaceInvitations1764044600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workspace_invitations (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
        token_hash text NOT NULL UNIQUE,
        invited_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz NULL,
        revoked_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX workspace_invitations_organisation_idx ON workspace_invitations (organisation_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workspace_invitations`);
  }
}
