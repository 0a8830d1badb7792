import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import type { RenderedDocument } from '@docrender/rendering';

type ReadableDocument = Pick<RenderedDocument, 'pdfBlobKey' | 'inlinePdfBase64' | 'transient'>;

/**
 * The PDF of a rendered document, to answer with it: the bytes that came back inside the render reply, or else read
 * from the blob store. The stored PDF of a persist=false render is deleted once read. The PDF is copied once on its
 * way to the client: decoded from the reply's base64 for a raw PDF answer, and not decoded at all for an envelope's
 * documentBase64 (the reply's text is that base64 already).
 */
@Injectable()
export class RenderedPdfReader {
  constructor(@Inject(BLOB_STORE) private readonly blobStore: BlobStore) {}

  /** The PDF's bytes (a raw PDF answer). */
  async read(document: ReadableDocument): Promise<Buffer> {
    const pdf = document.inlinePdfBase64 === null ? await this.blobStore.get(document.pdfBlobKey) : Buffer.from(document.inlinePdfBase64, 'base64');
    await this.discardTransient(document);
    return pdf;
  }

  /** The PDF as base64 (an envelope's documentBase64). */
  async readBase64(document: ReadableDocument): Promise<string> {
    const pdf = document.inlinePdfBase64 ?? (await this.blobStore.get(document.pdfBlobKey)).toString('base64');
    await this.discardTransient(document);
    return pdf;
  }

  private async discardTransient(document: ReadableDocument): Promise<void> {
    if (document.transient) await this.blobStore.delete(document.pdfBlobKey);
  }
}
