import { Inject, Injectable } from '@nestjs/common';
import type { DataRef, RenderDocumentResult } from '@docrender/contracts';
import type { RenderApiSettings } from '@docrender/config';
import { RenderServiceClient, renderInputBlobKey, SYNC_STORAGE_OUTAGE_WAIT_MS, type BatchDocumentOutput, type RenderTarget } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { textOf, type DocumentSlice } from '../request-body/render-body.binder';
import { RENDER_API_SETTINGS } from '../request-body/request-body.tokens';

/** One document to render: its JSON text as a slice of the request body, where the PDF goes and the log id. */
export type DocumentToSend = BatchDocumentOutput & {
  raw: Buffer;
  slice: DocumentSlice;
  /** The caller answers with the PDF's bytes: a PDF up to RENDER_API_INLINE_PDF_MAX_BYTES comes back in the reply. */
  wantsPdfBytes: boolean;
};

/**
 * Sends the documents of a sync render to the render service through the one RenderServiceClient (libs/rendering),
 * as a caller holding the client's connection: no reply in time is the document's RenderTimeout. The data travels as
 * the raw JSON text the client sent, never parsed in the gateway: inside the message when small, through the blob
 * store when larger than RENDER_API_INLINE_DATA_MAX_BYTES. The render service waits out a blob store outage only for
 * SYNC_STORAGE_OUTAGE_WAIT_MS. A caller that needs the PDF's bytes gets a small PDF inside the reply (raw bytes:
 * decision 0022) as well as stored at outputBlobKey.
 */
@Injectable()
export class SyncDocumentSender {
  constructor(
    private readonly renderService: RenderServiceClient,
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    @Inject(RENDER_API_SETTINGS) private readonly settings: RenderApiSettings,
  ) {}

  /** The renderer the batch use case (RenderBatch) calls for each document of one request body. */
  documentsOf(target: RenderTarget, raw: Buffer, wantsPdfBytes: boolean): (slice: DocumentSlice, output: BatchDocumentOutput) => Promise<RenderDocumentResult> {
    return (slice, output) => this.render(target, { raw, slice, wantsPdfBytes, ...output });
  }

  async render(target: RenderTarget, document: DocumentToSend): Promise<RenderDocumentResult> {
    const { slice } = document;
    const inputBlobKey = slice.bytes > this.settings.inlineDataMaxBytes ? renderInputBlobKey(target.organisationId, document.requestId) : null;
    try {
      let data: DataRef;
      if (inputBlobKey === null) {
        data = { json: textOf(document.raw, slice) };
      } else {
        await this.blobStore.put(inputBlobKey, document.raw.subarray(slice.start, slice.end), 'application/json');
        data = { blobKey: inputBlobKey };
      }
      const inlinePdfMaxBytes = document.wantsPdfBytes ? this.settings.inlinePdfMaxBytes : undefined;
      return await this.renderService.renderForClient(target, {
        requestId: document.requestId,
        data,
        outputBlobKey: document.outputBlobKey,
        inlinePdfMaxBytes,
        storageOutageWaitMs: SYNC_STORAGE_OUTAGE_WAIT_MS,
      });
    } finally {
      if (inputBlobKey !== null) await this.blobStore.delete(inputBlobKey);
    }
  }
}
