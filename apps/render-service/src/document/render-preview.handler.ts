import {
  Environment,
  ErrorCode,
  MessageName,
  RenderIssue,
  renderIssue,
  RenderIssueType,
  RenderPreviewCommand,
  RenderPreviewResult,
} from '@docrender/contracts';
import { withLogFields } from '@docrender/observability';
import { BlobStoreUnavailableError } from '@docrender/storage';
import { RenderTimeoutError } from '../chromium/render-timeout.error';
import { CompileOutOfMemoryError } from '../compile/document-compiler';
import { compileContextOf, rethrowForRedelivery, type RenderHandlerDeps } from './render-handler.deps';
import { throwIfAbandoned, TransientFailureError } from './transient-failure.error';

const CSS_PX_PER_MM = 96 / 25.4;

/** The version's sample data (spec 2.3) is an object with the document data under `data`. */
function sampleDocumentData(sampleData: unknown): unknown {
  return typeof sampleData === 'object' && sampleData !== null && 'data' in sampleData ? (sampleData as { data: unknown }).data : {};
}

/**
 * Handles `render.preview` (spec 4.12): a PNG of the first page of a version rendered with its sample data, header
 * and footer bands included, stored at `outputBlobKey`. Gated like a test render (only Error issues block), never watermarked.
 * Like a document, a preview whose message went back to the queue (`abandoned`) stops before its screenshot or its
 * store and throws, so only the next delivery renders it.
 */
export class RenderPreviewHandler {
  constructor(private readonly deps: RenderHandlerDeps) {}

  handle(command: RenderPreviewCommand, abandoned?: AbortSignal): Promise<RenderPreviewResult> {
    return withLogFields({ requestId: command.requestId, organisationId: command.organisationId }, async () => {
      const result = await this.render(command, abandoned);
      this.deps.logger.info('preview handled', { outcome: result.outcome, bytes: result.png?.fileSizeBytes ?? null, issues: result.issues.length });
      return result;
    });
  }

  private async render(command: RenderPreviewCommand, abandoned?: AbortSignal): Promise<RenderPreviewResult> {
    const deadline = Math.min(command.deadline, Date.now() + this.deps.options.budgetMs);
    let issues: RenderIssue[] = [];
    /** Ends the preview without a picture: the issues so far and a RenderTimeout issue saying why. */
    const failed = (message: string): RenderPreviewResult => ({
      outcome: 'failed',
      issues: [...issues, renderIssue(RenderIssueType.RenderTimeout, message)],
      png: null,
      failure: { code: ErrorCode.RenderTimeout, message },
    });
    try {
      const outcome = await this.deps.compiler.compile(
        {
          template: command.template,
          data: { value: sampleDocumentData(command.sampleData) },
          environment: Environment.Test,
          // a blob store outage fails the preview as storing it would, rather than printing it without the family
          customFonts: await this.deps.sources.readCustomFonts(command.customFonts).catch((error: unknown) => {
            throw error instanceof BlobStoreUnavailableError ? new TransientFailureError('reading the custom fonts failed', error) : error;
          }),
          translations: command.translations,
          watermark: null,
          allowHttpImages: this.deps.options.allowHttpImages,
          servedFonts: false,
        },
        compileContextOf(this.deps, command.organisationId, deadline, abandoned),
      );
      if (outcome.kind === 'blocked') return { outcome: 'blocked', issues: outcome.issues, png: null, failure: null };
      const compiled = outcome.document;
      issues = compiled.issues;
      throwIfAbandoned(abandoned, MessageName.RenderPreview);
      const png = await this.deps.printer.screenshotFirstPage({
        html: compiled.html,
        javaScript: compiled.needsJavaScript,
        widthPx: Math.round(compiled.page.widthMm * CSS_PX_PER_MM),
        heightPx: Math.round(compiled.page.heightMm * CSS_PX_PER_MM),
        marginMm: compiled.page.marginMm,
        headerHtml: compiled.headerHtml,
        footerHtml: compiled.footerHtml,
        pageVariant: compiled.pageVariant,
        pageAwareTables: compiled.pageAwareTables,
        pageReferences: compiled.pageReferences,
        deadline,
        budgetMs: this.deps.options.budgetMs,
      });
      throwIfAbandoned(abandoned, MessageName.RenderPreview);
      await this.deps.blobStore.put(command.outputBlobKey, png, 'image/png').catch((error: unknown) => {
        throw new TransientFailureError(`storing the preview at ${command.outputBlobKey} failed`, error);
      });
      return { outcome: 'rendered', issues, png: { blobKey: command.outputBlobKey, fileSizeBytes: png.length }, failure: null };
    } catch (error) {
      if (error instanceof RenderTimeoutError) return failed(`The preview exceeded its render budget of ${Math.round(this.deps.options.budgetMs / 1000)} s.`);
      if (error instanceof CompileOutOfMemoryError) return failed(`Not rendered: ${error.message}.`);
      rethrowForRedelivery(error, abandoned, MessageName.RenderPreview);
      this.deps.logger.error('preview failed', { err: error });
      return { outcome: 'failed', issues, png: null, failure: { code: ErrorCode.InternalError, message: 'Internal error while rendering the preview.' } };
    }
  }
}
