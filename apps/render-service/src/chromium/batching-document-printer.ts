import { createHash } from 'node:crypto';
import { histogram, type Logger } from '@docrender/observability';
import { BatchNotSharedError, batchPrintKey, printBatchOnPage } from './batch-page-printer';
import type { BrowserPool } from './browser-pool';
import { isLongPrint, printedHtmlChars } from './printed-size';
import type { ChromiumDocumentPrinter, DocumentPrinter, ExpectedDocument, PrintedPdf, PrintPdfRequest, ScreenshotRequest } from './document-printer';

/** How much batching saves is seen here: the documents of each print the batching printer starts (1 when alone). */
const documentsPerPrint = histogram(
  'docrender_render_documents_per_print',
  'Prints of documents that may share one (batch printing), by the documents each print held: 1 for a document printed alone (it found a free page, or its shared print failed).',
  [1, 2, 3, 4, 6, 10, 20, 50, 100],
);

/** What batching costs in latency is seen here: how long each document waited at the printer before its print began. */
const waitedForPrint = histogram(
  'docrender_render_print_wait_seconds',
  'Time documents that may share a print (batch printing) waited at the printer before their print began: for a page while every page was busy, or on a free page for documents on their way (at most 30 ms, decision 0037). 0 for a document that found a page free.',
  [0.001, 0.005, 0.01, 0.02, 0.035, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

type Waiting = { request: PrintPdfRequest; arrivedAt: number; resolve(printed: PrintedPdf): void; reject(error: unknown): void };

/**
 * A free page waits for expected documents only when at least this many are on their way: holding a page for one
 * more document lost throughput with 4 single requests in flight (bench:e2e, docs/performance.md), as the pages then
 * idle while the few documents in flight travel.
 */
const MIN_EXPECTED_TO_WAIT = 2;

/** How long, at most, a waiting document is kept from a free page for expected ones: about a few compiles. */
export const WAIT_FOR_EXPECTED_MS = 30;

/**
 * Shared prints of one batch key refused in a row (BatchNotSharedError: what the documents hold cannot be printed
 * together, found only in the page) after which its documents print alone for REFUSED_KEY_ALONE_MS: a template whose
 * documents are always refused (a placed element as wide as the content area, a page-aware table below a page break)
 * would otherwise pay a batch load, and its documents a wait, for every print.
 */
export const REFUSALS_BEFORE_ALONE = 3;
export const REFUSED_KEY_ALONE_MS = 60_000;
/** Batch keys whose refusals are remembered, at most (the oldest forgotten first). */
const REMEMBERED_KEYS = 1_000;

/**
 * Batch printing (RENDER_BATCH_PRINT_MAX > 1; docs/decisions/0015-batch-printing.md and 0037): documents that may share a print
 * (batchPrintKey) and arrive while every page of the pool is busy wait here, and the next free page prints up to
 * `maxDocuments` of them with the same key in one load (printBatchOnPage), as many as keep its layout within
 * `maxPrintedChars` (batchSize), each getting its own PDF and metadata.
 * While the pool has a free page a document is printed at once, alone, so batching adds no latency to a quiet
 * service; it forms under load, which is where the saved print time turns into throughput. When several documents
 * are on their way (announced by `expect`, being read and compiled: a batch or a job arriving), a free page waits
 * for its share of them, at most WAIT_FOR_EXPECTED_MS, rather than printing the first one alone. Documents that
 * cannot share a print, and previews, go to the per-document printer. If a shared print fails in any way (a document
 * the batch cannot hold, a crash, a deadline), each of its documents is printed alone, so each gets its own outcome;
 * after REFUSALS_BEFORE_ALONE shared prints of one template refused in a row, its documents print alone at once for
 * REFUSED_KEY_ALONE_MS.
 */
export class BatchingDocumentPrinter implements DocumentPrinter {
  /** Documents waiting for a page, by batch key, oldest key first. */
  private readonly waiting = new Map<string, Waiting[]>();
  private printing = 0;
  /** Documents announced and not yet arrived or withdrawn. */
  private expected = 0;
  private wake: { timer: NodeJS.Timeout; at: number } | null = null;
  /** By digest of the batch key: refused shared prints in a row, and until when its documents print alone (0: they share). */
  private readonly refusals = new Map<string, { inARow: number; aloneUntil: number }>();

  constructor(
    private readonly alone: ChromiumDocumentPrinter,
    private readonly pool: BrowserPool,
    /**
     * maxPrintedChars: the largest layout one print may hand Chromium (RENDER_MAX_PRINTED_HTML_MB), which a batch's
     * document, the shared head once and every document's body, stays within as a document alone does.
     * waitForExpectedMs: WAIT_FOR_EXPECTED_MS unless given (the unit specs).
     */
    private readonly options: { maxDocuments: number; maxPrintedChars: number; logger: Logger; waitForExpectedMs?: number },
  ) {}

  printPdf(request: PrintPdfRequest): Promise<PrintedPdf> {
    const key = batchPrintKey(request);
    if (key === null || this.printsAlone(key)) return this.alone.printPdf(request);
    return new Promise<PrintedPdf>((resolve, reject) => {
      const waiting = { request, arrivedAt: Date.now(), resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) queue.push(waiting);
      else this.waiting.set(key, [waiting]);
      this.dispatch();
    });
  }

  expect(): ExpectedDocument {
    this.expected++;
    let onItsWay = true;
    const arrived = (): void => {
      if (!onItsWay) return;
      onItsWay = false;
      this.expected--;
    };
    return {
      printPdf: (request) => {
        arrived();
        const printed = this.printPdf(request);
        // one fewer expected: a page kept for it may now print what waits (this one went alone if it cannot share)
        this.dispatch();
        return printed;
      },
      withdraw: () => {
        if (!onItsWay) return;
        arrived();
        this.dispatch();
      },
    };
  }

  screenshotFirstPage(request: ScreenshotRequest): Promise<Buffer> {
    return this.alone.screenshotFirstPage(request);
  }

  private dispatch(): void {
    while (this.printing < this.pool.capacity) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [key, queue] = next.value;
      if (this.waitsForExpected(queue)) return;
      const batch = queue.splice(0, batchSize(queue, this.options.maxDocuments, this.options.maxPrintedChars));
      if (queue.length === 0) this.waiting.delete(key);
      const now = Date.now();
      for (const w of batch) waitedForPrint.observe((now - w.arrivedAt) / 1000);
      this.printing++;
      void this.print(key, batch).finally(() => {
        this.printing--;
        this.dispatch();
      });
    }
  }

  /**
   * Whether the next free page waits rather than print `queue` now: while at least MIN_EXPECTED_TO_WAIT documents are
   * on their way, the queue holds less than its share of what is waiting and expected (split over the free pages, at
   * most maxDocuments), and its oldest document has waited less than WAIT_FOR_EXPECTED_MS. It is woken by each
   * arrival or withdrawal, and by a timer at the end of the wait. Expected documents are counted whatever their
   * template: one that cannot join costs the waiting ones at most the wait.
   */
  private waitsForExpected(queue: Waiting[]): boolean {
    if (this.expected < MIN_EXPECTED_TO_WAIT) return false;
    const freePages = this.pool.capacity - this.printing;
    const share = Math.min(this.options.maxDocuments, Math.ceil((queue.length + this.expected) / freePages));
    if (queue.length >= share) return false;
    const wakeAt = queue[0].arrivedAt + (this.options.waitForExpectedMs ?? WAIT_FOR_EXPECTED_MS);
    const now = Date.now();
    if (wakeAt <= now) return false;
    if (this.wake === null || this.wake.at > wakeAt) {
      if (this.wake !== null) clearTimeout(this.wake.timer);
      const timer = setTimeout(() => {
        this.wake = null;
        this.dispatch();
      }, wakeAt - now);
      timer.unref();
      this.wake = { timer, at: wakeAt };
    }
    return true;
  }

  /** Whether documents of `key` print alone for now: their recent shared prints were refused (REFUSALS_BEFORE_ALONE). */
  private printsAlone(key: string): boolean {
    if (this.refusals.size === 0) return false;
    const digest = keyDigest(key);
    const refused = this.refusals.get(digest);
    if (refused === undefined || refused.aloneUntil === 0) return false;
    if (Date.now() < refused.aloneUntil) return true;
    // the time is up: they try sharing again, from no refusal
    this.refusals.delete(digest);
    return false;
  }

  /** Counts a shared print of `key` that was refused (`reason`), or, `reason` null, one that printed. */
  private remember(key: string, reason: string | null): void {
    if (this.refusals.size === 0 && reason === null) return;
    const digest = keyDigest(key);
    if (reason === null) {
      this.refusals.delete(digest);
      return;
    }
    const refused = this.refusals.get(digest) ?? { inARow: 0, aloneUntil: 0 };
    this.refusals.delete(digest);
    refused.inARow++;
    if (refused.inARow >= REFUSALS_BEFORE_ALONE) {
      refused.aloneUntil = Date.now() + REFUSED_KEY_ALONE_MS;
      this.options.logger.warn('documents of one template are printed alone for a while: their shared prints were refused several times in a row', {
        refusedInARow: refused.inARow,
        aloneForMs: REFUSED_KEY_ALONE_MS,
        reason,
      });
    }
    this.refusals.set(digest, refused);
    if (this.refusals.size > REMEMBERED_KEYS) this.refusals.delete(this.refusals.keys().next().value as string);
  }

  private async print(key: string, batch: Waiting[]): Promise<void> {
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
        this.remember(key, null);
        batch.forEach((w, i) => w.resolve({ pdf: this.alone.withMetadata(pdfs[i], w.request.title), placedBeyondPage: [] }));
        return;
      } catch (error) {
        if (error instanceof BatchNotSharedError) this.remember(key, error.message);
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

/**
 * How many of the documents waiting in `queue` (one batch key) the next print takes, in order: at most
 * `maxDocuments`, and only as many as keep the batch's layout — the head once (the documents share it) and every
 * document's body and bands — within `maxPrintedChars`, the largest layout a document alone may print: Chromium's
 * memory while it prints grows with the layout, and the service is sized for one such print. At least one.
 */
function batchSize(queue: Waiting[], maxDocuments: number, maxPrintedChars: number): number {
  let chars = 0;
  let count = 0;
  for (const { request } of queue.slice(0, maxDocuments)) {
    const head = request.html.indexOf('</head>');
    const added = count === 0 ? printedHtmlChars(request) : printedHtmlChars(request) - Math.max(head, 0);
    if (count > 0 && chars + added > maxPrintedChars) break;
    chars += added;
    count++;
  }
  return count;
}

/** A short name for a batch key (a document's whole head), for remembering refusals without keeping heads. */
function keyDigest(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}
