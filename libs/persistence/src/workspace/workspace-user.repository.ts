import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { WorkspaceUserEntity } from '../entities';
import { RecordConflictError } from '../persistence.error';
import type { WorkspaceRole } from './workspace-role';

/** A workspace user as the apps see it (never the password hash). */
export type WorkspaceUserRecord = {
  id: string;
  organisationId: string;
  email: string;
  name: string;
  role: WorkspaceRole;
  createdAt: Date;
};

export type NewWorkspaceUser = { organisationId: string; email: string; name: string; role: WorkspaceRole; passwordHash: string };

export class WorkspaceUserRepository {
  constructor(private readonly manager: EntityManager) {}

  /** Throws RecordConflictError when the e-mail address (any case) already has an account. */
  async create(input: NewWorkspaceUser, now: Date = new Date()): Promise<WorkspaceUserRecord> {
    const taken = (await this.manager.query('SELECT 1 FROM workspace_users WHERE lower(email) = lower($1)', [input.email])) as unknown[];
    if (taken.length > 0) throw new RecordConflictError(`a workspace user with e-mail ${input.email} exists`);
    const row: WorkspaceUserEntity = { id: randomUUID(), ...input, createdAt: now, disabledAt: null };
    await this.manager.insert(WorkspaceUserEntity, row);
    return toRecord(row);
  }

  /** The enabled user with this e-mail address (any case) and its password hash, for sign-in; null when none. */
  async findForSignIn(email: string): Promise<{ user: WorkspaceUserRecord; passwordHash: string } | null> {
    const row = await this.manager
      .createQueryBuilder(WorkspaceUserEntity, 'u')
      .where('lower(u.email) = lower(:email) AND u.disabled_at IS NULL', { email })
      .getOne();
    return row ? { user: toRecord(row), passwordHash: row.passwordHash } : null;
  }

  async listByOrganisation(organisationId: string): Promise<WorkspaceUserRecord[]> {
    const rows = await this.manager.find(WorkspaceUserEntity, { where: { organisationId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toRecord);
  }

  /**
   * Gives a member of the organisation another role (issue 35 item 1); 'not-found' when the user is not one of its
   * members, 'last-owner' when that would leave the organisation without an enabled owner. Run it in a transaction:
   * the organisation's users are locked so two owners demoting each other at once cannot both succeed.
   */
  async changeRole(organisationId: string, userId: string, role: WorkspaceRole): Promise<WorkspaceUserRecord | 'not-found' | 'last-owner'> {
    const check = await this.lockAndCheck(organisationId, userId, role !== 'owner');
    if (check !== null) return check;
    await this.manager.update(WorkspaceUserEntity, { id: userId, organisationId }, { role });
    const row = await this.manager.findOneByOrFail(WorkspaceUserEntity, { id: userId });
    return toRecord(row);
  }

  /** Removes a member and its sessions (issue 35 item 1); same answers and locking as changeRole. */
  async remove(organisationId: string, userId: string): Promise<'removed' | 'not-found' | 'last-owner'> {
    const check = await this.lockAndCheck(organisationId, userId, true);
    if (check !== null) return check;
    await this.manager.delete(WorkspaceUserEntity, { id: userId, organisationId });
    return 'removed';
  }

  private async lockAndCheck(organisationId: string, userId: string, losesOwner: boolean): Promise<'not-found' | 'last-owner' | null> {
    const members = (await this.manager.query(
      `SELECT id, role FROM workspace_users WHERE organisation_id = $1 AND disabled_at IS NULL ORDER BY id FOR UPDATE`,
      [organisationId],
    )) as { id: string; role: WorkspaceRole }[];
    const member = members.find((m) => m.id === userId);
    if (member === undefined) return 'not-found';
    const owners = members.filter((m) => m.role === 'owner');
    if (losesOwner && member.role === 'owner' && owners.length === 1) return 'last-owner';
    return null;
  }
}

export function toRecord(row: WorkspaceUserEntity): WorkspaceUserRecord {
  return { id: row.id, organisationId: row.organisationId, email: row.email, name: row.name, role: row.role, createdAt: row.createdAt };
}
