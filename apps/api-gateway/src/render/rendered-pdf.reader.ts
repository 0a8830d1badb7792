import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import type { RenderedDocument } from '@docrender/rendering';

/**
 * The PDF of a rendered document, to answer with it: the bytes that came back inside the render reply, or else read
 * from the blob store. The stored PDF of a persist=false render is deleted once read.
 */
@Injectable()
export class RenderedPdfReader {
  constructor(@Inject(BLOB_STORE) private readonly blobStore: BlobStore) {}

  async read(document: Pick<RenderedDocument, 'pdfBlobKey' | 'inlinePdf' | 'transient'>): Promise<Buffer> {
    const pdf = document.inlinePdf ?? (await this.blobStore.get(document.pdfBlobKey));
    if (document.transient) await this.blobStore.delete(document.pdfBlobKey);
    return pdf;
  }
}
