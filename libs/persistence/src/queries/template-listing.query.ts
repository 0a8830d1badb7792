import type { EntityManager } from 'typeorm';
import type { ListQuery } from '@docrender/contracts';
import { TEMPLATE_RECORD_SELECT, toTemplateRecord, type TemplateRecord, type TemplateRecordRow } from '../repositories/template.repository';
import { listingClauses, type ListingPage, type ListingSql } from './listing-clauses';

/** Spec 4.1 templates: wire names of LISTINGS.templates → columns of `templates t`. */
export const TEMPLATE_LISTING: ListingSql<'templates'> = {
  columns: {
    name: { sql: 't.name', type: 'text' },
    'project.guid': { sql: 't.project_id', type: 'uuid' },
    createdAt: { sql: 't.created_at', type: 'datetime' },
    updatedAt: { sql: 't.updated_at', type: 'datetime' },
  },
  search: ['t.name'],
  tiebreaker: 't.id',
};

/** Spec 4.7: the organisation's templates (optionally of one project) through the shared listing contract. */
export class TemplateListingQuery {
  constructor(private readonly manager: EntityManager) {}

  async list(organisationId: string, query: ListQuery, options: { projectId?: string } = {}): Promise<ListingPage<TemplateRecord>> {
    const params: unknown[] = [organisationId];
    const scope: string[] = [];
    if (options.projectId !== undefined) {
      params.push(options.projectId);
      scope.push(`t.project_id = $${params.length}`);
    }
    const clauses = listingClauses(query, TEMPLATE_LISTING, params);
    const where = [...scope, ...clauses.conditions].map((c) => ` AND ${c}`).join('');
    const [rows, [{ total }]] = await Promise.all([
      this.manager.query(`${TEMPLATE_RECORD_SELECT}${where} ${clauses.orderBy} ${clauses.limitOffset}`, [...clauses.params, ...clauses.pageParams]) as Promise<
        TemplateRecordRow[]
      >,
      this.manager.query(`SELECT count(*)::int AS total FROM templates t WHERE t.organisation_id = $1${where}`, clauses.params) as Promise<
        { total: number }[]
      >,
    ]);
    return { items: rows.map(toTemplateRecord), total };
  }
}
