import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { RenderBatch, UndeliveredAnswers, type BatchRenderResult, type RenderedDocument, type RenderTarget } from '@docrender/rendering';
import { LOGGER } from '@docrender/platform';
import type { Logger } from '@docrender/observability';
import type { DocumentSlice } from '../request-body/render-body.binder';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { RenderedPdfReader } from './rendered-pdf.reader';
import { SyncDocumentSender } from './sync-document.sender';

/** One sync render request as both render routes (spec 4.2, 4.3) hand it over. */
export type SyncRenderRequest = {
  target: RenderTarget;
  /** The request body; the documents are slices of it. */
  raw: Buffer;
  documents: readonly DocumentSlice[];
  persist: boolean;
  wantsPdfBytes: boolean;
  /** What besides the body makes two requests the same request (the retry fingerprint of decision 0041). */
  how: unknown;
};

/**
 * The answer path of every sync render route: the documents rendered through the render service (RenderBatch), a
 * retry after a 5xx never paying twice for the same input (decision 0041: what an earlier answer of this very request
 * paid for and could not deliver is answered as it is), the transient PDFs discarded once the answer holds them, then
 * the answer sent. The answers are made here too: a PDF, or the render envelope.
 */
@Injectable()
export class SyncRenderService {
  constructor(
    private readonly batches: RenderBatch,
    private readonly sender: SyncDocumentSender,
    private readonly pdfs: RenderedPdfReader,
    private readonly envelopes: RenderEnvelopePresenter,
    private readonly undelivered: UndeliveredAnswers,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `answer` makes the answer, ready to send; it is sent once the PDFs it holds are no longer needed. */
  async renderAndAnswer(request: SyncRenderRequest, answer: (rendered: BatchRenderResult) => Promise<() => void>): Promise<void> {
    const { target, raw, documents, persist } = request;
    const render = this.sender.documentsOf(target, raw, request.wantsPdfBytes);
    const { result, answer: send } = await this.undelivered.renderOnce(
      { organisationId: target.organisationId, fingerprint: UndeliveredAnswers.fingerprint(request.how, raw) },
      (paid) => this.batches.render({ target, documents, persist, render, requestId: randomUUID(), paid }),
      answer,
      (error, kept) => this.logger.error('paid documents whose answer failed could not be kept for the retry', { err: error, documents: kept }),
    );
    // the answer holds every PDF it sends: the persist=false ones are no longer needed
    await this.pdfs.discard(result.rendered);
    send();
  }

  /** A PDF answer, made and ready to send: the document's PDF (200) with the headers `headersOf` gives once it is read. */
  async pdfAnswer(document: RenderedDocument, res: Response, headersOf: () => Record<string, string>): Promise<() => void> {
    const pdf = await this.pdfs.read(document);
    const headers = headersOf();
    return () => void res.status(200).set(headers).end(pdf);
  }

  /** An envelope answer (spec 2.6), made and ready to send with `status`. */
  async envelopeAnswer(result: BatchRenderResult, target: RenderTarget, includeDocument: boolean, status: number, res: Response): Promise<() => void> {
    const envelope = await this.envelopes.envelope(result, target, includeDocument);
    return () => void res.status(status).json(envelope);
  }
}
