import { PLAIN_PDF_CONFORMANCE, type StoredDocumentDto } from '@docrender/contracts';
import type { StoredDocumentRecord } from '@docrender/persistence';
import type { ViewUrlSigner } from '@docrender/platform';

/** Spec 2.4, with a viewUrl signed at `now` (empty when the PDF was purged). */
export function toStoredDocumentDto(r: StoredDocumentRecord, signer: ViewUrlSigner, now: Date): StoredDocumentDto {
  return {
    id: r.id,
    documentName: r.documentName,
    templateId: r.templateId,
    versionNumber: r.versionNumber,
    environment: r.environment,
    fileSizeBytes: r.fileSizeBytes,
    pageCount: r.pageCount,
    renderedAt: r.renderedAt.toISOString(),
    renderDuration: r.renderDurationMs,
    viewUrl: signer.viewUrlOf(r, now),
    documentType: r.documentType,
    isPdfDeleted: r.isPdfDeleted,
    language: r.language,
    // rows stored before a field of the conformance existed answer that field as a plain PDF's
    conformance: { ...PLAIN_PDF_CONFORMANCE, ...r.conformance },
  };
}
