import type { Logger } from '@docrender/observability';
import { WorkerPoolClosedError } from '@docrender/platform';
import type { BlobStore } from '@docrender/storage';
import { BrowserPoolClosedError } from '../chromium/browser-crashed.error';
import type { DocumentPrinter } from '../chromium/document-printer';
import { CompileAbandonedError, type CompileContext, type DocumentCompiler } from '../compile/document-compiler';
import type { DocumentSources } from './document-sources';
import { throwIfAbandoned, TransientFailureError } from './transient-failure.error';

export type RenderHandlerOptions = {
  /** Spec 8 render budget per document (RENDER_BUDGET_MS); the command's own deadline may be earlier. */
  budgetMs: number;
  /** Templates may use http:// images (EGRESS_ALLOW_HTTP). */
  allowHttpImages: boolean;
  /** The PDF /Producer (and /Creator unless the template names one) of archival output; default `docrender render-service`. */
  producer?: string;
};

/** What the render handlers (`render.document`, `render.preview`) are built from. */
export type RenderHandlerDeps = {
  printer: DocumentPrinter;
  blobStore: BlobStore;
  sources: DocumentSources;
  compiler: DocumentCompiler;
  options: RenderHandlerOptions;
  logger: Logger;
};

/** How a render message's compile runs: stopped at `deadline` or when the delivery is abandoned, with the organisation's images. */
export function compileContextOf(deps: RenderHandlerDeps, organisationId: string, deadline: number, abandoned: AbortSignal | undefined): CompileContext {
  return {
    deadline,
    budgetMs: deps.options.budgetMs,
    abandoned,
    resolveImages: (references) => deps.sources.resolveImages(references, organisationId, deadline),
  };
}

/**
 * Throws again the failures that send the message back to the queue rather than ending the render: the delivery was
 * abandoned, the service is shutting down (its browser or compile pool closed), or the blob store failed.
 */
export function rethrowForRedelivery(error: unknown, abandoned: AbortSignal | undefined, messageName: string): void {
  if (error instanceof CompileAbandonedError) throwIfAbandoned(abandoned, messageName);
  if (error instanceof BrowserPoolClosedError || error instanceof WorkerPoolClosedError || error instanceof TransientFailureError) throw error;
}
