import type { CompiledDocument } from '@docrender/template-dsl';
import { BrowserPool } from '../src/chromium/browser-pool';
import { locateChromium } from '../src/chromium/chromium-executable';
import { printPdfOnPage, screenshotFirstPageOnPage, type PdfPrintOptions } from '../src/chromium/page-printer';
import { quietLogger } from './render-service.harness';

/** A fresh pool of one browser with one reused page, as the integration tests of printing use it. */
export async function startPrintPool(creator: string): Promise<BrowserPool> {
  return BrowserPool.start({
    executablePath: await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH),
    browsers: 1,
    pagesPerBrowser: 1,
    maxRendersPerBrowser: 1000,
    freshDocumentEvery: 50,
    checkIntervalMs: 1000,
    answerTimeoutMs: 5000,
    creator,
    logger: quietLogger,
  });
}

/** Starts a print pool before the tests of the describe block this is called in, hands it to `use`, closes it after. */
export function printPoolForTests(creator: string, use: (pool: BrowserPool) => void): void {
  let pool: BrowserPool | undefined;
  beforeAll(async () => {
    pool = await startPrintPool(creator);
    use(pool);
  });
  afterAll(async () => {
    await pool?.close();
  });
}

/** What a test may add to a print: a longer budget, the printer's reports, the estimate's own budget. */
export type PrintCompiledOptions = Pick<PdfPrintOptions, 'onMeasuringPrints' | 'onAnchorsNotPrinted' | 'budget'> & {
  /** The pool's budget and deadline for the print; default 60 s. */
  budgetMs?: number;
};

/** A compiled document printed on the pool the way the render service prints it (before the metadata update). */
export function printCompiled(
  pool: BrowserPool,
  compiled: Pick<CompiledDocument, 'html' | 'tagged' | 'headerHtml' | 'footerHtml'> &
    Partial<Pick<CompiledDocument, 'pageVariant' | 'pageAwareTables' | 'pageReferences' | 'outline'>>,
  options: PrintCompiledOptions = {},
): Promise<Buffer> {
  const budgetMs = options.budgetMs ?? 60_000;
  return pool.run({
    isolation: 'reused-page',
    javaScript: false,
    deadline: Date.now() + budgetMs,
    budgetMs,
    work: (page) =>
      printPdfOnPage(page, {
        html: compiled.html,
        tagged: compiled.tagged,
        headerHtml: compiled.headerHtml,
        footerHtml: compiled.footerHtml,
        pageVariant: compiled.pageVariant ?? null,
        pageAwareTables: compiled.pageAwareTables ?? false,
        pageReferences: compiled.pageReferences,
        outline: compiled.outline,
        onMeasuringPrints: options.onMeasuringPrints,
        onAnchorsNotPrinted: options.onAnchorsNotPrinted,
        budget: options.budget,
      }),
  });
}

/** The preview of a compiled document's first page, `widthPx` × `heightPx` CSS pixels, taken on the pool as the render service takes it. */
export function screenshotCompiled(pool: BrowserPool, compiled: CompiledDocument, widthPx: number, heightPx: number): Promise<Buffer> {
  return pool.run({
    isolation: 'fresh-context',
    javaScript: false,
    deadline: Date.now() + 60_000,
    budgetMs: 60_000,
    work: (page) =>
      screenshotFirstPageOnPage(page, {
        html: compiled.html,
        widthPx,
        heightPx,
        marginMm: compiled.page.marginMm,
        headerHtml: compiled.headerHtml,
        footerHtml: compiled.footerHtml,
        pageVariant: compiled.pageVariant,
        pageAwareTables: compiled.pageAwareTables,
      }),
  });
}
