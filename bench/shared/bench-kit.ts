/**
 * What the benches share: the repository root, the examples compiled once, the closed loop that times runs, the
 * percentiles, and raw puppeteer as the baseline (C reused windows printing the compiled HTML with the service's
 * print options, a new document every RENDER_FRESH_DOCUMENT_EVERY renders as the pool's pages get).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { loadRenderServiceSettings } from '@docrender/render-service';
import { compileDocument, CompiledDocument, Template } from '@docrender/template-dsl';

/** The launch flags machine-notes verified for plain headless printing (the raw baseline uses no more). */
export const RAW_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export function repositoryRoot(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'tools', 'build.mjs'))) return dir;
  }
  throw new Error('repository root not found');
}

/** BENCH_APP_<SETTING>=value: settings handed to the app processes a bench starts (to compare settings in one command). */
export function benchAppOverrides(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env)
      .filter(([name, value]) => name.startsWith('BENCH_APP_') && value !== undefined)
      .map(([name, value]) => [name.slice('BENCH_APP_'.length), value as string]),
  );
}

export type Example = { name: string; template: unknown; data: unknown; compiled: CompiledDocument };

export function loadExample(root: string, name: string): Example {
  const read = (file: string): unknown => JSON.parse(readFileSync(path.join(root, 'examples', name, file), 'utf8'));
  const template = read('template.json');
  const data = read('data.json');
  return { name, template, data, compiled: compileDocument({ template: template as Template, data }) };
}

export type Run = { seconds: number; latenciesMs: number[] };

/** Runs `total` jobs with `concurrency` in flight; each job's latency and the wall time. */
export async function closedLoop(total: number, concurrency: number, job: (slot: number) => Promise<void>): Promise<Run> {
  let next = 0;
  const latenciesMs: number[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, slot) => {
      while (next < total) {
        next++;
        const t = process.hrtime.bigint();
        await job(slot);
        latenciesMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, latenciesMs };
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
};
export const median = (values: number[]): number => percentile(values, 0.5);

export function rawPrint(page: Page, compiled: CompiledDocument, tagged = compiled.tagged): Promise<Uint8Array> {
  const bands = compiled.headerHtml !== null || compiled.footerHtml !== null;
  return page
    .setContent(compiled.html, { waitUntil: 'load' })
    .then(() =>
      page.pdf({
        printBackground: true,
        preferCSSPageSize: true,
        // Chromium writes an outline only into a tagged PDF
        tagged: tagged || compiled.outline,
        outline: compiled.outline,
        displayHeaderFooter: bands,
        headerTemplate: bands ? (compiled.headerHtml ?? '<span></span>') : undefined,
        footerTemplate: bands ? (compiled.footerHtml ?? '<span></span>') : undefined,
        timeout: 0,
      }),
    )
    .then(async (pdf) => {
      await afterRawRender(page);
      return pdf;
    });
}

/**
 * Raw pages follow the pool's page hygiene: a new, empty document every RENDER_FRESH_DOCUMENT_EVERY renders (its
 * default), paid inside the timed loop as the service pays it. A page that documents are written into (setContent)
 * gets slower with every one (docs/performance.md), so without this the raw baseline would slow down as the run
 * goes on and the comparison would depend on the run's length.
 */
const FRESH_DOCUMENT_EVERY = loadRenderServiceSettings({}).freshDocumentEvery;
const rendersOnDocument = new WeakMap<Page, number>();

async function afterRawRender(page: Page): Promise<void> {
  const renders = (rendersOnDocument.get(page) ?? 0) + 1;
  rendersOnDocument.set(page, renders);
  if (renders < FRESH_DOCUMENT_EVERY) return;
  await page.goto('about:blank', { waitUntil: 'load' });
  rendersOnDocument.set(page, 0);
}

/**
 * C reused pages, each in a window of its own as the service's pool opens them: Chromium runs a hidden tab's
 * renderer at background priority, so with tabs all pages but the front one would print slower under load.
 */
export async function launchRaw(executablePath: string, pages: number): Promise<{ browser: Browser; pages: Page[] }> {
  const browser = await puppeteer.launch({ executablePath, headless: true, pipe: true, args: RAW_FLAGS });
  const opened: Page[] = [];
  for (let i = 0; i < pages; i++) {
    const page = await browser.newPage({ type: 'window' });
    await page.setJavaScriptEnabled(false);
    opened.push(page);
  }
  return { browser, pages: opened };
}

