import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { RecordConflictError } from '../persistence.error';
import type { WorkspaceRole } from './workspace-role';

/** How long an invitation can be accepted (issue 35 item 1). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** An invitation as the apps see it (never its token). */
export type WorkspaceInvitationRecord = {
  id: string;
  organisationId: string;
  email: string;
  role: WorkspaceRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
};

type InvitationRow = {
  id: string;
  organisation_id: string;
  email: string;
  role: WorkspaceRole;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
};

const COLUMNS = 'id, organisation_id, email, role, invited_by, created_at, expires_at';
const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
const toRecord = (r: InvitationRow): WorkspaceInvitationRecord => ({
  id: r.id,
  organisationId: r.organisation_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/**
 * Invitations into an organisation (issue 35 item 1): a random 256-bit token goes into the link shown once to the
 * owner; only its SHA-256 is stored. An invitation is pending until it is accepted (once), revoked, or expires.
 */
export class WorkspaceInvitationRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Invites `email` with `role`; the token in the result is the only copy. Throws RecordConflictError when the address
   * already has an account or a pending invitation.
   */
  async create(
    input: { organisationId: string; email: string; role: WorkspaceRole; invitedBy: string },
    now: Date = new Date(),
    lifetimeMs: number = INVITATION_LIFETIME_MS,
  ): Promise<{ record: WorkspaceInvitationRecord; token: string }> {
    const user = (await this.manager.query('SELECT 1 FROM workspace_users WHERE lower(email) = lower($1)', [input.email])) as unknown[];
    if (user.length > 0) throw new RecordConflictError(`${input.email} already has a workspace account`);
    const pending = (await this.manager.query(
      `SELECT 1 FROM workspace_invitations
        WHERE organisation_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3`,
      [input.organisationId, input.email, now],
    )) as unknown[];
    if (pending.length > 0) throw new RecordConflictError(`${input.email} already has a pending invitation; revoke it first`);
    const token = randomBytes(32).toString('base64url');
    const record: WorkspaceInvitationRecord = { id: randomUUID(), ...input, createdAt: now, expiresAt: new Date(now.getTime() + lifetimeMs) };
    await this.manager.query(
      `INSERT INTO workspace_invitations (id, organisation_id, email, role, token_hash, invited_by, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [record.id, record.organisationId, record.email, record.role, tokenHash(token), record.invitedBy, record.createdAt, record.expiresAt],
    );
    return { record, token };
  }

  /** The organisation's pending invitations (not accepted, revoked or expired), newest first. */
  async listPending(organisationId: string, now: Date = new Date()): Promise<WorkspaceInvitationRecord[]> {
    const rows = (await this.manager.query(
      `SELECT ${COLUMNS} FROM workspace_invitations
        WHERE organisation_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        ORDER BY created_at DESC, id`,
      [organisationId, now],
    )) as InvitationRow[];
    return rows.map(toRecord);
  }

  /** The pending invitation of a token; null when unknown, used, revoked or expired. */
  async findPending(token: string, now: Date = new Date()): Promise<WorkspaceInvitationRecord | null> {
    const rows = (await this.manager.query(
      `SELECT ${COLUMNS} FROM workspace_invitations
        WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2`,
      [tokenHash(token), now],
    )) as InvitationRow[];
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  /**
   * Marks the pending invitation of a token accepted and answers it; null when there is none. Run it in the
   * transaction that creates the user, so that a refused user leaves the invitation pending; the row update makes a
   * concurrent second acceptance wait and then find nothing.
   */
  async claim(token: string, now: Date = new Date()): Promise<WorkspaceInvitationRecord | null> {
    const [rows] = (await this.manager.query(
      `UPDATE workspace_invitations SET accepted_at = $2
        WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
        RETURNING ${COLUMNS}`,
      [tokenHash(token), now],
    )) as [InvitationRow[], number];
    return rows.length === 0 ? null : toRecord(rows[0]);
  }

  /** Revokes a pending invitation of the organisation; false when there is none with this id there. */
  async revoke(organisationId: string, invitationId: string, now: Date = new Date()): Promise<boolean> {
    const [, affected] = (await this.manager.query(
      `UPDATE workspace_invitations SET revoked_at = $3
        WHERE id = $1 AND organisation_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
      [invitationId, organisationId, now],
    )) as [unknown[], number];
    return affected > 0;
  }
}
