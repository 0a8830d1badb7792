import type { EntityManager } from 'typeorm';
import type { ListQuery } from '@docrender/contracts';
import { TEMPLATE_RECORD_SELECT, toTemplateRecord, type TemplateRecord } from '../repositories/template.repository';
import { listingClauses, listingPage, type ListingPage, type ListingSql } from './listing-clauses';

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
    return listingPage(this.manager, { select: TEMPLATE_RECORD_SELECT, countFrom: 'templates t WHERE t.organisation_id = $1' }, clauses, toTemplateRecord, scope);
  }
}
