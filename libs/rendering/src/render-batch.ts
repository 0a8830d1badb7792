import { randomUUID } from 'node:crypto';
import {
  DependencyOutageError,
  DomainError,
  Environment,
  ErrorCode,
  Limits,
  OutcomeUnknownError,
  renderIssue,
  RenderIssueType,
  type DocumentConformance,
  PLAIN_PDF_CONFORMANCE,
  type RenderDocumentResult,
  type RenderIssue,
} from '@docrender/contracts';
import { nestingTooDeepIssue } from '@docrender/template-dsl/checks';
import { syncDocumentPdfBlobKey } from './blob-keys';
import { mapWithConcurrency } from './map-with-concurrency';
import { documentOutcomeOf, inlinePdfOf, type InlinePdf, type RenderedPdf } from './render-command';
import { RenderedDocumentRecorder, type RenderedDocumentStore } from './rendered-document';
import type { RenderTarget } from './render-target';

/** True when a document nests deeper than spec 8 allows (a DangerousContent issue; the document is not parsed or sent). */
export function tooDeep(document: { depth: number }): boolean {
  return document.depth > Limits.maxNestingDepth;
}

/** Whether a run of documents has stopped because the organisation's page credit ran out (spec 3.1 rule 3). */
export type CreditRun = { creditStopped: boolean };

/**
 * The loop the sync batch and the async job share: every document with at most `concurrency` in flight, and once
 * credit stops the run, the documents not yet started are skipped (those in flight finish and discard their PDF).
 * `creditStopped` is the run's state before the first document (a production run at zero credit renders nothing).
 * What each caller does per document differs for real reasons: a job skips documents recorded by an earlier run,
 * stops on shutdown and writes a progress callback per document; a sync batch collects its outcomes for one answer.
 */
export async function renderWhileCreditLasts<T>(
  items: readonly T[],
  options: { concurrency: number; creditStopped: boolean },
  work: (item: T, run: CreditRun) => Promise<void>,
): Promise<CreditRun> {
  const run: CreditRun = { creditStopped: options.creditStopped };
  await mapWithConcurrency(items, options.concurrency, (item) => (run.creditStopped ? Promise.resolve() : work(item, run)));
  return run;
}

/** The organisation's credit as a run looks at it before its first document. */
export type CreditGauge = { getUsage(organisationId: string): Promise<{ pagesUsed: number; includedPagesPerMonth: number }> };

/**
 * Whether the organisation has a page of credit left this period (spec 3.1 rule 3): the one look a sync batch and an
 * async job take before their first document; each rendered document's recording then takes its pages or stops the run.
 */
export async function hasCreditLeft(credit: CreditGauge, organisationId: string): Promise<boolean> {
  const usage = await credit.getUsage(organisationId);
  return usage.pagesUsed < usage.includedPagesPerMonth;
}

/** The blob store as the batch uses it: deleting PDFs that are not kept. */
export type PdfDiscarder = { delete(key: string): Promise<void> };

/** One document of a batch: its place in the request and the nesting depth its body scan measured. */
export type BatchDocument = { index: number; depth: number };

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
  /** The PDF itself, as the render reply carried it, when it came back inline (small enough, and the caller asked for bytes). */
  inlinePdf: InlinePdf | null;
  /** True when the PDF is not kept (persist=false): the caller deletes it once it has been read. */
  transient: boolean;
  /** Its non-blocking issues, with documentIndex. */
  issues: RenderIssue[];
  /** What it asked to conform to and the result of the render service's own checks (decision 0032). */
  conformance: DocumentConformance;
};

/** Where one document's PDF goes and the id that correlates its logs; the caller's renderer adds the document's data. */
export type BatchDocumentOutput = { outputBlobKey: string; requestId: string };

export type BatchRenderRequest<D extends BatchDocument> = {
  target: RenderTarget;
  documents: readonly D[];
  persist: boolean;
  requestId: string;
  /** Asks the render service for one document (the caller knows where the document's data is). */
  render: (document: D, output: BatchDocumentOutput) => Promise<RenderDocumentResult>;
  /**
   * Documents of this request an earlier answer paid for and did not deliver (UndeliveredAnswers): answered as they
   * are, not rendered or charged again.
   */
  paid?: readonly RenderedDocument[];
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
  /**
   * A dependency (the database, the message bus, …) failed after documents had been paid for: the batch stopped, the
   * documents it paid for are answered, and each of the others has an issue saying it was neither rendered nor
   * charged. `cause` is the error, for the caller's log (the answer is 200, so no error handler sees it). Null when
   * nothing interrupted it.
   */
  interruption: { reason: string; cause: unknown } | null;
  /**
   * Documents whose recording was sent when the database went away: answered (they may have been paid for), though
   * their row may not exist. By documentIndex.
   */
  uncertain: number[];
};

export type RenderBatchPorts = {
  store: RenderedDocumentStore;
  credit: CreditGauge;
  pdfs: PdfDiscarder;
  /** Documents of one request in flight at once (RENDER_API_BATCH_CONCURRENCY). */
  concurrency: number;
};

/**
 * The sync batch use case (spec 4.2, 4.3): renders the documents of one request in parallel through the render
 * service, which decides blocking by environment.
 * - a document nesting deeper than 32 levels is a DangerousContent issue and is never sent (spec 8);
 * - each rendered document is paid for and recorded (RenderedDocumentRecorder): in production it takes its pages of
 *   credit atomically, with a persisted document's row in the same statement; when they do not fit, its PDF is
 *   deleted and the batch stops: documents not yet started are not rendered and those in flight are discarded
 *   (spec 3.1 rule 3, an outcome, not an error). Test keys take no credit;
 * - persist=true stores the document (metadata row, PDF at organisations/<org>/documents/<id>.pdf);
 * - a document that ends without a PDF always carries an Error issue with its documentIndex (spec 3.1 rule 2); when no
 *   document rendered because the blob store was down, the request fails with 500 ExternalServiceError (spec 7.2);
 * - an outage never charges for what is not answered (issue 31, decision 0028): when rendering or recording a document
 *   throws (the database or the message bus went away), no further document starts. If nothing was paid for, the
 *   error goes on (500 ExternalServiceError with Retry-After: a retry pays once); otherwise the batch answers what it
 *   paid for, and every other document gets a RenderTimeout issue saying it was neither rendered nor charged. A
 *   document whose recording was sent when the connection went away (OutcomeUnknownError) may have been paid for: it
 *   is answered, never reported missing;
 * - documents an earlier answer of the same request paid for and did not deliver (`paid`, decision 0041) are answered
 *   as they are, without rendering or paying again.
 * The HTTP answer (status, envelope, PDF/zip/JSON) is the gateway's.
 */
export class RenderBatch {
  private readonly recorder: RenderedDocumentRecorder;

  constructor(private readonly ports: RenderBatchPorts) {
    this.recorder = new RenderedDocumentRecorder(ports.store);
  }

  async render<D extends BatchDocument>(request: BatchRenderRequest<D>): Promise<BatchRenderResult> {
    const { target, documents } = request;
    if (request.persist && target.source === null) throw new Error('a stateless render cannot be persisted');
    const result: BatchRenderResult = {
      requestedCount: documents.length,
      rendered: [],
      issues: [],
      blockedCount: 0,
      failedCount: 0,
      firstFailure: null,
      creditStopped: false,
      interruption: null,
      uncertain: [],
    };
    const settled = new Set<number>();
    const paid = new Map((request.paid ?? []).map((d) => [d.documentIndex, d]));
    for (const document of paid.values()) {
      result.rendered.push(document);
      result.issues.push(...document.issues);
      settled.add(document.documentIndex);
    }
    const toRender = documents.filter((d) => !paid.has(d.index));
    let failure: { error: unknown } | null = null;
    try {
      // A production batch first checks that credit is left, so a batch at zero credit renders nothing; a single
      // document is simply checked when it is paid for (saving the queries on the common path).
      const creditStopped = target.environment === Environment.Production && toRender.length > 1 && !(await hasCreditLeft(this.ports.credit, target.organisationId));
      const run = await renderWhileCreditLasts(toRender, { concurrency: this.ports.concurrency, creditStopped }, async (document, run) => {
        if (failure !== null) return;
        try {
          await this.renderOne(request, document, result, run);
          settled.add(document.index);
        } catch (error) {
          failure ??= { error };
        }
      });
      result.creditStopped = run.creditStopped;
    } catch (error) {
      await this.discard(result.rendered.filter((d) => d.transient && !paid.has(d.documentIndex)));
      throw error;
    }
    if (failure !== null) {
      const { error } = failure;
      if (result.rendered.length === 0) {
        // Nothing was paid for: the request fails as a whole and a retry pays once.
        throw error;
      }
      this.answerInterrupted(result, documents, settled, error);
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

  /**
   * The batch stopped on an error after paying for documents: those are answered; every other document that has no
   * outcome gets an issue saying why it is missing and that it was not charged, so the client sends only those again.
   */
  private answerInterrupted<D extends BatchDocument>(result: BatchRenderResult, documents: readonly D[], settled: ReadonlySet<number>, error: unknown): void {
    const reason = interruptionReason(error);
    result.interruption = { reason, cause: error };
    const rendered = new Set(result.rendered.map((d) => d.documentIndex));
    for (const { index } of documents) {
      if (settled.has(index) || rendered.has(index)) continue;
      result.failedCount++;
      result.issues.push(
        renderIssue(RenderIssueType.RenderTimeout, `not rendered: the request was interrupted (${reason}); this document was not charged; send it again`, null, index),
      );
    }
    const outage = error instanceof DependencyOutageError || (error instanceof DomainError && error.code === ErrorCode.ExternalServiceError);
    result.firstFailure ??= { code: outage ? ErrorCode.ExternalServiceError : ErrorCode.InternalError, message: `the request was interrupted (${reason})` };
  }

  /** Deletes the PDFs of transient documents of a request that failed. */
  private async discard(documents: readonly Pick<RenderedDocument, 'pdfBlobKey'>[]): Promise<void> {
    await Promise.all(documents.map((d) => this.ports.pdfs.delete(d.pdfBlobKey)));
  }

  private async renderOne<D extends BatchDocument>(request: BatchRenderRequest<D>, document: D, result: BatchRenderResult, run: CreditRun): Promise<void> {
    const { target, persist } = request;
    const index = document.index;
    if (tooDeep(document)) {
      result.blockedCount++;
      result.issues.push(nestingTooDeepIssue({ levels: document.depth }, index));
      return;
    }
    const documentId = persist ? randomUUID() : null;
    const outputBlobKey = syncDocumentPdfBlobKey(target.organisationId, request.requestId, index, documentId);
    const reply = await request.render(document, { outputBlobKey, requestId: `${request.requestId}:${index}` });
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
    if (run.creditStopped) {
      await this.ports.pdfs.delete(pdf.blobKey);
      return;
    }
    let recorded: boolean;
    try {
      recorded = await this.recorder.record(target, facts);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) {
        // Not recorded, so not paid: its PDF goes (as far as the store lets it) and the batch stops on the error.
        await this.ports.pdfs.delete(pdf.blobKey).catch(() => undefined);
        throw error;
      }
      // It may have been paid for: answer it, so that nothing charged goes unanswered; the batch stops after it.
      result.uncertain.push(index);
      result.issues.push(...issues);
      result.rendered.push(renderedDocument(reply, pdf, index, documentId, renderedAt, issues));
      throw error;
    }
    if (!recorded) {
      run.creditStopped = true;
      await this.ports.pdfs.delete(pdf.blobKey);
      return;
    }
    result.issues.push(...issues);
    result.rendered.push(renderedDocument(reply, pdf, index, documentId, renderedAt, issues));
  }
}

/** The dependencies a client may be told about by name (an address stays in the logs). */
const NAMED_DEPENDENCIES = new Set(['database', 'message bus', 'render service', 'blob storage']);

/**
 * Why a batch stopped, in words a client may read. The ports say what is an outage: the ledger throws
 * DependencyOutageError('database'), the gateway's renderer DomainError(ExternalServiceError).
 */
function interruptionReason(error: unknown): string {
  if (error instanceof DomainError && error.code === ErrorCode.ExternalServiceError) return error.message;
  if (!(error instanceof DependencyOutageError)) return 'an internal error occurred';
  return NAMED_DEPENDENCIES.has(error.dependency) ? `the ${error.dependency} became unreachable` : 'a dependency became unreachable';
}

function renderedDocument(reply: RenderDocumentResult, pdf: RenderedPdf, documentIndex: number, id: string | null, renderedAt: Date, issues: RenderIssue[]): RenderedDocument {
  return {
    documentIndex,
    id,
    documentName: reply.documentName,
    pageCount: pdf.pageCount,
    fileSizeBytes: pdf.fileSizeBytes,
    renderDurationMs: reply.renderDurationMs,
    renderedAt,
    pdfBlobKey: pdf.blobKey,
    inlinePdf: inlinePdfOf(pdf),
    transient: id === null,
    issues,
    conformance: pdf.conformance ?? PLAIN_PDF_CONFORMANCE,
  };
}
