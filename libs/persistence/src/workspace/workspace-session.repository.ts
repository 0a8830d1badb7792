import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WorkspaceSessionEntity } from '../entities';
import type { WorkspaceRole } from './workspace-role';
import type { WorkspaceUserRecord } from './workspace-user.repository';

/** A signed-in user: who, in which organisation, and the CSRF token its writes carry. */
export type WorkspaceSession = { sessionId: string; csrfToken: string; expiresAt: Date; user: WorkspaceUserRecord };

const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

type SessionRow = {
  session_id: string;
  csrf_token: string;
  expires_at: Date;
  id: string;
  organisation_id: string;
  email: string;
  name: string;
  role: WorkspaceRole;
  created_at: Date;
};

/**
 * Workspace sessions: a random 256-bit token in the cookie, its SHA-256 in the database (a leaked table does not sign
 * anyone in). A session ends at its expiry, at sign-out (revoked), or when its user is disabled.
 */
export class WorkspaceSessionRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Opens a session; the token in the result is the cookie's value and is not stored. */
  async open(userId: string, lifetimeMs: number, now: Date = new Date()): Promise<{ token: string; csrfToken: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + lifetimeMs);
    await this.manager.insert(WorkspaceSessionEntity, { id: randomUUID(), userId, tokenHash: tokenHash(token), csrfToken, createdAt: now, expiresAt, revokedAt: null });
    return { token, csrfToken, expiresAt };
  }

  /** The live session of a token with its (enabled) user; null when unknown, expired or revoked. */
  async find(token: string, now: Date = new Date()): Promise<WorkspaceSession | null> {
    const rows = (await this.manager.query(
      `SELECT s.id AS session_id, s.csrf_token, s.expires_at, u.id, u.organisation_id, u.email, u.name, u.role, u.created_at
         FROM workspace_sessions s JOIN workspace_users u ON u.id = s.user_id
        WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2 AND u.disabled_at IS NULL`,
      [tokenHash(token), now],
    )) as SessionRow[];
    if (rows.length === 0) return null;
    const [r] = rows;
    return {
      sessionId: r.session_id,
      csrfToken: r.csrf_token,
      expiresAt: r.expires_at,
      user: { id: r.id, organisationId: r.organisation_id, email: r.email, name: r.name, role: r.role, createdAt: r.created_at },
    };
  }

  /** Ends a session (sign-out); false when it was already over. */
  async revoke(sessionId: string, now: Date = new Date()): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(WorkspaceSessionEntity)
      .set({ revokedAt: now })
      .where('id = :sessionId AND revoked_at IS NULL', { sessionId })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
