import { availableParallelism } from 'node:os';
import { DocumentCaps } from '@docrender/contracts';
import { setting } from './setting';

/**
 * Pool shape measured on 2 cores (docs/performance.md): one browser with 2 concurrent reused pages prints more PDFs
 * per second than 2 browsers with one page each, and a third page adds little. So: one browser per 4 cores, and
 * as many pages per browser as it takes to give every core one render (at least 2).
 */
export function defaultRenderBrowsers(cores: number = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 4));
}

export function defaultRenderPagesPerBrowser(cores: number = availableParallelism()): number {
  return Math.max(2, Math.ceil(cores / defaultRenderBrowsers(cores)));
}

/** Settings of apps/render-service (Chromium pool, render budget, image and font fetching, its probe port). */
export const renderSettings = {
  browsers: {
    ...setting.int('RENDER_BROWSERS', 'Chromium browser processes in the pool.', defaultRenderBrowsers(), { min: 1, max: 64 }),
    defaultText: 'one per 4 CPU cores, at least 1',
  },
  pagesPerBrowser: {
    ...setting.int(
      'RENDER_PAGES_PER_BROWSER',
      'Reused pages (concurrent renders) per browser. The pool renders browsers × pages documents at once; the instance takes half as many again from the queue so no page waits for the next document.',
      defaultRenderPagesPerBrowser(),
      { min: 1, max: 32 },
    ),
    defaultText: 'CPU cores ÷ browsers, at least 2',
  },
  maxRendersPerBrowser: setting.int(
    'RENDER_MAX_RENDERS_PER_BROWSER',
    'A browser is replaced after this many renders (it renders on until its replacement is ready, so capacity does not drop); bounds the memory a long-lived browser accumulates.',
    500,
    { min: 1, max: 10_000_000 },
  ),
  freshDocumentEvery: setting.int(
    'RENDER_FRESH_DOCUMENT_EVERY',
    'A reused page loads a new, empty document after this many renders: Chromium keeps a page\'s Document between renders, and writing documents into it gets slower with each one (docs/performance.md).',
    50,
    { min: 1, max: 1_000_000 },
  ),
  batchPrintMax: setting.int(
    'RENDER_BATCH_PRINT_MAX',
    'Batch printing (docs/decisions/0015-batch-printing.md and 0037-batch-printing-by-default.md): when every page is busy, or for a moment (30 ms at most) while several documents are being compiled, up to this many waiting documents of one template are printed in one load and split, each with its own pages, bands and metadata (a document that cannot share a print — with page references or scripts, or tagged with an outline, with pages that differ or with more than 500 elements (2,500 with page-aware tables) — is printed alone; tagged documents share tagged prints, and untagged documents with an outline share prints that give each its own outline); the instance then takes this many times more documents from the queue. 1 prints every document alone.',
    20,
    { min: 1, max: 100 },
  ),
  compileThreads: {
    ...setting.int(
      'RENDER_COMPILE_THREADS',
      'Worker threads that compile documents (data checks, expressions, barcodes, charts, Markdown, layout to HTML), so no document holds the event loop; a compile still running at its document\'s deadline is stopped by ending its thread (docs/decisions/0023-compile-worker-threads.md). Each holds the template DSL and its caches in memory.',
      availableParallelism(),
      { min: 1, max: 256 },
    ),
    defaultText: 'one per CPU core',
  },
  compileHeapMb: setting.int(
    'RENDER_COMPILE_HEAP_MB',
    'V8 heap limit (old generation, MB) of each compile thread: a document that needs more ends with a RenderTimeout issue saying so, and the thread is replaced. Sized for a 50 MB document of data.',
    1024,
    { min: 64, max: 65_536 },
  ),
  maxPrintedHtmlMb: setting.number(
    'RENDER_MAX_PRINTED_HTML_MB',
    'Largest layout printed, in MB (millions of characters) of compiled HTML: a larger document ends before printing with a RenderTimeout issue naming this setting. Chromium\'s memory while it prints grows with the layout (npm run bench:long: 1.1 GB PSS for a 3,000-row statement, 4.9 GB for 10,000 rows, 7.1 GB for 22,000, about 0.3 MB of layout per 1,000 rows; docs/operations.md, Scaling render workers); the pool prints one layout of 1 MB or more at a time, and a batch print (RENDER_BATCH_PRINT_MAX) takes no more documents than keep its layout within this, so lower it to what the render service\'s memory limit leaves for one (the manifests: 2 with 8 GiB). At most 8, the layout that prints within the render budget.',
    DocumentCaps.maxPrintedHtmlChars / 1_000_000,
    { min: 0.1, max: DocumentCaps.maxPrintedHtmlChars / 1_000_000 },
  ),
  executablePath: setting.optionalString(
    'PUPPETEER_EXECUTABLE_PATH',
    'Chromium or Chrome binary. Unset: the first of /usr/bin/chromium, /usr/bin/chromium-browser, /usr/bin/google-chrome(-stable), then the Chrome for Testing this puppeteer is made for when it was downloaded (`npx @puppeteer/browsers install chrome@<version> --path ~/.cache/puppeteer`).',
  ),
  port: setting.int('RENDER_SERVICE_PORT', 'HTTP port of the render service (readiness probe GET /v1/meta/status).', 3001, { min: 0, max: 65535 }),
  browserCheckIntervalMs: setting.int(
    'RENDER_BROWSER_CHECK_INTERVAL_MS',
    'How often every browser is asked to answer; a browser that does not answer within RENDER_BROWSER_ANSWER_TIMEOUT_MS is killed and replaced.',
    5_000,
    { min: 100, max: 600_000 },
  ),
  browserAnswerTimeoutMs: setting.int(
    'RENDER_BROWSER_ANSWER_TIMEOUT_MS',
    'Time a browser has to answer a health check before it counts as hung.',
    5_000,
    { min: 50, max: 600_000 },
  ),
  shutdownGraceMs: setting.int(
    'RENDER_SHUTDOWN_GRACE_MS',
    'On SIGTERM/SIGINT, time to finish the renders in hand before the browsers are closed; unfinished messages return to the queue.',
    25_000,
    { min: 0, max: 600_000 },
  ),
  imageFetchTimeoutMs: setting.int(
    'RENDER_IMAGE_FETCH_TIMEOUT_MS',
    'Time limit for fetching one https image referenced by a template.',
    10_000,
    { min: 100, max: 120_000 },
  ),
  imageMaxBytes: setting.int(
    'RENDER_IMAGE_MAX_BYTES',
    'Largest image (fetched or organisation asset) a template may embed; larger ones give an UnresolvedImage issue.',
    10 * 1024 * 1024,
    { min: 1024, max: 200 * 1024 * 1024 },
  ),
  fontCacheMaxBytes: setting.int(
    'RENDER_FONT_CACHE_MAX_BYTES',
    'Memory for custom font files kept between renders (least recently used are dropped first).',
    64 * 1024 * 1024,
    { min: 0, max: 2 * 1024 * 1024 * 1024 },
  ),
};
