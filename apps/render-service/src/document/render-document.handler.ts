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
import { counter, histogram, inSpan, Logger, withLogFields } from '@docrender/observability';
import type { BlobStore } from '@docrender/storage';
import { BandFaceSubsets, compileDocument, imageReferencesOf, inspectData, InvalidTemplateError, placedBeyondPageIssue, Template } from '@docrender/template-dsl';
import { BrowserCrashedError, BrowserPoolClosedError } from '../chromium/browser-crashed.error';
import type { DocumentPrinter } from '../chromium/document-printer';
import { RenderTimeoutError } from '../chromium/render-timeout.error';
import { readPdfPageCount } from '../pdf/pdf-page-count';
import { DocumentSources } from './document-sources';
import { TemplateCache } from './template-cache';
import { StorageOutageError, waitOutStorage } from './storage-wait';
import { throwIfAbandoned, TransientFailureError } from './transient-failure.error';

export type RenderHandlerOptions = {
  /** Spec 8 render budget per document (RENDER_BUDGET_MS); the command's own deadline may be earlier. */
  budgetMs: number;
  /** Templates may use http:// images (EGRESS_ALLOW_HTTP). */
  allowHttpImages: boolean;
};

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
 * Handles `render.document`: data → checks → images and fonts → compile → (unless an issue blocks in the
 * command's environment) print → store the PDF at `outputBlobKey` → reply. Issues and failures are replies, not
 * exceptions, and a document that ends without a PDF always carries an Error issue saying why (spec 3.1 rule 2;
 * docs/decisions/0010). A blob store outage is waited out within the document's budget (the data read and the PDF
 * stored once the store is back); past it the reply is `failed` with ExternalServiceError. It throws only when the
 * message should go back to the queue (the service is shutting down, the delivery was abandoned, or the blob store
 * failed in another way), so another instance renders it.
 */
export class RenderDocumentHandler {
  /** The bands' faces subset to the characters they print, kept across documents (decision 0020). */
  private readonly bandFaceSubsets = new BandFaceSubsets((file, error) =>
    this.logger.warn('a band face could not be subset; bands printing those characters keep the whole face', { file, reason: error instanceof Error ? error.message : String(error) }),
  );

  constructor(
    private readonly printer: DocumentPrinter,
    private readonly blobStore: BlobStore,
    private readonly sources: DocumentSources,
    private readonly templates: TemplateCache,
    private readonly options: RenderHandlerOptions,
    private readonly logger: Logger,
  ) {}

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
      this.logger.info('document handled', {
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
    const deadline = Math.min(command.deadline, started + this.options.budgetMs);
    const reply = (fields: Omit<RenderDocumentResult, 'renderDurationMs'>): RenderDocumentResult => ({
      ...fields,
      renderDurationMs: Date.now() - started,
    });
    const timedOut = (issues: RenderIssue[] = []): RenderDocumentResult => {
      const message = `The document exceeded its render budget of ${Math.round(this.options.budgetMs / 1000)} s.`;
      return reply({
        outcome: 'failed',
        issues: [...issues, renderIssue(RenderIssueType.RenderTimeout, message)],
        documentName: command.fallbackDocumentName,
        pdf: null,
        failure: { code: ErrorCode.RenderTimeout, message },
      });
    };
    if (Date.now() >= deadline) return timedOut();

    let issues: RenderIssue[] = [];
    const storage = <T>(what: string, operation: () => Promise<T>): Promise<T> =>
      waitOutStorage(what, operation, deadline, {
        abandoned,
        messageName: MessageName.RenderDocument,
        onWait: (error, delayMs) => this.logger.warn('blob store unavailable; waiting it out within the render budget', { what, delayMs, reason: error.message }),
      });
    try {
      const raw = await storage('reading the document data', () => this.sources.readData(command.data));
      // the check parses JSON text once and hands back the value it walked
      const inspection = inspectData(raw);
      issues = inspection.issues;
      if (hasBlockingIssue(issues, command.environment)) {
        return reply({ outcome: 'blocked', issues, documentName: command.fallbackDocumentName, pdf: null, failure: null });
      }
      const data = inspection.value;
      const template = this.templates.canonical(command.template, command.templateDigest) as Template;
      const allowHttpImages = this.options.allowHttpImages;
      const [images, customFonts] = await Promise.all([
        this.sources.resolveImages(imageReferencesOf(template, data, { allowHttpImages }), command.organisationId, deadline),
        this.sources.readCustomFonts(command.customFonts),
      ]);
      const compiled = compileDocument({
        template,
        data,
        translations: command.translations,
        language: command.language,
        watermark: command.environment === Environment.Test ? TEST_WATERMARK : null,
        images,
        customFonts,
        documentNameTemplate: command.documentNameTemplate,
        fallbackDocumentName: command.fallbackDocumentName,
        allowHttpImages,
        // the pool's pages serve the built-in faces, each decoded once per page rather than once per document (0020)
        builtinFonts: 'served',
        bandFaceSubsets: this.bandFaceSubsets,
      });
      issues = compiled.issues;
      const documentName = compiled.documentName;
      if (hasBlockingIssue(issues, command.environment)) {
        return reply({ outcome: 'blocked', issues, documentName, pdf: null, failure: null });
      }
      throwIfAbandoned(abandoned, MessageName.RenderDocument);
      const { pdf, placedBeyondPage } = await this.printer.printPdf({
        html: compiled.html,
        headerHtml: compiled.headerHtml,
        footerHtml: compiled.footerHtml,
        pageVariant: compiled.pageVariant,
        pageAwareTables: compiled.pageAwareTables,
        placedToMeasure: compiled.placedToMeasure,
        title: compiled.title,
        tagged: compiled.tagged,
        javaScript: compiled.needsJavaScript,
        deadline,
        budgetMs: this.options.budgetMs,
      });
      if (placedBeyondPage.length > 0) {
        // found only by printing; a Warning blocks a production render as one found by the compiler would
        issues = [...issues, ...placedBeyondPage.map(placedBeyondPageIssue)];
        if (hasBlockingIssue(issues, command.environment)) return reply({ outcome: 'blocked', issues, documentName, pdf: null, failure: null });
      }
      const pageCount = await readPdfPageCount(pdf);
      throwIfAbandoned(abandoned, MessageName.RenderDocument);
      await storage('storing the PDF', () => this.blobStore.put(command.outputBlobKey, pdf, 'application/pdf')).catch((error: unknown) => {
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
          // the caller asked for the bytes of a PDF this small: they come back inline as well as stored, raw when it
          // takes them raw (decision 0022)
          ...(pdf.length <= (command.inlinePdfMaxBytes ?? 0) ? (command.inlinePdfBinary === true ? { inlineBytes: pdf } : { inlineBase64: pdf.toString('base64') }) : {}),
        },
        failure: null,
      });
    } catch (error) {
      if (error instanceof RenderTimeoutError) return timedOut(issues);
      if (error instanceof StorageOutageError) {
        this.logger.warn('blob store unavailable for the whole render budget; the document ends without a PDF', { reason: error.message });
        return reply({
          outcome: 'failed',
          issues: [...issues, renderIssue(RenderIssueType.RenderTimeout, `Not rendered: ${error.message}.`)],
          documentName: command.fallbackDocumentName,
          pdf: null,
          failure: { code: ErrorCode.ExternalServiceError, message: error.message },
        });
      }
      if (error instanceof InvalidTemplateError) {
        return reply({
          outcome: 'failed',
          issues,
          documentName: command.fallbackDocumentName,
          pdf: null,
          failure: { code: ErrorCode.BindingError, message: error.message },
        });
      }
      if (error instanceof BrowserPoolClosedError || error instanceof TransientFailureError) throw error;
      const errorId = `${command.requestId}:${started}`;
      this.logger.error('render failed', { err: error, errorId });
      const message =
        error instanceof BrowserCrashedError ? 'Chromium crashed twice while printing the document.' : `Internal error while rendering (errorId ${errorId}).`;
      return reply({
        outcome: 'failed',
        issues: [...issues, renderIssue(RenderIssueType.RenderTimeout, `Not rendered: ${message}`)],
        documentName: command.fallbackDocumentName,
        pdf: null,
        failure: { code: ErrorCode.InternalError, message },
      });
    }
  }
}
