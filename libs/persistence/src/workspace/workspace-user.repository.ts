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
}

export function toRecord(row: WorkspaceUserEntity): WorkspaceUserRecord {
  return { id: row.id, organisationId: row.organisationId, email: row.email, name: row.name, role: row.role, createdAt: row.createdAt };
}
