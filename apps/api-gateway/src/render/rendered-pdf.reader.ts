import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@docrender/observability';
import { LOGGER } from '@docrender/platform';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import type { RenderedDocument } from '@docrender/rendering';

type ReadableDocument = Pick<RenderedDocument, 'pdfBlobKey' | 'inlinePdf' | 'transient'>;

/**
 * The PDF of a rendered document, to answer with it: the bytes that came back inside the render reply (raw, or
 * base64 from a render service older than decision 0022), or else read from the blob store. Raw bytes go to a raw PDF
 * answer as they are and are encoded once for an envelope's documentBase64; base64 is decoded once for a raw PDF
 * answer and goes to an envelope as it is. The stored PDF of a persist=false render is deleted (`discard`) once the
 * answer holds it: an answer that fails to be made keeps it for the request's retry (decision 0041).
 */
@Injectable()
export class RenderedPdfReader {
  constructor(
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The PDF's bytes (a raw PDF answer). */
  async read(document: ReadableDocument): Promise<Buffer> {
    const inline = document.inlinePdf;
    return inline === null ? await this.blobStore.get(document.pdfBlobKey) : 'bytes' in inline ? inline.bytes : Buffer.from(inline.base64, 'base64');
  }

  /** The PDF as base64 (an envelope's documentBase64). */
  async readBase64(document: ReadableDocument): Promise<string> {
    const inline = document.inlinePdf;
    return inline === null ? (await this.blobStore.get(document.pdfBlobKey)).toString('base64') : 'base64' in inline ? inline.base64 : inline.bytes.toString('base64');
  }

  /**
   * Deletes the stored PDFs of the transient documents (persist=false) of an answer that holds them. The answer is
   * made: a failure here is logged (the PDF stays in the store), never answered.
   */
  async discard(documents: readonly ReadableDocument[]): Promise<void> {
    await Promise.all(
      documents
        .filter((d) => d.transient)
        .map((d) => this.blobStore.delete(d.pdfBlobKey).catch((error: unknown) => this.logger.warn('a sent persist=false PDF could not be deleted', { key: d.pdfBlobKey, reason: error instanceof Error ? error.message : String(error) }))),
    );
  }
}
