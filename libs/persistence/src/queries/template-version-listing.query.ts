import type { EntityManager } from 'typeorm';
import type { ListQuery } from '@docrender/contracts';
import type { TemplateVersionRecord } from '../repositories/template-version.repository';
import { listingClauses, listingPage, type ListingPage, type ListingSql } from './listing-clauses';

/** Spec 4.1 template versions: wire names of LISTINGS.templateVersions → columns of `template_versions v`. */
export const TEMPLATE_VERSION_LISTING: ListingSql<'templateVersions'> = {
  columns: {
    versionNumber: { sql: 'v.version_number', type: 'number' },
    publishedAt: { sql: 'v.published_at', type: 'datetime' },
    createdAt: { sql: 'v.created_at', type: 'datetime' },
    updatedAt: { sql: 'v.updated_at', type: 'datetime' },
  },
  search: [],
  tiebreaker: 'v.id',
};

/** A version without its template DSL and sample data (spec 4.9 lists summaries; the big texts are not read). */
export type TemplateVersionSummaryRecord = Omit<TemplateVersionRecord, 'templateJson' | 'sampleData'>;

type Row = {
  id: string;
  template_id: string;
  version_number: number;
  translations: string | null;
  document_name_template: string | null;
  published_at: Date | null;
  published_by: string | null;
  preview_image_blob_key: string | null;
  created_at: Date;
  updated_at: Date;
};

/**
 * Spec 4.9: the versions of one template through the shared listing contract. The caller has checked that the
 * template belongs to the organisation (versions carry no organisation of their own).
 */
export class TemplateVersionListingQuery {
  constructor(private readonly manager: EntityManager) {}

  async list(templateId: string, query: ListQuery): Promise<ListingPage<TemplateVersionSummaryRecord>> {
    return listingPage(
      this.manager,
      {
        select: `SELECT v.id, v.template_id, v.version_number, v.translations, v.document_name_template, v.published_at, v.published_by,
                v.preview_image_blob_key, v.created_at, v.updated_at
           FROM template_versions v WHERE v.template_id = $1`,
        countFrom: 'template_versions v WHERE v.template_id = $1',
      },
      listingClauses(query, TEMPLATE_VERSION_LISTING, [templateId]),
      (r: Row) => ({
        id: r.id,
        templateId: r.template_id,
        versionNumber: r.version_number,
        translations: r.translations,
        documentNameTemplate: r.document_name_template,
        publishedAt: r.published_at,
        publishedBy: r.published_by,
        previewImageBlobKey: r.preview_image_blob_key,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      }),
    );
  }
}
