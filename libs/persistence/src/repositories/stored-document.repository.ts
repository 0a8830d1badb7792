import { randomUUID } from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import type { DocumentType, Environment } from '@docrender/contracts';
import { StoredDocumentEntity } from '../entities';

/** Spec 2.4 with Dates and the PDF's blob key (viewUrl is made by the caller from the key). */
export type StoredDocumentRecord = {
  id: string;
  organisationId: string;
  templateId: string;
  versionNumber: number;
  environment: Environment;
  language: string | null;
  documentName: string;
  documentType: DocumentType;
  pdfBlobKey: string;
  fileSizeBytes: number;
  pageCount: number;
  renderedAt: Date;
  renderDurationMs: number;
  isPdfDeleted: boolean;
  /** The async job that produced it, if any. */
  renderJobId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type NewStoredDocument = Omit<StoredDocumentRecord, 'id' | 'isPdfDeleted' | 'createdAt' | 'updatedAt' | 'renderJobId'> & {
  /** Made up when absent (pass one when the blob key is derived from the id). */
  id?: string;
  renderJobId?: string | null;
};

/** A document whose PDF retention may purge. */
export type PurgeCandidate = { id: string; organisationId: string; pdfBlobKey: string; renderedAt: Date };

export class StoredDocumentRepository {
  constructor(private readonly manager: EntityManager) {}

  async create(input: NewStoredDocument, now: Date = new Date()): Promise<StoredDocumentRecord> {
    const row: StoredDocumentEntity = {
      ...input,
      id: input.id ?? randomUUID(),
      renderJobId: input.renderJobId ?? null,
      isPdfDeleted: false,
      createdAt: now,
      updatedAt: now,
    };
    await this.manager.insert(StoredDocumentEntity, row);
    return { ...row };
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
