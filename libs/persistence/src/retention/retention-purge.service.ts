import type { BlobStore } from '@docrender/storage';
import type { PurgeCandidate, StoredDocumentRepository } from '../repositories/stored-document.repository';

/** What the purge needs of the document store (StoredDocumentRepository provides it). */
export type PurgeableDocuments = Pick<StoredDocumentRepository, 'findPurgeable' | 'findBeyondRetention' | 'markPdfDeleted'>;

export type PurgeReport = {
  /** Documents whose PDF was deleted and that are now marked isPdfDeleted. */
  purged: number;
  /** Documents whose PDF could not be deleted this time (left unmarked; a later run retries them). */
  failures: { documentId: string; reason: string }[];
};

export type RetentionPurgeOptions = {
  /** Documents handled per database round trip (default 200). */
  batchSize?: number;
  /** Blob deletions in flight at once (default 8). */
  concurrency?: number;
};

/**
 * Deletes stored PDFs past retention while keeping their metadata (spec 3.3: isPdfDeleted becomes true, viewUrl
 * empty, download 410 PdfDeleted). The blob is deleted first and the row marked after, so a failure in between leaves
 * a row that the next run completes (deleting a missing blob is not an error); a marked row never points at a PDF
 * that still exists. Used by the admin CLI (`purge-pdfs`) and the job worker's periodic sweep.
 */
export class RetentionPurge {
  private readonly batchSize: number;
  private readonly concurrency: number;

  constructor(
    private readonly documents: PurgeableDocuments,
    private readonly blobs: BlobStore,
    options: RetentionPurgeOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.concurrency = options.concurrency ?? 8;
  }

  /** Purges the PDFs rendered before `cutoff`, of every organisation or of one. */
  async purgeOlderThan(cutoff: Date, options: { organisationId?: string; now?: Date } = {}): Promise<PurgeReport> {
    return this.run(() => this.documents.findPurgeable(cutoff, { organisationId: options.organisationId, limit: this.batchSize }), options.now);
  }

  /** Purges, for every organisation with a retention policy, the PDFs older than its retentionDays at `now`. */
  async purgeByRetentionPolicy(now: Date = new Date()): Promise<PurgeReport> {
    return this.run(() => this.documents.findBeyondRetention(now, this.batchSize), now);
  }

  private async run(nextBatch: () => Promise<PurgeCandidate[]>, now: Date = new Date()): Promise<PurgeReport> {
    const failures = new Map<string, string>();
    let purged = 0;
    for (;;) {
      const batch = await nextBatch();
      const deleted: string[] = [];
      for (let i = 0; i < batch.length; i += this.concurrency) {
        const slice = batch.slice(i, i + this.concurrency);
        const results = await Promise.allSettled(slice.map((d) => this.blobs.delete(d.pdfBlobKey)));
        results.forEach((result, j) => {
          if (result.status === 'fulfilled') {
            deleted.push(slice[j].id);
            failures.delete(slice[j].id);
          } else {
            failures.set(slice[j].id, result.reason instanceof Error ? result.reason.message : String(result.reason));
          }
        });
      }
      purged += await this.documents.markPdfDeleted(deleted, now);
      // A short batch is the last one; a batch where nothing could be deleted would only repeat itself.
      if (batch.length < this.batchSize || deleted.length === 0) break;
    }
    return { purged, failures: [...failures].map(([documentId, reason]) => ({ documentId, reason })) };
  }
}
