import {
  Environment,
  ErrorCode,
  hasBlockingIssue,
  MessageName,
  RenderDocumentCommand,
  RenderDocumentResult,
  RenderIssue,
  renderIssue,
  RenderIssueType,
} from '@docrender/contracts';
import { counter, histogram, inSpan, withLogFields } from '@docrender/observability';
import { anchorNotPrintedIssue, placedBeyondPageIssue } from '@docrender/template-dsl';
import { BrowserCrashedError } from '../chromium/browser-crashed.error';
import { RenderBudgetEstimateError, RenderTimeoutError } from '../chromium/render-timeout.error';
import { NO_CONFORMANCE, needsArchivalStage } from '../pdf/archival-stage';
import { eInvoiceFileOf } from '../pdf/factur-x-attachment';
import { readPdfPageCount } from '../pdf/pdf-page-count';
import { CompileOutOfMemoryError } from '../compile/document-compiler';
import { compileContextOf, rethrowForRedelivery, type RenderHandlerDeps } from './render-handler.deps';
import { PRINT_RESERVE_MS, StorageOutageError, waitOutStorage } from './storage-wait';
import { throwIfAbandoned, TransientFailureError } from './transient-failure.error';

/** Watermark text of test-environment output (spec 1: test keys give watermarked output). */
export const TEST_WATERMARK = 'TEST';

const renders = counter('docrender_render_documents_total', 'Documents handled by the render service, by outcome.', ['outcome']);
const renderSeconds = histogram(
  'docrender_render_document_seconds',
  'Time from taking a render.document message to replying, by outcome.',
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  ['outcome'],
);

/**
 * Handles `render.document`: data and fonts → checks, images, compile on a compile thread (DocumentCompiler: stopped
 * at the deadline, never on this event loop; a template that does not validate is `blocked` with SchemaInvalid issues
 * naming their elements) → (unless an issue blocks in the command's environment) print → store the PDF at `outputBlobKey` → reply. Issues and failures are replies, not
 * exceptions, and a document that ends without a PDF always carries an Error issue saying why (spec 3.1 rule 2;
 * docs/decisions/0010). A blob store outage is waited out within the document's budget (the data read and the PDF
 * stored once the store is back), or for the command's storageOutageWaitMs when a caller holding a connection set it
 * (decision 0041); past that the reply is `failed` with ExternalServiceError. It throws only when the
 * message should go back to the queue (the service is shutting down, the delivery was abandoned, or the blob store
 * failed in another way), so another instance renders it.
 */
export class RenderDocumentHandler {
  constructor(private readonly deps: RenderHandlerDeps) {}

  /**
   * `abandoned` (the message bus's DeliveryContext.abandoned) aborts when the message has gone back to the queue: the
   * render then stops before printing or storing and throws, so only the next delivery renders the document.
   */
  handle(command: RenderDocumentCommand, abandoned?: AbortSignal): Promise<RenderDocumentResult> {
    return withLogFields({ requestId: command.requestId, organisationId: command.organisationId }, async () => {
      const started = Date.now();
      const result = await inSpan('render document', { attributes: { 'docrender.request_id': command.requestId } }, () => this.render(command, started, abandoned));
      const outcome = result.outcome;
      renders.inc({ outcome });
      renderSeconds.observe({ outcome }, result.renderDurationMs / 1000);
      this.deps.logger.info('document handled', {
        outcome,
        pages: result.pdf?.pageCount ?? null,
        bytes: result.pdf?.fileSizeBytes ?? null,
        durationMs: result.renderDurationMs,
        issues: result.issues.length,
        failure: result.failure?.code ?? null,
      });
      return result;
    });
  }

  private async render(command: RenderDocumentCommand, started: number, abandoned?: AbortSignal): Promise<RenderDocumentResult> {
    const deadline = Math.min(command.deadline, started + this.deps.options.budgetMs);
    const reply = (fields: Omit<RenderDocumentResult, 'renderDurationMs'>): RenderDocumentResult => ({
      ...fields,
      renderDurationMs: Date.now() - started,
    });
    /** Ends the render without a PDF: the issues so far, a RenderTimeout issue saying why, and the failure. */
    const failed = (issues: RenderIssue[], issue: string, failure: { code: ErrorCode; message: string }): RenderDocumentResult =>
      reply({
        outcome: 'failed',
        issues: [...issues, renderIssue(RenderIssueType.RenderTimeout, issue)],
        documentName: command.fallbackDocumentName,
        pdf: null,
        failure,
      });
    const timedOut = (issues: RenderIssue[] = [], error: RenderTimeoutError | null = null): RenderDocumentResult => {
      const budget = `${Math.round(this.deps.options.budgetMs / 1000)} s`;
      // estimated before the real print (issue 32 item 3): the render ends then, and says why
      const message =
        error instanceof RenderBudgetEstimateError
          ? `The document cannot be printed within its render budget of ${budget}: ${error.reason}.`
          : `The document exceeded its render budget of ${budget}.`;
      return failed(issues, message, { code: ErrorCode.RenderTimeout, message });
    };
    if (Date.now() >= deadline) return timedOut();

    let issues: RenderIssue[] = [];
    const storage = <T>(what: string, operation: () => Promise<T>, reserveMs = 0): Promise<T> =>
      waitOutStorage(what, operation, deadline, {
        abandoned,
        reserveMs,
        outageWaitMs: command.storageOutageWaitMs,
        messageName: MessageName.RenderDocument,
        onWait: (error, delayMs) => this.deps.logger.warn('blob store unavailable; waiting it out within the render budget', { what, delayMs, reason: error.message }),
      });
    // announced before its data is read and compiled, so a printer that lets documents share a print can wait for it
    const expected = this.deps.printer.expect();
    try {
      const [data, customFonts] = await Promise.all([
        storage('reading the document data', () => this.deps.sources.readData(command.data), PRINT_RESERVE_MS),
        storage('reading the custom fonts', () => this.deps.sources.readCustomFonts(command.customFonts), PRINT_RESERVE_MS),
      ]);
      const outcome = await this.deps.compiler.compile(
        {
          template: command.template,
          templateDigest: command.templateDigest,
          data,
          environment: command.environment,
          customFonts,
          translations: command.translations,
          language: command.language,
          watermark: command.environment === Environment.Test ? TEST_WATERMARK : null,
          documentNameTemplate: command.documentNameTemplate,
          fallbackDocumentName: command.fallbackDocumentName,
          allowHttpImages: this.deps.options.allowHttpImages,
          // the pool's pages serve the built-in faces, each decoded once per page rather than once per document (0020)
          servedFonts: true,
        },
        compileContextOf(this.deps, command.organisationId, deadline, abandoned),
      );
      if (outcome.kind === 'blocked') {
        issues = outcome.issues;
        return reply({ outcome: 'blocked', issues, documentName: outcome.documentName ?? command.fallbackDocumentName, pdf: null, failure: null });
      }
      const compiled = outcome.document;
      issues = compiled.issues;
      const documentName = compiled.documentName;
      throwIfAbandoned(abandoned, MessageName.RenderDocument);
      const { pdf: printed, placedBeyondPage, anchorsNotPrinted = [] } = await expected.printPdf({
        html: compiled.html,
        headerHtml: compiled.headerHtml,
        footerHtml: compiled.footerHtml,
        pageVariant: compiled.pageVariant,
        pageAwareTables: compiled.pageAwareTables,
        placedToMeasure: compiled.placedToMeasure,
        pageReferences: compiled.pageReferences,
        outline: compiled.outline,
        fixedMarkup: compiled.fixedMarkup,
        title: compiled.title,
        tagged: compiled.tagged,
        javaScript: compiled.needsJavaScript,
        deadline,
        budgetMs: this.deps.options.budgetMs,
      });
      if (placedBeyondPage.length > 0 || anchorsNotPrinted.length > 0) {
        // found only by printing; a Warning blocks a production render as one found by the compiler would
        issues = [...issues, ...placedBeyondPage.map(placedBeyondPageIssue), ...anchorsNotPrinted.map(anchorNotPrintedIssue)];
        if (hasBlockingIssue(issues, command.environment)) return reply({ outcome: 'blocked', issues, documentName, pdf: null, failure: null });
      }
      // the archival stage (PDF/A, metadata, attachments) checks its own output: a failed rule means no PDF (decision 0032)
      let pdf = printed;
      let conformance = NO_CONFORMANCE;
      const eInvoice = eInvoiceFileOf(compiled.eInvoice);
      if (needsArchivalStage(compiled.archival) || eInvoice !== null) {
        const producer = this.deps.options.producer ?? 'docrender render-service';
        const archived = await this.deps.compiler.archive(printed, compiled, producer, { deadline, budgetMs: this.deps.options.budgetMs, abandoned }, eInvoice);
        if (archived.pdf === null) return reply({ outcome: 'blocked', issues: [...issues, ...archived.issues], documentName, pdf: null, failure: null });
        ({ pdf, conformance } = archived);
      }
      const pageCount = await readPdfPageCount(pdf);
      throwIfAbandoned(abandoned, MessageName.RenderDocument);
      await storage('storing the PDF', () => this.deps.blobStore.put(command.outputBlobKey, pdf, 'application/pdf')).catch((error: unknown) => {
        if (error instanceof StorageOutageError || error instanceof TransientFailureError) throw error;
        throw new TransientFailureError(`storing the PDF at ${command.outputBlobKey} failed`, error);
      });
      throwIfAbandoned(abandoned, MessageName.RenderDocument);
      return reply({
        outcome: 'rendered',
        issues,
        documentName,
        pdf: {
          blobKey: command.outputBlobKey,
          pageCount,
          fileSizeBytes: pdf.length,
          conformance,
          // the caller asked for the bytes of a PDF this small: they come back inline as well as stored, raw when it
          // takes them raw (decision 0022)
          ...(pdf.length <= (command.inlinePdfMaxBytes ?? 0) ? (command.inlinePdfBinary === true ? { inlineBytes: pdf } : { inlineBase64: pdf.toString('base64') }) : {}),
        },
        failure: null,
      });
    } catch (error) {
      if (error instanceof RenderTimeoutError) return timedOut(issues, error);
      if (error instanceof StorageOutageError) {
        this.deps.logger.warn('blob store unavailable for as long as the document could wait; it ends without a PDF', { reason: error.message });
        return failed(issues, `Not rendered: ${error.message}.`, { code: ErrorCode.ExternalServiceError, message: error.message });
      }
      if (error instanceof CompileOutOfMemoryError) {
        const message = `Not rendered: ${error.message}.`;
        return failed(issues, message, { code: ErrorCode.RenderTimeout, message });
      }
      rethrowForRedelivery(error, abandoned, MessageName.RenderDocument);
      const errorId = `${command.requestId}:${started}`;
      this.deps.logger.error('render failed', { err: error, errorId });
      const message =
        error instanceof BrowserCrashedError ? 'Chromium crashed twice while printing the document.' : `Internal error while rendering (errorId ${errorId}).`;
      return failed(issues, `Not rendered: ${message}`, { code: ErrorCode.InternalError, message });
    } finally {
      // blocked, failed or abandoned before its print: a printer waiting for it stops waiting
      expected.withdraw();
    }
  }
}
