import type { CompiledDocument } from '@docrender/template-dsl';
import { BrowserPool } from '../src/chromium/browser-pool';
import { locateChromium } from '../src/chromium/chromium-executable';
import { printPdfOnPage } from '../src/chromium/page-printer';
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

/** A compiled document printed on the pool the way the render service prints it (before the metadata update). */
export function printCompiled(
  pool: BrowserPool,
  compiled: Pick<CompiledDocument, 'html' | 'tagged' | 'headerHtml' | 'footerHtml'> & Partial<Pick<CompiledDocument, 'pageVariant' | 'pageAwareTables'>>,
  onMeasuringPrints?: (prints: number) => void,
): Promise<Buffer> {
  return pool.run({
    isolation: 'reused-page',
    javaScript: false,
    deadline: Date.now() + 60_000,
    budgetMs: 60_000,
    work: (page) =>
      printPdfOnPage(page, {
        html: compiled.html,
        tagged: compiled.tagged,
        headerHtml: compiled.headerHtml,
        footerHtml: compiled.footerHtml,
        pageVariant: compiled.pageVariant ?? null,
        pageAwareTables: compiled.pageAwareTables ?? false,
        onMeasuringPrints,
      }),
  });
}
