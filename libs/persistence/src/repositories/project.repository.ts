import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ProjectEntity } from '../entities';

export type ProjectRecord = { id: string; organisationId: string; name: string; createdAt: Date; updatedAt: Date };

export class ProjectRepository {
  constructor(private readonly manager: EntityManager) {}

  async create(input: { id?: string; organisationId: string; name: string }, now: Date = new Date()): Promise<ProjectRecord> {
    const row: ProjectEntity = { id: input.id ?? randomUUID(), organisationId: input.organisationId, name: input.name, createdAt: now, updatedAt: now };
    await this.manager.insert(ProjectEntity, row);
    return { ...row };
  }

  /** The project when it exists and belongs to the organisation. */
  async findById(organisationId: string, id: string): Promise<ProjectRecord | null> {
    const row = await this.manager.findOneBy(ProjectEntity, { id, organisationId });
    return row ? { ...row } : null;
  }

  async findByName(organisationId: string, name: string): Promise<ProjectRecord[]> {
    const rows = await this.manager.find(ProjectEntity, { where: { organisationId, name }, order: { createdAt: 'ASC' } });
    return rows.map((r) => ({ ...r }));
  }

  async rename(organisationId: string, id: string, name: string, now: Date = new Date()): Promise<ProjectRecord | null> {
    await this.manager.update(ProjectEntity, { id, organisationId }, { name, updatedAt: now });
    return this.findById(organisationId, id);
  }

  async listByOrganisation(organisationId: string): Promise<ProjectRecord[]> {
    const rows = await this.manager.find(ProjectEntity, { where: { organisationId }, order: { name: 'ASC', id: 'ASC' } });
    return rows.map((r) => ({ ...r }));
  }
}
