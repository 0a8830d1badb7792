import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import type { RenderedDocument } from '@docrender/rendering';

type ReadableDocument = Pick<RenderedDocument, 'pdfBlobKey' | 'inlinePdf' | 'transient'>;

/**
 * The PDF of a rendered document, to answer with it: the bytes that came back inside the render reply (raw, or
 * base64 from a render service older than decision 0022), or else read from the blob store. The stored PDF of a
 * persist=false render is deleted once read. Raw bytes go to a raw PDF answer as they are and are encoded once for an
 * envelope's documentBase64; base64 is decoded once for a raw PDF answer and goes to an envelope as it is.
 */
@Injectable()
export class RenderedPdfReader {
  constructor(@Inject(BLOB_STORE) private readonly blobStore: BlobStore) {}

  /** The PDF's bytes (a raw PDF answer). */
  async read(document: ReadableDocument): Promise<Buffer> {
    const inline = document.inlinePdf;
    const pdf = inline === null ? await this.blobStore.get(document.pdfBlobKey) : 'bytes' in inline ? inline.bytes : Buffer.from(inline.base64, 'base64');
    await this.discardTransient(document);
    return pdf;
  }

  /** The PDF as base64 (an envelope's documentBase64). */
  async readBase64(document: ReadableDocument): Promise<string> {
    const inline = document.inlinePdf;
    const pdf = inline === null ? (await this.blobStore.get(document.pdfBlobKey)).toString('base64') : 'base64' in inline ? inline.base64 : inline.bytes.toString('base64');
    await this.discardTransient(document);
    return pdf;
  }

  private async discardTransient(document: ReadableDocument): Promise<void> {
    if (document.transient) await this.blobStore.delete(document.pdfBlobKey);
  }
}
