import path from 'node:path';
import { DocumentCaps, type RenderIssue } from '@docrender/contracts';
import type { Logger } from '@docrender/observability';
import { WorkerOutOfMemoryError, WorkerPool, WorkerTaskAbortedError } from '@docrender/platform';
import type { CompiledDocument, ImageResolution, PageVariant } from '@docrender/template-dsl';
import type { PageVariantOf } from '../chromium/page-printer';
import { RenderTimeoutError } from '../chromium/render-timeout.error';
import type { ArchivalStageOutcome } from '../pdf/archival-stage';
import type { EInvoiceFile } from '../pdf/factur-x-attachment';
import type { CompiledOnThread, CompileReply, CompileRequest, ThreadRequest } from './compile-task';

/** What DocumentCompiler needs of its thread pool (WorkerPool). */
export type CompileThreads = Pick<WorkerPool<ThreadRequest, CompileReply>, 'run' | 'close'>;

export type CompileThreadOptions = {
  /** Compile threads (RENDER_COMPILE_THREADS). */
  threads: number;
  /** V8 heap limit of each thread in MB (RENDER_COMPILE_HEAP_MB). */
  heapMb: number;
  /** Characters of HTML past which a document is not printed (RENDER_MAX_PRINTED_HTML_MB). */
  maxPrintedChars: number;
};

/** What compiling a document came to: blocked by its issues, or compiled (page variants asked of a thread). */
export type CompileOutcome =
  | { kind: 'blocked'; issues: RenderIssue[]; documentName: string | null }
  | { kind: 'compiled'; document: CompiledOnThread & { pageVariant: PageVariantOf | null } };

/** The document needed more memory to compile than a compile thread may take (RENDER_COMPILE_HEAP_MB). */
export class CompileOutOfMemoryError extends Error {
  constructor(readonly heapMb: number) {
    super(`compiling the document needed more than the ${heapMb} MB a compile thread may use (RENDER_COMPILE_HEAP_MB)`);
    this.name = 'CompileOutOfMemoryError';
  }
}

/** The compile was stopped because the document's message went back to the queue (DeliveryContext.abandoned). */
export class CompileAbandonedError extends Error {
  constructor() {
    super('the compile was stopped: the message went back to the queue');
    this.name = 'CompileAbandonedError';
  }
}

export type CompileContext = {
  /** Epoch ms: a compile still running then is stopped (its thread terminated) and ends in RenderTimeoutError. */
  deadline: number;
  budgetMs: number;
  /** Aborts when the message went back to the queue: the compile is stopped and ends in CompileAbandonedError. */
  abandoned?: AbortSignal;
  /** Fetches the images the document references (on this thread: it is I/O). */
  resolveImages: (references: string[]) => Promise<Map<string, ImageResolution>>;
};

/**
 * Compiles documents on a pool of worker threads (compile.worker.ts, CompileTask), so no document holds the event
 * loop: this thread only sends requests and routes replies (docs/decisions/0023-compile-worker-threads.md). The pool is
 * started with the service (warm: no document waits for a thread to start). A compile still running at the
 * document's deadline is stopped by terminating its thread, which the pool replaces; a thread that reaches its heap
 * limit ends its document with CompileOutOfMemoryError and is replaced too.
 *
 * A document whose template references images takes two requests: the first checks the data and lists the
 * references, this thread fetches them, the second compiles with them (parsing the data again, not checking it).
 * When its pages differ, the printer asks for the page variants once it knows the page count: one more request,
 * which compiles the document again and answers the variants of every page.
 */
export class DocumentCompiler {
  constructor(
    /** The compile threads (a WorkerPool running compile.worker.ts); unit tests run CompileTask in place. */
    private readonly threads: CompileThreads,
    private readonly heapMb: number,
    private readonly logger: Logger,
    /** Characters of HTML past which a document is not printed (RENDER_MAX_PRINTED_HTML_MB; the contract's cap unless set lower). */
    private readonly maxPrintedChars: number = DocumentCaps.maxPrintedHtmlChars,
  ) {}

  /** A compiler on a started (warm) pool of compile threads. */
  static onThreads(options: CompileThreadOptions, logger: Logger): DocumentCompiler {
    const pool = new WorkerPool<ThreadRequest, CompileReply>({
      entry: path.join(__dirname, 'compile.worker'),
      name: 'render-compile',
      size: options.threads,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
    pool.start();
    return new DocumentCompiler(pool, options.heapMb, logger, options.maxPrintedChars);
  }

  async compile(asked: Omit<CompileRequest, 'images' | 'dataChecked' | 'variantsFor' | 'maxPrintedChars'>, context: CompileContext): Promise<CompileOutcome> {
    const timeLeft = context.deadline - Date.now();
    if (timeLeft <= 0) throw new RenderTimeoutError(context.budgetMs);
    const signal = AbortSignal.any([AbortSignal.timeout(timeLeft), ...(context.abandoned ? [context.abandoned] : [])]);
    const run = (r: CompileRequest): Promise<CompileReply> => this.run(r, signal, context);
    const request = { ...asked, maxPrintedChars: this.maxPrintedChars };

    let images: [string, ImageResolution][] = [];
    let first = await run({ ...request, images: null, dataChecked: false });
    if (first.kind === 'images') {
      images = [...(await context.resolveImages(first.references))];
      first = await run({ ...request, images, dataChecked: true });
    }
    switch (first.kind) {
      case 'blocked':
        return first;
      case 'compiled': {
        for (const warning of first.warnings) this.logger.warn(warning);
        const compiled = first.document;
        return { kind: 'compiled', document: { ...compiled, pageVariant: compiled.pagesDiffer ? this.variantsOf({ ...request, images, dataChecked: true }, signal, context) : null } };
      }
      case 'images':
      case 'variants':
      case 'archived':
        throw new Error(`a compile thread answered ${first.kind} to a compile`);
    }
  }

  /**
   * The archival stage (archiveDocument: PDF/A, metadata, attachments, the service's own checks) of a printed PDF, on
   * a compile thread: pdf-lib parses and writes the whole file, which is no work for the event loop. Stopped at the
   * document's deadline like a compile. `eInvoice`: the document's e-invoice XML, embedded by archiveDocument.
   */
  async archive(
    printed: Buffer,
    document: Pick<CompiledDocument, 'archival' | 'title'>,
    producer: string,
    context: Omit<CompileContext, 'resolveImages'>,
    eInvoice: EInvoiceFile | null = null,
  ): Promise<ArchivalStageOutcome> {
    const timeLeft = context.deadline - Date.now();
    if (timeLeft <= 0) throw new RenderTimeoutError(context.budgetMs);
    const signal = AbortSignal.any([AbortSignal.timeout(timeLeft), ...(context.abandoned ? [context.abandoned] : [])]);
    const request: ThreadRequest = { kind: 'archive', printed, document: { archival: document.archival, title: document.title }, producer, created: Date.now(), eInvoice };
    const reply = await this.run(request, signal, context);
    if (reply.kind !== 'archived') throw new Error(`a compile thread answered ${reply.kind} to an archival stage`);
    const { outcome } = reply;
    // a Buffer crosses threads as a Uint8Array
    return outcome.pdf === null ? outcome : { ...outcome, pdf: Buffer.from(outcome.pdf.buffer, outcome.pdf.byteOffset, outcome.pdf.byteLength) };
  }

  close(): Promise<void> {
    return this.threads.close();
  }

  /** Page N of M's variant, asked of a compile thread once per page count (all M pages in one request). */
  private variantsOf(request: CompileRequest, signal: AbortSignal, context: CompileContext): PageVariantOf {
    const byPageCount = new Map<number, Promise<PageVariant[]>>();
    return async (pageNumber, totalPages) => {
      let variants = byPageCount.get(totalPages);
      if (variants === undefined) {
        variants = this.run({ ...request, variantsFor: totalPages }, signal, context).then((reply) => {
          if (reply.kind !== 'variants') throw new Error(`a compile thread answered ${reply.kind} to a request for page variants`);
          return reply.variants;
        });
        byPageCount.set(totalPages, variants);
      }
      return (await variants)[pageNumber - 1];
    };
  }

  private async run(request: ThreadRequest, signal: AbortSignal, context: Pick<CompileContext, 'budgetMs' | 'abandoned'>): Promise<CompileReply> {
    try {
      return await this.threads.run(request, { signal });
    } catch (error) {
      if (error instanceof WorkerTaskAbortedError) throw context.abandoned?.aborted === true ? new CompileAbandonedError() : new RenderTimeoutError(context.budgetMs);
      if (error instanceof WorkerOutOfMemoryError) throw new CompileOutOfMemoryError(this.heapMb);
      throw error;
    }
  }
}
