import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, RateLimitCategory, type ListQuery, type PagedResult, type StoredDocumentDto } from '@docrender/contracts';
import { DocumentListingQuery, OrganisationRepository, SignedLinkQuery, StoredDocumentRepository, type StoredDocumentRecord } from '@docrender/persistence';
import { BLOB_STORE, BlobNotFoundError, type BlobStore } from '@docrender/storage';
import type { Readable } from 'node:stream';
import type { Caller } from '../auth/caller';
import { RateLimiter, type RateLimitHeaders } from '../rate-limit/rate-limiter';
import { toStoredDocumentDto } from './document.mapper';
import { ViewUrlSigner } from '@docrender/platform';

/** How a PDF download was authorised: the bearer key's organisation, or a signed viewUrl. */
export type DocumentFileAccess = { caller: Caller } | { expires: unknown; signature: unknown };

export type DocumentFile = { documentName: string; stream: Readable; sizeBytes: number; headers: RateLimitHeaders };

/** Spec 4.13–4.15: the organisation's stored documents, their metadata and their PDFs. */
@Injectable()
export class DocumentsService {
  constructor(
    private readonly documents: StoredDocumentRepository,
    private readonly listing: DocumentListingQuery,
    private readonly signedLinks: SignedLinkQuery,
    private readonly organisations: OrganisationRepository,
    private readonly signer: ViewUrlSigner,
    private readonly limiter: RateLimiter,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  async list(caller: Caller, query: ListQuery): Promise<PagedResult<StoredDocumentDto>> {
    const page = await this.listing.list(caller.organisationId, query);
    const now = new Date();
    return { items: page.items.map((d) => toStoredDocumentDto(d, this.signer, now)), total: page.total, skip: query.skip, take: query.take };
  }

  async get(caller: Caller, documentId: string): Promise<StoredDocumentDto> {
    return toStoredDocumentDto(await this.document(caller, documentId), this.signer, new Date());
  }

  /**
   * The PDF of a document: through the bearer key (the caller's organisation; its rate limit was taken by the guard),
   * or through a signed viewUrl (valid, unexpired; counted against the owning organisation's read limit).
   * 404 DocumentNotFound; 410 PdfDeleted when retention purged it. A signed link carries no key, so the 401
   * NotAuthenticated of a deleted organisation's keys cannot apply: its links answer 404 OrganizationNotFound.
   */
  async openFile(documentId: string, access: DocumentFileAccess): Promise<DocumentFile> {
    let document: StoredDocumentRecord;
    let headers: RateLimitHeaders = {};
    if ('caller' in access) {
      document = await this.document(access.caller, documentId);
    } else {
      if (!this.signer.verify(documentId, access.expires, access.signature)) {
        throw new DomainError(ErrorCode.Unauthorized, 'the document link is invalid, tampered with or expired; ask for a fresh viewUrl');
      }
      const found = await this.signedLinks.findDocument(documentId);
      if (!found) throw notFound(documentId);
      if ((await this.organisations.findById(found.organisationId))?.deletedAt !== null) {
        throw new DomainError(ErrorCode.OrganizationNotFound, `the organisation that owned document ${documentId} no longer exists`);
      }
      document = found;
      headers = await this.limiter.acquire(document.organisationId, RateLimitCategory.Read);
    }
    if (document.isPdfDeleted) throw pdfDeleted(documentId);
    try {
      const info = await this.blobs.stat(document.pdfBlobKey);
      // Retention deletes the blob before it marks the document: a missing blob is a purge in progress.
      if (info === null) throw pdfDeleted(documentId);
      return { documentName: document.documentName, stream: await this.blobs.getStream(document.pdfBlobKey), sizeBytes: info.sizeBytes, headers };
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw pdfDeleted(documentId);
      throw error;
    }
  }

  private async document(caller: Caller, documentId: string): Promise<StoredDocumentRecord> {
    const document = await this.documents.findById(caller.organisationId, documentId);
    if (!document) throw notFound(documentId);
    return document;
  }
}

const notFound = (id: string) => new DomainError(ErrorCode.DocumentNotFound, `document ${id} not found`);
const pdfDeleted = (id: string) => new DomainError(ErrorCode.PdfDeleted, `the PDF of document ${id} was purged by the retention policy; its metadata remains`);
