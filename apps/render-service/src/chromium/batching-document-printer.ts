import { histogram, type Logger } from '@docrender/observability';
import { batchPrintKey, printBatchOnPage } from './batch-page-printer';
import type { BrowserPool } from './browser-pool';
import { isLongPrint } from './printed-size';
import type { ChromiumDocumentPrinter, DocumentPrinter, PrintedPdf, PrintPdfRequest, ScreenshotRequest } from './document-printer';

/** How much batching saves is seen here: the documents of each print the batching printer starts (1 when alone). */
const documentsPerPrint = histogram(
  'docrender_render_documents_per_print',
  'Prints of documents that may share one (batch printing), by the documents each print held: 1 for a document printed alone (it found a free page, or its shared print failed).',
  [1, 2, 3, 4, 6, 10, 20, 50, 100],
);

type Waiting = { request: PrintPdfRequest; resolve(printed: PrintedPdf): void; reject(error: unknown): void };

/**
 * Batch printing (RENDER_BATCH_PRINT_MAX > 1; docs/decisions/0015-batch-printing.md): documents that may share a print
 * (batchPrintKey) and arrive while every page of the pool is busy wait here, and the next free page prints up to
 * `maxDocuments` of them with the same key in one load (printBatchOnPage), each getting its own PDF and metadata.
 * While the pool has a free page a document is printed at once, alone, so batching adds no latency to a quiet
 * service; it forms under load, which is where the saved print time turns into throughput. Documents that cannot
 * share a print, and previews, go to the per-document printer. If a shared print fails in any way (a document the
 * batch cannot hold, a crash, a deadline), each of its documents is printed alone, so each gets its own outcome.
 */
export class BatchingDocumentPrinter implements DocumentPrinter {
  /** Documents waiting for a page, by batch key, oldest key first. */
  private readonly waiting = new Map<string, Waiting[]>();
  private printing = 0;

  constructor(
    private readonly alone: ChromiumDocumentPrinter,
    private readonly pool: BrowserPool,
    private readonly options: { maxDocuments: number; logger: Logger },
  ) {}

  printPdf(request: PrintPdfRequest): Promise<PrintedPdf> {
    const key = batchPrintKey(request);
    if (key === null) return this.alone.printPdf(request);
    return new Promise<PrintedPdf>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ request, resolve, reject });
      else this.waiting.set(key, [{ request, resolve, reject }]);
      this.dispatch();
    });
  }

  screenshotFirstPage(request: ScreenshotRequest): Promise<Buffer> {
    return this.alone.screenshotFirstPage(request);
  }

  private dispatch(): void {
    while (this.printing < this.pool.capacity) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [key, queue] = next.value;
      const batch = queue.splice(0, this.options.maxDocuments);
      if (queue.length === 0) this.waiting.delete(key);
      this.printing++;
      void this.print(batch).finally(() => {
        this.printing--;
        this.dispatch();
      });
    }
  }

  private async print(batch: Waiting[]): Promise<void> {
    if (batch.length > 1) {
      const requests = batch.map((w) => w.request);
      try {
        const pdfs = await this.pool.run({
          isolation: 'reused-page',
          javaScript: false,
          deadline: Math.min(...requests.map((r) => r.deadline)),
          budgetMs: Math.max(...requests.map((r) => r.budgetMs)),
          longPrint: isLongPrint(requests),
          work: (page) => printBatchOnPage(page, requests),
        });
        documentsPerPrint.observe(batch.length);
        batch.forEach((w, i) => w.resolve({ pdf: this.alone.withMetadata(pdfs[i], w.request.title), placedBeyondPage: [] }));
        return;
      } catch (error) {
        this.options.logger.warn('a batch print failed; its documents are printed one by one', { documents: batch.length, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    await Promise.all(
      batch.map((w) => {
        documentsPerPrint.observe(1);
        return this.alone.printPdf(w.request).then(w.resolve, w.reject);
      }),
    );
  }
}
