import { randomUUID } from 'node:crypto';
import { IsNull, type EntityManager } from 'typeorm';
import { addMonthsUtc } from '@docrender/template-dsl/checks';
import { calendarMonthOf } from '../billing-period';
import { OrganisationEntity } from '../entities';

export type OrganisationRecord = {
  id: string;
  name: string;
  tier: string;
  includedPagesPerMonth: number;
  includedTokensPerMonth: number;
  billingPeriodStart: Date;
  billingPeriodEnd: Date;
  /** Stored PDFs older than this many days are purged; null keeps them forever. */
  retentionDays: number | null;
  userCount: number;
  createdAt: Date;
  updatedAt: Date;
  /** Set when the organisation was deleted; its API keys then authenticate with organisationDeleted = true. */
  deletedAt: Date | null;
  /** Set while an operator has suspended the organisation: it may read, but not render or write (403 Forbidden). */
  suspendedAt: Date | null;
};

export type NewOrganisation = {
  /** Made up when absent. */
  id?: string;
  name: string;
  tier: string;
  includedPagesPerMonth: number;
  includedTokensPerMonth: number;
  retentionDays: number | null;
  userCount: number;
  /** Start of the first monthly billing period; default: the first of the current UTC month. */
  billingPeriodStart?: Date;
};

export type OrganisationChanges = Partial<
  Pick<OrganisationRecord, 'name' | 'tier' | 'includedPagesPerMonth' | 'includedTokensPerMonth' | 'retentionDays' | 'userCount'>
>;

export class OrganisationRepository {
  constructor(private readonly manager: EntityManager) {}

  async create(input: NewOrganisation, now: Date = new Date()): Promise<OrganisationRecord> {
    const period = input.billingPeriodStart
      ? { start: input.billingPeriodStart, end: addMonthsUtc(input.billingPeriodStart, 1) }
      : calendarMonthOf(now);
    const row: OrganisationEntity = {
      id: input.id ?? randomUUID(),
      name: input.name,
      tier: input.tier,
      includedPagesPerMonth: input.includedPagesPerMonth,
      includedTokensPerMonth: input.includedTokensPerMonth,
      billingPeriodStart: period.start,
      billingPeriodEnd: period.end,
      retentionDays: input.retentionDays,
      userCount: input.userCount,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      suspendedAt: null,
    };
    await this.manager.insert(OrganisationEntity, row);
    return { ...row };
  }

  /** The organisation, deleted or not; null when the id is unknown. */
  async findById(id: string): Promise<OrganisationRecord | null> {
    const row = await this.manager.findOneBy(OrganisationEntity, { id });
    return row ? { ...row } : null;
  }

  /** Live (not deleted) organisations with exactly this name. */
  async findLiveByName(name: string): Promise<OrganisationRecord[]> {
    const rows = await this.manager.find(OrganisationEntity, { where: { name, deletedAt: IsNull() }, order: { createdAt: 'ASC' } });
    return rows.map((r) => ({ ...r }));
  }

  /** Applies the changes; returns the updated record, or null when the id is unknown. */
  async update(id: string, changes: OrganisationChanges, now: Date = new Date()): Promise<OrganisationRecord | null> {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    await this.manager.update(OrganisationEntity, { id }, { ...defined, updatedAt: now });
    return this.findById(id);
  }

  /**
   * Marks the organisation deleted. Its rows stay (API keys keep answering 401 NotAuthenticated, documents keep
   * their metadata). Returns false when the id is unknown or already deleted.
   */
  async markDeleted(id: string, now: Date = new Date()): Promise<boolean> {
    const result = await this.manager.update(OrganisationEntity, { id, deletedAt: IsNull() }, { deletedAt: now, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /** Suspends (or, with `suspended` false, resumes) the organisation; false when the id is unknown or deleted. */
  async setSuspended(id: string, suspended: boolean, now: Date = new Date()): Promise<boolean> {
    const result = await this.manager.update(OrganisationEntity, { id, deletedAt: IsNull() }, { suspendedAt: suspended ? now : null, updatedAt: now });
    return (result.affected ?? 0) > 0;
  }
}
