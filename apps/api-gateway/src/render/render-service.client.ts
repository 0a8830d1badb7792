import { Inject, Injectable } from '@nestjs/common';
import { DataRef, DomainError, ErrorCode, MessageName, renderIssue, RenderIssueType, type RenderDocumentResult } from '@docrender/contracts';
import type { RenderApiSettings } from '@docrender/config';
import { MESSAGE_BUS, MessageBusUnavailableError, RequestTimeoutError, type MessageBus } from '@docrender/messaging';
import { RenderBudget, renderCommand, renderInputBlobKey, SYNC_STORAGE_OUTAGE_WAIT_MS, type BatchDocumentOutput, type RenderTarget } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { textOf, type DocumentSlice } from './body/render-body.binder';
import { RENDER_API_SETTINGS } from './render.tokens';

/** One document to render: its JSON text as a slice of the request body, where the PDF goes and the log id. */
export type DocumentToRender = BatchDocumentOutput & {
  raw: Buffer;
  slice: DocumentSlice;
  /** The caller answers with the PDF's bytes: a PDF up to RENDER_API_INLINE_PDF_MAX_BYTES comes back in the reply. */
  wantsPdfBytes: boolean;
};

/**
 * Sends one document to the render service (request/reply over the message bus) and returns its result. The data
 * travels as the raw JSON text the client sent, never parsed in the gateway: inside the message when small, through
 * the blob store when larger than RENDER_API_INLINE_DATA_MAX_BYTES. The render service gets a deadline of the render
 * budget from now, and waits out a blob store outage only for SYNC_STORAGE_OUTAGE_WAIT_MS (the client's connection is
 * held); a reply that does not come within the budget and a grace period is a RenderTimeout. A caller that
 * needs the PDF's bytes gets a small PDF inside the reply (raw bytes: decision 0022) as well as stored at outputBlobKey.
 */
@Injectable()
export class RenderServiceClient {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    @Inject(RENDER_API_SETTINGS) private readonly settings: RenderApiSettings,
    private readonly budget: RenderBudget,
  ) {}

  /** The renderer the batch use case (RenderBatch) calls for each document of one request body. */
  documentsOf(target: RenderTarget, raw: Buffer, wantsPdfBytes: boolean): (slice: DocumentSlice, output: BatchDocumentOutput) => Promise<RenderDocumentResult> {
    return (slice, output) => this.render(target, { raw, slice, wantsPdfBytes, ...output });
  }

  async render(target: RenderTarget, document: DocumentToRender): Promise<RenderDocumentResult> {
    const { slice } = document;
    const inputBlobKey = slice.bytes > this.settings.inlineDataMaxBytes ? renderInputBlobKey(target.organisationId, document.requestId) : null;
    const started = Date.now();
    try {
      let data: DataRef;
      if (inputBlobKey === null) {
        data = { json: textOf(document.raw, slice) };
      } else {
        await this.blobStore.put(inputBlobKey, document.raw.subarray(slice.start, slice.end), 'application/json');
        data = { blobKey: inputBlobKey };
      }
      const inlinePdfMaxBytes = document.wantsPdfBytes ? this.settings.inlinePdfMaxBytes : undefined;
      const command = renderCommand(
        target,
        { requestId: document.requestId, data, outputBlobKey: document.outputBlobKey, inlinePdfMaxBytes, storageOutageWaitMs: SYNC_STORAGE_OUTAGE_WAIT_MS },
        this.budget,
      );
      return await this.bus.request(MessageName.RenderDocument, command, { timeoutMs: this.budget.replyTimeoutMs(this.settings.replyGraceMs) });
    } catch (error) {
      if (error instanceof RequestTimeoutError) return this.timedOut(target, Date.now() - started);
      if (error instanceof MessageBusUnavailableError) {
        throw new DomainError(ErrorCode.ExternalServiceError, 'the render service cannot be reached; retry later');
      }
      throw error;
    } finally {
      if (inputBlobKey !== null) await this.blobStore.delete(inputBlobKey);
    }
  }

  private timedOut(target: RenderTarget, elapsedMs: number): RenderDocumentResult {
    const message = `no render result within the ${this.budget.budgetMs} ms render budget`;
    return {
      outcome: 'failed',
      issues: [renderIssue(RenderIssueType.RenderTimeout, message)],
      documentName: target.fallbackDocumentName,
      pdf: null,
      renderDurationMs: elapsedMs,
      failure: { code: ErrorCode.RenderTimeout, message },
    };
  }
}
