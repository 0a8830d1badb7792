/**
 * Long documents (issue 32 item 5; a script, not a test: prints figures, asserts nothing).
 *
 *   npm run bench:long                 (BENCH_QUICK=1 npm run bench:long for a small smoke run)
 *
 * examples/statement (its data from examples/statement/generate.mjs) at each number of rows, three ways, one document
 * at a time, after one untimed render of each way at the first size (the service's and Chromium's first documents are
 * slower); each round renders every size each way, so the rounds, not the sizes, follow one another as the host's
 * speed drifts:
 *   (a) raw puppeteer: one browser, one reused window, printing the compiled HTML of the statement without
 *       `pageBreaks` with the service's print options (setContent, page.pdf() with the header and footer bands);
 *   (b) the render service, the statement without `pageBreaks` (the same table, no carried subtotals);
 *   (c) the render service, the statement with `pageBreaks` (carried and brought-forward subtotals, decision 0029).
 * The render service is `node dist/apps/render-service/src/main.js` as its own process (1 browser × 1 page) on a fresh
 * RabbitMQ vhost; requests go over AMQP from this process. Its render budget is raised (RENDER_BUDGET_MS, default
 * 900 s here) so that the long documents finish and are measured; the table says which ones fit the default budget.
 * Per row count and way: pages, time per document and per page (median of the rounds; (b) and (c) the service's own
 * render duration, compile and storage included), measuring prints per document (the service's
 * docrender_render_measuring_prints_total, read from its GET /metrics before and after), and the peak RSS of the
 * render service process and the peak PSS of its Chromium processes (shared pages divided among them), sampled
 * every 100 ms while the document renders in one more round after the timed ones (sampling slows Chromium down).
 *
 * Below the table, the issue's ratios: (c) ÷ (b) per page, (b) ÷ (a) per document, and each way's time per page at every
 * size ÷ its time per page at the first size of at least 10 pages (430 rows: whether the time per page stays flat),
 * each taken within a round and given as the median of the rounds with their lowest and highest: on a shared host the
 * speed drifts by tens of percent within minutes, and a ratio of two medians taken minutes apart drifts with it.
 *
 * Then the other kinds of long document (issue 32 item 2: the largest document that fits, per kind), each through the
 * same render service at each size of BENCH_KIND_ROWS, measured the same way (median of the rounds, memory in one more):
 *   accessible  the statement with `pageBreaks` and `pdfUA: "PDF/UA-1"` (tagged, so its breaks are confirmed by a
 *               measuring print before the real one, and the PDF/UA checks run on the output);
 *   archival    the statement with `pageBreaks` and `pdfA: "PDF/A-3b"` (the PDF/A conversion and checks on the output);
 *   catalogue   examples/catalogue with its products repeated to the size (a contents page of page references, an
 *               outline from its headings, a product grid per department and a price-list table);
 *   report      examples/report with its transactions repeated to the size (two charts and a table with totals).
 * Per kind the table gives the layout handed to Chromium (MB of HTML, what RENDER_MAX_PRINTED_HTML_MB caps) and whether
 * each size fits the default render budget, and below it the largest size measured that fits.
 *
 * Environment (defaults; BENCH_QUICK=1 in brackets): BENCH_ROWS "100,430,1000,3000,10000" ["100,1000"], BENCH_ROUNDS 3 [1],
 * BENCH_BUDGET_MS 900000, BENCH_KINDS "accessible,archival,catalogue,report" ("" for none), BENCH_KIND_ROWS
 * (every kind's sizes; by default from 1,000 rows up to 15,000–20,000, a catalogue from 300 products up to 6,000)
 * ["300"].
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, Limits, MessageName, RenderDocumentCommand } from '@docrender/contracts';
import { AmqpMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { locateChromium, printedHtmlChars } from '@docrender/render-service';
import { compileDocument, type CompiledDocument, type Template } from '@docrender/template-dsl';
import { createRabbitVhost, startRenderServiceProcess, treeMemoryMb } from '@docrender/testing';
import { rssMb } from '../e2e/proc-stats';
import { launchRaw, median, rawPrint, repositoryRoot } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const QUICK = ['1', 'true', 'yes'].includes((process.env.BENCH_QUICK ?? '').toLowerCase());
const ROWS = (process.env.BENCH_ROWS ?? (QUICK ? '100,1000' : '100,430,1000,3000,10000')).split(',').filter((rows) => rows !== '').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 3));
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 900_000);
const DEFAULT_BUDGET_MS = Limits.renderBudgetMs;
const KINDS = (process.env.BENCH_KINDS ?? 'accessible,archival,catalogue,report').split(',').filter((kind) => kind !== '') as Kind[];
/** Sizes per kind, up to about where each leaves the default budget or the layout cap (a catalogue's product takes about 12 lines of a page). */
const KIND_ROWS: Record<Kind, number[]> = {
  accessible: [1000, 3000, 10000, 15000],
  archival: [1000, 3000, 10000, 16000],
  catalogue: [300, 1000, 3000, 6000],
  report: [1000, 3000, 10000, 20000],
};
/** BENCH_KIND_ROWS for every kind when set (300 with BENCH_QUICK=1), else the kind's own sizes. */
const KIND_ROWS_SET = process.env.BENCH_KIND_ROWS ?? (QUICK ? '300' : null);
function kindRows(kind: Kind): number[] {
  return KIND_ROWS_SET === null ? KIND_ROWS[kind] : KIND_ROWS_SET.split(',').map(Number);
}
const quiet = new JsonLogger('bench-long', 'error', {}, () => undefined);

type Way = 'raw' | 'plain' | 'pageBreaks';
const WAYS: Way[] = ['raw', 'plain', 'pageBreaks'];
/** One render in round `round`: its memory only from the sampled round (null in the timed ones). */
type Measure = {
  round: number;
  ms: number;
  pages: number;
  measuringPrints: number | null;
  serviceRssMb: number | null;
  chromiumPssMb: number | null;
  sampled: boolean;
};
type Statement = { rows: number; plain: Template; pageBreaks: Template; data: unknown; rawCompiled: CompiledDocument };
/** The other kinds of long document, each through the render service only. */
type Kind = 'accessible' | 'archival' | 'catalogue' | 'report';
const KIND_NAMES: Record<Kind, string> = {
  accessible: 'statement, pageBreaks, PDF/UA-1',
  archival: 'statement, pageBreaks, PDF/A-3b',
  catalogue: 'catalogue (page references, outline)',
  report: 'report (2 charts, table with totals)',
};
/** One kind at one size: its document, and the characters of HTML its compile hands to Chromium. */
type KindDocument = { template: Template; data: unknown; layoutChars: number };

function statement(root: string, rows: number): Statement {
  const dir = path.join(root, 'examples', 'statement');
  const template = JSON.parse(readFileSync(path.join(dir, 'template.json'), 'utf8')) as Template;
  const data: unknown = JSON.parse(execFileSync(process.execPath, [path.join(dir, 'generate.mjs'), String(rows)], { encoding: 'utf8', maxBuffer: 1 << 30 }));
  const plain: Template = { ...template, body: template.body.map((element) => (element.type === 'table' ? { ...element, pageBreaks: undefined } : element)) };
  return { rows, plain, pageBreaks: template, data, rawCompiled: compileDocument({ template: plain, data }) };
}

function readExample(root: string, name: string, file: string): unknown {
  return JSON.parse(readFileSync(path.join(root, 'examples', name, file), 'utf8'));
}

/** `items` repeated to `count`, each repeat's `key` made unique (a catalogue's SKUs, a report's transaction ids). */
function repeated<T extends Record<string, unknown>>(items: T[], count: number, key: keyof T): T[] {
  return Array.from({ length: count }, (_, i) => {
    const item = items[i % items.length];
    return i < items.length ? item : { ...item, [key]: `${String(item[key])}-${Math.floor(i / items.length)}` };
  });
}

/** `kind` at `rows` rows (the statement's transactions, the catalogue's products, the report's transactions). */
function kindDocument(root: string, kind: Kind, rows: number): KindDocument {
  let template: Template;
  let data: unknown;
  if (kind === 'accessible' || kind === 'archival') {
    const doc = statement(root, rows);
    template = kind === 'accessible' ? { ...doc.pageBreaks, pdfUA: 'PDF/UA-1' } : { ...doc.pageBreaks, pdfA: 'PDF/A-3b' };
    data = doc.data;
  } else {
    template = readExample(root, kind, 'template.json') as Template;
    const example = readExample(root, kind, 'data.json') as Record<string, unknown>;
    data =
      kind === 'catalogue'
        ? { ...example, products: repeated(example.products as Record<string, unknown>[], rows, 'sku') }
        : { ...example, transactions: repeated(example.transactions as Record<string, unknown>[], rows, 'id') };
  }
  return { template, data, layoutChars: printedHtmlChars(compileDocument({ template, data })) };
}

function command(template: Template, data: unknown): RenderDocumentCommand {
  return {
    requestId: randomUUID(),
    organisationId: '00000000-0000-4000-8000-00000000bench',
    environment: Environment.Production,
    template,
    data: { inline: data },
    translations: null,
    language: null,
    documentNameTemplate: null,
    fallbackDocumentName: 'statement',
    customFonts: [],
    outputBlobKey: `bench/long/${randomUUID()}.pdf`,
    deadline: Date.now() + BUDGET_MS,
  };
}

/** docrender_render_measuring_prints_total of the render service on `port`. */
async function measuringPrints(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const match = /^docrender_render_measuring_prints_total (\d+)/m.exec(text);
  return match ? Number(match[1]) : 0;
}

/** Proportional set size of one process in MB (0 once it is gone). */
function pssMb(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `work`, when `sampling` while sampling the peak RSS of `servicePid` (null: none) and the PSS of Chromium: the
 * processes under `treePid`, and `treePid` itself when `withRoot` (a raw browser's own process). Not sampling, the
 * memory is null: reading the memory map of every process every 100 ms slows a Chromium of gigabytes down.
 */
async function sampled<T>(
  sampling: boolean,
  servicePid: number | null,
  treePid: number,
  withRoot: boolean,
  work: () => Promise<T>,
): Promise<{ value: T; serviceRssMb: number | null; chromiumPssMb: number | null }> {
  if (!sampling) return { value: await work(), serviceRssMb: null, chromiumPssMb: null };
  let serviceRss = 0;
  let chromiumPss = 0;
  const sample = (): void => {
    if (servicePid !== null) serviceRss = Math.max(serviceRss, rssMb(servicePid));
    chromiumPss = Math.max(chromiumPss, treeMemoryMb(treePid).pssMb + (withRoot ? pssMb(treePid) : 0));
  };
  const timer = setInterval(sample, 100);
  try {
    const value = await work();
    sample();
    return { value, serviceRssMb: servicePid === null ? null : serviceRss, chromiumPssMb: chromiumPss };
  } finally {
    clearInterval(timer);
  }
}

function printTable(results: Map<number, Record<Way, Measure[]>>): void {
  const f = (n: number, digits = 0): string => n.toFixed(digits);
  console.log(`| rows | way | pages | time per document s | ms per page | measuring prints | render service RSS MB | Chromium PSS MB | fits ${DEFAULT_BUDGET_MS / 1000} s |`);
  console.log('|---|---|---|---|---|---|---|---|---|');
  const names: Record<Way, string> = { raw: '(a) raw puppeteer, no pageBreaks', plain: '(b) service, no pageBreaks', pageBreaks: '(c) service, pageBreaks' };
  for (const [rows, byWay] of results) {
    for (const way of WAYS) {
      const runs = byWay[way];
      const seen = typical(runs);
      if (seen === null) continue;
      const { ms, pages } = seen;
      const memory = runs.find((r) => r.sampled);
      const prints = runs[0].measuringPrints;
      const mb = (value: number | null | undefined): string => (value === null || value === undefined ? '–' : f(value));
      console.log(
        `| ${rows} | ${names[way]} | ${pages} | ${f(ms / 1000, 1)} | ${f(ms / pages, 1)} | ${prints === null ? '–' : prints} | ${mb(memory?.serviceRssMb)} | ${mb(memory?.chromiumPssMb)} | ${way === 'raw' ? '–' : ms <= DEFAULT_BUDGET_MS ? 'yes' : 'no'} |`,
      );
    }
  }
}

/** One kind at one size: the layout it hands to Chromium, its renders, and what the service answered instead of a PDF. */
type KindRun = { layoutChars: number; runs: Measure[]; failure: string | null };

/** The other kinds at each size, and per kind the largest size measured that fits the default render budget. */
function printKinds(results: Map<Kind, Map<number, KindRun>>): void {
  const f = (n: number, digits = 0): string => n.toFixed(digits);
  const mb = (value: number | null | undefined): string => (value === null || value === undefined ? '–' : f(value));
  console.log(`| kind | rows | layout MB | pages | time per document s | ms per page | measuring prints | render service RSS MB | Chromium PSS MB | fits ${DEFAULT_BUDGET_MS / 1000} s |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const largest: string[] = [];
  for (const [kind, bySize] of results) {
    let fits: string | null = null;
    for (const [rows, { layoutChars, runs, failure }] of bySize) {
      const seen = typical(runs);
      const layout = f(layoutChars / 1e6, 2);
      if (seen === null) {
        console.log(`| ${KIND_NAMES[kind]} | ${rows} | ${layout} | – | – | – | – | – | – | no: ${failure ?? 'no render'} |`);
        continue;
      }
      const memory = runs.find((r) => r.sampled);
      const inBudget = failure === null && seen.ms <= DEFAULT_BUDGET_MS;
      if (inBudget) fits = `${rows} rows (${seen.pages} pages, ${f(seen.ms / 1000, 1)} s)`;
      console.log(
        `| ${KIND_NAMES[kind]} | ${rows} | ${layout} | ${seen.pages} | ${f(seen.ms / 1000, 1)} | ${f(seen.ms / seen.pages, 1)} | ${runs[0].measuringPrints ?? '–'} | ${mb(memory?.serviceRssMb)} | ${mb(memory?.chromiumPssMb)} | ${inBudget ? 'yes' : `no${failure === null ? '' : `: ${failure}`}`} |`,
      );
    }
    largest.push(`${KIND_NAMES[kind]}: ${fits ?? 'none of the sizes'}`);
  }
  console.log(`largest size measured within the default ${DEFAULT_BUDGET_MS / 1000} s budget — ${largest.join('; ')}`);
}

/** The median time and the pages of one way at one size, from its timed rounds (all rounds when none was timed). */
function typical(runs: Measure[]): { ms: number; pages: number } | null {
  if (runs.length === 0) return null;
  const timed = runs.filter((r) => !r.sampled);
  return { ms: median((timed.length > 0 ? timed : runs).map((r) => r.ms)), pages: runs[0].pages };
}

/**
 * Issue 32 item 2's ratios: `pageBreaks` ÷ the plain table per page, the plain table ÷ raw per document, and each
 * way's time per page ÷ its time per page at the first size of at least 10 pages (flat: about 1 at every size). Each
 * is taken within a timed round (both renders minutes apart at most, one after the other for the first two) and given
 * as the median over the rounds, with the lowest and highest in brackets.
 */
function printRatios(results: Map<number, Record<Way, Measure[]>>): void {
  const f = (n: number): string => n.toFixed(2);
  const perPage = (m: Measure): number => m.ms / m.pages;
  const timed = (runs: Measure[]): Map<number, Measure> => new Map(runs.filter((r) => !r.sampled).map((r) => [r.round, r]));
  /** The ratio of `a`'s value to `b`'s over the rounds both have: median (lowest–highest), or null when none. */
  const paired = (a: Measure[], b: Measure[], value: (m: Measure) => number): string | null => {
    const bs = timed(b);
    const ratios = [...timed(a)].flatMap(([round, m]) => {
      const other = bs.get(round);
      return other === undefined ? [] : [value(m) / value(other)];
    });
    if (ratios.length === 0) return null;
    return ratios.length === 1 ? f(ratios[0]) : `${f(median(ratios))} (${f(Math.min(...ratios))}–${f(Math.max(...ratios))})`;
  };
  const sizes = [...results.entries()].map(([rows, byWay]) => ({ rows, byWay }));
  const line = (pairs: [string, string | null][]): string => pairs.flatMap(([label, ratio]) => (ratio === null ? [] : [`${label} ${ratio}`])).join(', ') || '–';
  console.log(`pageBreaks ÷ plain table, per page (≤ 1.3 asked): ${line(sizes.map(({ rows, byWay }) => [`${rows} rows`, paired(byWay.pageBreaks, byWay.plain, perPage)]))}`);
  console.log(`plain table ÷ raw, per document (≤ 1.2 asked): ${line(sizes.map(({ rows, byWay }) => [`${rows} rows`, paired(byWay.plain, byWay.raw, (m) => m.ms)]))}`);
  const reference = sizes.find(({ byWay }) => (byWay.plain[0]?.pages ?? 0) >= 10);
  if (reference === undefined) {
    console.log('time per page against 10 pages: no size of at least 10 pages in this run');
    return;
  }
  for (const way of WAYS) {
    const base = reference.byWay[way];
    if (base.length === 0) continue;
    const ratios = sizes.filter(({ rows, byWay }) => rows > reference.rows && byWay[way].length > 0).map(({ byWay }): [string, string | null] => [`${byWay[way][0].pages} pages`, paired(byWay[way], base, perPage)]);
    console.log(`time per page against ${base[0].pages} pages (${reference.rows} rows), ${way} (≤ 1.2 at 250 asked): ${line(ratios)}`);
  }
  console.log('(ratios within each timed round: the median over the rounds, the lowest and highest in brackets)');
}

async function main(): Promise<void> {
  const root = repositoryRoot();
  const executablePath = await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH);
  console.log(`long documents benchmark — ${new Date().toISOString()} — ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${executablePath}`);
  console.log(`rows ${ROWS.join(', ')}; ${ROUNDS} rounds; render budget ${BUDGET_MS / 1000} s (default ${DEFAULT_BUDGET_MS / 1000} s)`);

  const blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-bench-long-'));
  const vhost = await createRabbitVhost('bench-long');
  const env = { AMQP_URL: vhost.url, AMQP_QUEUE_PREFIX: 'long-', BLOB_DIR: blobDir, RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1', RENDER_BUDGET_MS: String(BUDGET_MS) };
  const service = await startRenderServiceProcess(env);
  const bus = await AmqpMessageBus.connect(loadSettings(messagingSettings, env), quiet);
  const raw = await launchRaw(executablePath, 1);
  const rawPid = raw.browser.process()?.pid ?? null;
  const servicePid = service.pid;
  if (rawPid === null || servicePid === -1) throw new Error('no process id for the raw browser or the render service');
  const results = new Map<number, Record<Way, Measure[]>>();
  const kindResults = new Map<Kind, Map<number, KindRun>>();
  /** One render through the service: its measure, or what it answered instead of a PDF. */
  const serviceRender = async (template: Template, data: unknown, round: number, sampling: boolean): Promise<Measure | string> => {
    const before = await measuringPrints(service.port);
    const run = await sampled(sampling, servicePid, servicePid, false, () => bus.request(MessageName.RenderDocument, command(template, data), { timeoutMs: BUDGET_MS + 60_000 }));
    const result = run.value;
    if (result.outcome !== 'rendered' || result.pdf === null) return `${result.outcome} ${JSON.stringify(result.failure ?? result.issues)}`;
    return {
      round,
      ms: result.renderDurationMs,
      pages: result.pdf.pageCount,
      measuringPrints: (await measuringPrints(service.port)) - before,
      serviceRssMb: run.serviceRssMb,
      chromiumPssMb: run.chromiumPssMb,
      sampled: sampling,
    };
  };
  try {
    const docs = ROWS.map((rows) => statement(root, rows));
    for (const doc of docs) results.set(doc.rows, { raw: [], plain: [], pageBreaks: [] });
    const rawRender = async (doc: Statement, round: number, sampling: boolean): Promise<Measure> => {
      // raw puppeteer: its browser and the processes under it
      const run = await sampled(sampling, null, rawPid, true, async () => {
        const started = process.hrtime.bigint();
        const pdf = await rawPrint(raw.pages[0], doc.rawCompiled);
        return { ms: Number(process.hrtime.bigint() - started) / 1e6, pages: (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount() };
      });
      return { round, ...run.value, measuringPrints: null, serviceRssMb: null, chromiumPssMb: run.chromiumPssMb, sampled: sampling };
    };
    if (docs.length > 0) {
      // warming up: the first documents of a browser and a service are slower than the rest
      await rawRender(docs[0], -1, false);
      for (const way of ['plain', 'pageBreaks'] as const) await serviceRender(docs[0][way], docs[0].data, -1, false);
    }
    // the timed rounds, every size in each, then one round whose memory is sampled
    for (let round = 0; round <= ROUNDS; round++) {
      const sampling = round === ROUNDS;
      for (const doc of docs) {
        const byWay = results.get(doc.rows) as Record<Way, Measure[]>;
        byWay.raw.push(await rawRender(doc, round, sampling));
        for (const way of ['plain', 'pageBreaks'] as const) {
          const run = await serviceRender(doc[way], doc.data, round, sampling);
          if (typeof run === 'string') console.error(`${doc.rows} rows, ${way}: ${run}`);
          else byWay[way].push(run);
        }
      }
      console.error(sampling ? 'done: the round with memory sampled' : `done: round ${round + 1} of ${ROUNDS}`);
    }
    for (const kind of KINDS) {
      const bySize = new Map<number, KindRun>();
      kindResults.set(kind, bySize);
      for (const rows of kindRows(kind)) {
        const doc = kindDocument(root, kind, rows);
        const kindRun: KindRun = { layoutChars: doc.layoutChars, runs: [], failure: null };
        bySize.set(rows, kindRun);
        for (let round = 0; round <= ROUNDS && kindRun.failure === null; round++) {
          const run = await serviceRender(doc.template, doc.data, round, round === ROUNDS);
          if (typeof run === 'string') kindRun.failure = run;
          else kindRun.runs.push(run);
        }
        console.error(`done: ${kind}, ${rows} rows`);
      }
    }
  } finally {
    await raw.browser.close();
    await bus.close();
    await service.stop();
    await vhost.delete().catch((error: unknown) => console.error(`could not delete the vhost ${vhost.name}:`, error instanceof Error ? error.message : error));
    await rm(blobDir, { recursive: true, force: true });
  }
  console.log('');
  printTable(results);
  console.log('');
  printRatios(results);
  console.log('');
  if (kindResults.size > 0) {
    printKinds(kindResults);
    console.log('');
  }
  console.log('Times: median of the timed rounds. Memory: peak while the document printed in one more round, sampled every 100 ms (not in the timed rounds). Chromium PSS: the raw browser and the processes under it for (a), the processes under the render service (its Chromium) for (b) and (c).');
}

runBench(main);
