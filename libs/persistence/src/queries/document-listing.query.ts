import type { EntityManager } from 'typeorm';
import type { DocumentConformance, ListQuery } from '@docrender/contracts';
import type { StoredDocumentRecord } from '../repositories/stored-document.repository';
import { listingClauses, listingPage, type ListingPage, type ListingSql } from './listing-clauses';

/** Spec 4.1 documents: wire names of LISTINGS.documents (filters and sorts) → columns of `documents d`. */
export const DOCUMENT_LISTING: ListingSql<'documents'> = {
  columns: {
    documentName: { sql: 'd.document_name', type: 'text' },
    'template.guid': { sql: 'd.template_id', type: 'uuid' },
    versionNumber: { sql: 'd.version_number', type: 'number' },
    fileSizeBytes: { sql: 'd.file_size_bytes', type: 'number' },
    pageCount: { sql: 'd.page_count', type: 'number' },
    renderDuration: { sql: 'd.render_duration_ms', type: 'number' },
    renderedAt: { sql: 'd.rendered_at', type: 'datetime' },
    createdAt: { sql: 'd.created_at', type: 'datetime' },
    updatedAt: { sql: 'd.updated_at', type: 'datetime' },
    environment: { sql: 'd.environment', type: 'enum' },
    language: { sql: 'd.language', type: 'enum' },
  },
  search: ['d.document_name'],
  tiebreaker: 'd.id',
};

const DOCUMENT_COLUMNS = `d.id, d.organisation_id, d.template_id, d.version_number, d.environment, d.language, d.document_name,
  d.document_type, d.pdf_blob_key, d.file_size_bytes, d.page_count, d.rendered_at, d.render_duration_ms, d.is_pdf_deleted,
  d.render_job_id, d.conformance, d.created_at, d.updated_at`;

type DocumentRow = {
  id: string;
  organisation_id: string;
  template_id: string;
  version_number: number;
  environment: StoredDocumentRecord['environment'];
  language: string | null;
  document_name: string;
  document_type: StoredDocumentRecord['documentType'];
  pdf_blob_key: string;
  file_size_bytes: number;
  page_count: number;
  rendered_at: Date;
  render_duration_ms: number;
  is_pdf_deleted: boolean;
  render_job_id: string | null;
  conformance: DocumentConformance | null;
  created_at: Date;
  updated_at: Date;
};

function toRecord(r: DocumentRow): StoredDocumentRecord {
  return {
    id: r.id,
    organisationId: r.organisation_id,
    templateId: r.template_id,
    versionNumber: r.version_number,
    environment: r.environment,
    language: r.language,
    documentName: r.document_name,
    documentType: r.document_type,
    pdfBlobKey: r.pdf_blob_key,
    fileSizeBytes: r.file_size_bytes,
    pageCount: r.page_count,
    renderedAt: r.rendered_at,
    renderDurationMs: r.render_duration_ms,
    isPdfDeleted: r.is_pdf_deleted,
    renderJobId: r.render_job_id,
    conformance: r.conformance,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Spec 4.13: the organisation's stored documents through the shared listing contract. */
export class DocumentListingQuery {
  constructor(private readonly manager: EntityManager) {}

  async list(organisationId: string, query: ListQuery): Promise<ListingPage<StoredDocumentRecord>> {
    return listingPage(
      this.manager,
      { select: `SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.organisation_id = $1`, countFrom: 'documents d WHERE d.organisation_id = $1' },
      listingClauses(query, DOCUMENT_LISTING, [organisationId]),
      toRecord,
    );
  }
}
