import { randomUUID } from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import type { DocumentConformance } from '@docrender/contracts';
import type { StoredDocumentDraft } from '@docrender/rendering';
import { StoredDocumentEntity } from '../entities';
import { queryPrepared, type PreparedStatement } from '../prepared-statement';
import { CONSUME_PAGES_OF_CURRENT_PERIOD, UsageRepository } from './usage.repository';

/** Spec 2.4 with Dates and the PDF's blob key (viewUrl is made by the caller from the key). */
export type StoredDocumentRecord = Omit<StoredDocumentDraft, 'renderJobId' | 'conformance'> & {
  isPdfDeleted: boolean;
  /** The async job that produced it, if any. */
  renderJobId: string | null;
  /** What it asked to conform to and the result of the render service's checks; null for documents stored before (decision 0032). */
  conformance: DocumentConformance | null;
  createdAt: Date;
  updatedAt: Date;
};

export type NewStoredDocument = Omit<StoredDocumentRecord, 'id' | 'isPdfDeleted' | 'createdAt' | 'updatedAt' | 'renderJobId' | 'conformance'> & {
  /** Made up when absent (pass one when the blob key is derived from the id). */
  id?: string;
  renderJobId?: string | null;
  conformance?: DocumentConformance | null;
};

function rowOf(input: NewStoredDocument, now: Date): StoredDocumentEntity {
  return {
    ...input,
    id: input.id ?? randomUUID(),
    renderJobId: input.renderJobId ?? null,
    conformance: input.conformance ?? null,
    isPdfDeleted: false,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * The one-statement path of StoredDocumentRepository.createPaid as two steps of a WITH list: `paid` takes the pages
 * while the stored billing period is current and they fit (and `condition` holds), `stored` inserts the row when
 * they were taken, returning its id. Parameters $1–$15 are paidDocumentParams; a statement that embeds the steps
 * numbers its own from $16, and names the parameter holding the document's conformance (paidDocumentConformance)
 * in `conformance`.
 */
export function paidDocumentSteps(condition: string, conformance: string): string {
  return `paid AS (${CONSUME_PAGES_OF_CURRENT_PERIOD} AND (${condition}) RETURNING u.organisation_id
     ), stored AS (
       INSERT INTO documents (id, organisation_id, template_id, version_number, environment, language, document_name, document_type, pdf_blob_key,
                              file_size_bytes, page_count, rendered_at, render_duration_ms, is_pdf_deleted, render_job_id, created_at, updated_at,
                              conformance)
       SELECT $4::uuid, paid.organisation_id, $5::uuid, $6::integer, $7::text, $8::text, $9::text, $10::text, $11::text,
              $12::integer, $2, $13::timestamptz, $14::integer, false, $15::uuid, $3, $3, ${conformance}::jsonb
         FROM paid
       RETURNING id
     )`;
}

/** The parameters $1–$15 of paidDocumentSteps for a new document (null: the steps take and store nothing). */
export function paidDocumentParams(input: NewStoredDocument | null, now: Date): unknown[] {
  if (input === null) return Array<null>(15).fill(null);
  const row = rowOf(input, now);
  return [
    row.organisationId,
    row.pageCount,
    now,
    row.id,
    row.templateId,
    row.versionNumber,
    row.environment,
    row.language,
    row.documentName,
    row.documentType,
    row.pdfBlobKey,
    row.fileSizeBytes,
    row.renderedAt,
    row.renderDurationMs,
    row.renderJobId,
  ];
}

/** The conformance parameter of paidDocumentSteps: JSON text, or null. */
export function paidDocumentConformance(input: NewStoredDocument | null): string | null {
  return input?.conformance == null ? null : JSON.stringify(input.conformance);
}

/** Takes the pages of the current billing period and stores the paid document's row, in one statement (createPaid). */
const CREATE_PAID: PreparedStatement = { name: 'stored-document-create-paid', text: `WITH ${paidDocumentSteps('true', '$16')} SELECT id FROM stored` };

/** A document whose PDF retention may purge. */
export type PurgeCandidate = { id: string; organisationId: string; pdfBlobKey: string; renderedAt: Date };

export class StoredDocumentRepository {
  constructor(private readonly manager: EntityManager) {}

  async create(input: NewStoredDocument, now: Date = new Date()): Promise<StoredDocumentRecord> {
    const row = rowOf(input, now);
    await this.manager.insert(StoredDocumentEntity, row);
    return { ...row };
  }

  /**
   * Stores a rendered document only if its pages of credit can be taken (UsageRepository.tryConsumePages), and takes
   * them; null, storing and taking nothing, when they do not fit. While the stored billing period is current (the
   * usual case) both happen in one statement: one round trip and one commit. After the period has ended (or when
   * the pages do not fit) the period is rolled over, the pages taken and the row stored in one transaction. Either
   * way a paid render never lacks its row, and a row that cannot be stored takes no credit.
   */
  async createPaid(input: NewStoredDocument, now: Date = new Date()): Promise<StoredDocumentRecord | null> {
    const row = rowOf(input, now);
    const inserted = await queryPrepared(this.manager, CREATE_PAID, [...paidDocumentParams(row, now), paidDocumentConformance(row)]);
    if (inserted.length === 1) return { ...row };
    return this.manager.transaction(async (m) => {
      if (!(await new UsageRepository(m).tryConsumePages(row.organisationId, row.pageCount, now))) return null;
      await m.insert(StoredDocumentEntity, row);
      return { ...row };
    });
  }

  /** The document when it exists and belongs to the organisation. */
  async findById(organisationId: string, id: string): Promise<StoredDocumentRecord | null> {
    const row = await this.manager.findOneBy(StoredDocumentEntity, { id, organisationId });
    return row ? { ...row } : null;
  }

  /**
   * Documents whose PDF is still stored and that were rendered before `cutoff` (oldest first), optionally of one
   * organisation only.
   */
  async findPurgeable(cutoff: Date, options: { organisationId?: string; limit: number }): Promise<PurgeCandidate[]> {
    const query = this.manager
      .createQueryBuilder(StoredDocumentEntity, 'd')
      .select(['d.id', 'd.organisationId', 'd.pdfBlobKey', 'd.renderedAt'])
      .where('d.is_pdf_deleted = false AND d.rendered_at < :cutoff', { cutoff })
      .orderBy('d.rendered_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(options.limit);
    if (options.organisationId !== undefined) query.andWhere('d.organisation_id = :organisationId', { organisationId: options.organisationId });
    const rows = await query.getMany();
    return rows.map((r) => ({ id: r.id, organisationId: r.organisationId, pdfBlobKey: r.pdfBlobKey, renderedAt: r.renderedAt }));
  }

  /**
   * Documents of organisations with a retention policy whose PDF is still stored and older than the policy allows
   * at `now` (oldest first).
   */
  async findBeyondRetention(now: Date, limit: number): Promise<PurgeCandidate[]> {
    const rows = (await this.manager.query(
      `SELECT d.id, d.organisation_id, d.pdf_blob_key, d.rendered_at
         FROM documents d JOIN organisations o ON o.id = d.organisation_id
        WHERE d.is_pdf_deleted = false
          AND o.retention_days IS NOT NULL
          AND d.rendered_at < $1::timestamptz - make_interval(days => o.retention_days)
        ORDER BY d.rendered_at, d.id
        LIMIT $2`,
      [now, limit],
    )) as { id: string; organisation_id: string; pdf_blob_key: string; rendered_at: Date }[];
    return rows.map((r) => ({ id: r.id, organisationId: r.organisation_id, pdfBlobKey: r.pdf_blob_key, renderedAt: r.rendered_at }));
  }

  /** Marks the PDFs of these documents deleted (metadata stays); returns how many changed. */
  async markPdfDeleted(ids: readonly string[], now: Date = new Date()): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.manager.update(StoredDocumentEntity, { id: In([...ids]), isPdfDeleted: false }, { isPdfDeleted: true, updatedAt: now });
    return result.affected ?? 0;
  }
}
