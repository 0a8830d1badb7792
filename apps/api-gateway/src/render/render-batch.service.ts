import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, Environment, ErrorCode, type RenderDocumentResult, type RenderIssue } from '@docrender/contracts';
import type { RenderApiSettings } from '@docrender/config';
import { RenderedDocumentLedger, UsageRepository } from '@docrender/persistence';
import { documentOutcomeOf, RenderedDocumentRecorder, syncDocumentPdfBlobKey, type RenderedPdf, type RenderTarget } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { mapWithConcurrency } from '@docrender/platform';
import { nestingTooDeepIssue } from '@docrender/template-dsl';
import { tooDeep, type DocumentSlice } from './body/render-body.binder';
import { RenderServiceClient } from './render-service.client';
import { RENDER_API_SETTINGS } from './render.tokens';

/** A document that rendered (and, in production, was paid for). Its PDF is at pdfBlobKey. */
export type RenderedDocument = {
  documentIndex: number;
  /** The stored document's id; null when persist=false. */
  id: string | null;
  documentName: string;
  pageCount: number;
  fileSizeBytes: number;
  renderDurationMs: number;
  renderedAt: Date;
  pdfBlobKey: string;
  /** The PDF itself when it came back inside the render reply (asked for with wantsPdfBytes and small enough). */
  inlinePdf: Buffer | null;
  /** True when the PDF is not kept (persist=false): the caller deletes it once it has been read. */
  transient: boolean;
  /** Its non-blocking issues, with documentIndex. */
  issues: RenderIssue[];
};

export type BatchRenderRequest = {
  target: RenderTarget;
  raw: Buffer;
  documents: DocumentSlice[];
  persist: boolean;
  /** The caller answers with the PDFs' bytes (raw PDF, persist=false, includeDocument): small ones come back inline. */
  wantsPdfBytes: boolean;
  requestId: string;
};

/** What happened to the documents of one request. */
export type BatchRenderResult = {
  requestedCount: number;
  /** By documentIndex. */
  rendered: RenderedDocument[];
  /** Every issue, each with its documentIndex, by documentIndex. */
  issues: RenderIssue[];
  /** Documents not rendered because of blocking issues. */
  blockedCount: number;
  /** Documents whose render failed (timeout, render service error). */
  failedCount: number;
  /** The first failure of a failed document, for the summary (e.g. RenderTimeout). */
  firstFailure: { code: string; message: string } | null;
  /** Page credit ran out: the batch stopped and the documents not rendered count as missing. */
  creditStopped: boolean;
};

/**
 * Renders the documents of one request (spec 4.2, 4.3): in parallel across render workers (up to
 * RENDER_API_BATCH_CONCURRENCY in flight), each through the render service, which decides blocking by environment.
 * - a document nesting deeper than 32 levels is a DangerousContent issue and is never sent (spec 8);
 * - each rendered document is paid for and recorded by the render use case (libs/rendering,
 *   RenderedDocumentRecorder): in production it takes its pages of credit atomically, with a persisted document's
 *   row in the same statement; when they do not fit, its PDF is deleted and the batch stops: documents not yet
 *   started are not rendered and those still in flight are discarded (spec 3.1 rule 3, an outcome, not an error).
 *   Test keys take no credit;
 * - persist=true stores the document (metadata row, PDF at organisations/<org>/documents/<id>.pdf);
 * - a document that ends without a PDF always carries an Error issue with its documentIndex (spec 3.1 rule 2); when no
 *   document rendered because the blob store was down, the request is 500 ExternalServiceError.
 */
@Injectable()
export class RenderBatchService {
  private readonly recorder: RenderedDocumentRecorder;

  constructor(
    private readonly renderService: RenderServiceClient,
    private readonly usage: UsageRepository,
    ledger: RenderedDocumentLedger,
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    @Inject(RENDER_API_SETTINGS) private readonly settings: RenderApiSettings,
  ) {
    this.recorder = new RenderedDocumentRecorder(ledger);
  }

  async render(request: BatchRenderRequest): Promise<BatchRenderResult> {
    const { target, documents } = request;
    if (request.persist && target.source === null) throw new Error('a stateless render cannot be persisted');
    const result: BatchRenderResult = {
      requestedCount: documents.length,
      rendered: [],
      issues: [],
      blockedCount: 0,
      failedCount: 0,
      firstFailure: null,
      // A production batch first checks that credit is left, so a batch at zero credit renders nothing; a single
      // document is simply checked when it is paid for (saving the queries on the common path).
      creditStopped: target.environment === Environment.Production && documents.length > 1 && !(await this.hasCreditLeft(target.organisationId)),
    };
    try {
      // Once credit stops the batch, the documents not yet started are skipped.
      await mapWithConcurrency(documents, this.settings.batchConcurrency, (slice) => (result.creditStopped ? Promise.resolve() : this.renderOne(request, slice, result)));
    } catch (error) {
      await this.discard(result.rendered.filter((d) => d.transient));
      throw error;
    }
    if (result.rendered.length === 0 && result.firstFailure?.code === ErrorCode.ExternalServiceError) {
      // Spec 7.2: nothing rendered because a dependency (the blob store) was down for the whole budget: an outage
      // the client retries (500 ExternalServiceError with Retry-After), not a render outcome.
      throw new DomainError(ErrorCode.ExternalServiceError, `the documents could not be rendered now: ${result.firstFailure.message}; retry later`);
    }
    result.rendered.sort((a, b) => a.documentIndex - b.documentIndex);
    result.issues.sort((a, b) => (a.documentIndex ?? -1) - (b.documentIndex ?? -1));
    return result;
  }

  /** Deletes the PDFs of transient documents (after they were sent, or when the request failed). */
  async discard(documents: readonly Pick<RenderedDocument, 'pdfBlobKey'>[]): Promise<void> {
    await Promise.all(documents.map((d) => this.blobStore.delete(d.pdfBlobKey)));
  }

  private async hasCreditLeft(organisationId: string): Promise<boolean> {
    const usage = await this.usage.getUsage(organisationId);
    return usage.pagesUsed < usage.includedPagesPerMonth;
  }

  private async renderOne(request: BatchRenderRequest, slice: DocumentSlice, result: BatchRenderResult): Promise<void> {
    const { target, persist, wantsPdfBytes } = request;
    const index = slice.index;
    if (tooDeep(slice)) {
      result.blockedCount++;
      result.issues.push(nestingTooDeepIssue({ levels: slice.depth }, index));
      return;
    }
    const documentId = persist ? randomUUID() : null;
    const outputBlobKey = syncDocumentPdfBlobKey(target.organisationId, request.requestId, index, documentId);
    const reply = await this.renderService.render(target, { raw: request.raw, slice, outputBlobKey, wantsPdfBytes, requestId: `${request.requestId}:${index}` });
    const { pdf, ...outcome } = documentOutcomeOf(reply);
    const issues = outcome.issues.map((issue) => ({ ...issue, documentIndex: index }));
    if (pdf === null) {
      result.issues.push(...issues);
      if (outcome.outcome === 'blocked') {
        result.blockedCount++;
      } else {
        result.failedCount++;
        result.firstFailure ??= reply.failure;
      }
      return;
    }
    const renderedAt = new Date();
    const facts = { documentId, source: target.source, language: target.language, documentName: reply.documentName, pdf, renderDurationMs: reply.renderDurationMs, renderedAt };
    if (result.creditStopped || !(await this.recorder.record(target, facts))) {
      result.creditStopped = true;
      await this.blobStore.delete(pdf.blobKey);
      return;
    }
    result.issues.push(...issues);
    result.rendered.push(this.renderedDocument(reply, pdf, index, documentId, renderedAt, issues));
  }

  private renderedDocument(
    reply: RenderDocumentResult,
    pdf: RenderedPdf,
    documentIndex: number,
    id: string | null,
    renderedAt: Date,
    issues: RenderIssue[],
  ): RenderedDocument {
    return {
      documentIndex,
      id,
      documentName: reply.documentName,
      pageCount: pdf.pageCount,
      fileSizeBytes: pdf.fileSizeBytes,
      renderDurationMs: reply.renderDurationMs,
      renderedAt,
      pdfBlobKey: pdf.blobKey,
      inlinePdf: pdf.inlineBase64 === undefined ? null : Buffer.from(pdf.inlineBase64, 'base64'),
      transient: id === null,
      issues,
    };
  }
}
