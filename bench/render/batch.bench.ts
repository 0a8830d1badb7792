/**
 * Batch printing against per-document printing (issue 23 item 4; a script, not a test: prints figures, asserts
 * nothing; docs/decisions/0015-batch-printing.md).
 *
 *   npm run bench:batch            (= node tools/build.mjs --quiet && node dist/bench/render/batch.bench.js)
 *
 * Invoices of `examples/invoice` (each with its own number and customer; with BENCH_BATCH_DATA=mixed also 3 to 12
 * items, so 1 or 2 pages) — or, with BENCH_BATCH_DATA=statements, `examples/statement` with 20 to 110 rows (1 to 3
 * pages, carried and brought-forward subtotals at every break: page-aware tables; BENCH_STATEMENT_ROWS rows each when
 * set), or, with BENCH_BATCH_DATA=report,
 * `examples/report` with its transactions cut to BENCH_REPORT_ROWS (30); with BENCH_BATCH_TAGGED=1 tagged
 * (`tagged: true`: accessible PDFs, raw puppeteer printing them tagged too); with BENCH_BATCH_OUTLINE=1 with an outline
 * (`outline: true`: raw puppeteer prints it with `outline: true`, which Chromium writes only into a tagged PDF; the
 * service writes its own into an untagged one, decision 0051) — printed on one browser with C reused
 * windows (BENCH_CONCURRENCY, default 2), C documents or batches printing at once, in these variants:
 *   raw        raw puppeteer per document (setContent + page.pdf(), bench-kit's rawPrint): the baseline (for the
 *              statements, their HTML without the subtotals' placement, which raw puppeteer cannot do);
 *   per-doc    the render service's per-document printing (printPdfOnPage: kept off the screen, one print, the PDF
 *              in the print command's answer) plus its metadata update;
 *   batch-B    the render service's batch printing (printBatchOnPage) of B documents in one load, split into one
 *              PDF per document, plus each one's metadata update, for every B of BENCH_BATCH_SIZES (10,20,40).
 * Each run prints BENCH_DOCUMENTS (80) documents; in each of BENCH_ROUNDS (5) rounds a raw run comes before and after
 * every other run, and a variant's ratio is its rate against the mean of the raw runs around it, then the median
 * over the rounds. CPU per document: the bench's Node process (process.cpuUsage) and Chromium (/proc, every process
 * under this one), summed over the rounds. Before timing, it checks that every document of a batch has the text
 * (pdftotext -layout) and page count it has when printed alone.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { locateChromium } from '@docrender/render-service';
import { printBatchOnPage } from '../../apps/render-service/src/chromium/batch-page-printer';
import { printPdfOnPage } from '../../apps/render-service/src/chromium/page-printer';
import { withPdfMetadata } from '../../apps/render-service/src/pdf/pdf-metadata';
import { compileDocument, type CompiledDocument, type Template } from '@docrender/template-dsl';
import { CpuMeter } from '../e2e/proc-stats';
import { closedLoop, launchRaw, loadExample, median, rawPrint, repositoryRoot } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 80);
const BATCH_SIZES = (process.env.BENCH_BATCH_SIZES ?? '10,20,40').split(',').map(Number);
const MIXED = process.env.BENCH_BATCH_DATA === 'mixed';
const STATEMENTS = process.env.BENCH_BATCH_DATA === 'statements';
const REPORTS = process.env.BENCH_BATCH_DATA === 'report';
const REPORT_ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 30);
const STATEMENT_ROWS = process.env.BENCH_STATEMENT_ROWS === undefined ? null : Number(process.env.BENCH_STATEMENT_ROWS);
const TAGGED = process.env.BENCH_BATCH_TAGGED === '1';
const OUTLINE = process.env.BENCH_BATCH_OUTLINE === '1';
const run = promisify(execFile);

function metadata(pdf: Buffer, title: string): Buffer {
  return withPdfMetadata(pdf, { title, producer: 'docrender bench', creator: 'docrender bench', created: new Date() }).pdf;
}

async function pdfFacts(pdf: Buffer): Promise<{ text: string; pages: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-bench-batch-'));
  try {
    const file = path.join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
    const pages = /^Pages:\s*(\d+)/m.exec((await run('pdfinfo', [file])).stdout)?.[1] ?? '?';
    return { text, pages };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type Variant = { name: string; unit: number; job: (slot: number) => Promise<void> };
type Figures = { rates: number[]; ratios: number[]; chromiumMs: number; nodeMs: number; documents: number };

async function main(): Promise<void> {
  const root = repositoryRoot();
  const executablePath = await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH);
  const example = loadExample(root, STATEMENTS ? 'statement' : REPORTS ? 'report' : 'invoice');
  const template = { ...(example.template as Template), ...(TAGGED ? { tagged: true } : {}), ...(OUTLINE ? { outline: true } : {}) };
  const baseData = example.data as { number: string; customer: { name: string }; items: unknown[] };
  const statementData = (rows: number): unknown =>
    JSON.parse(execFileSync(process.execPath, [path.join(root, 'examples', 'statement', 'generate.mjs'), String(rows)], { encoding: 'utf8' }));
  const documents: CompiledDocument[] = Array.from({ length: DOCUMENTS }, (_, i) => {
    if (STATEMENTS) return compileDocument({ template, data: statementData(STATEMENT_ROWS ?? 20 + ((i * 37) % 91)) });
    if (REPORTS) {
      const report = structuredClone(example.data) as { transactions: unknown[] };
      return compileDocument({ template, data: { ...report, transactions: report.transactions.slice(0, REPORT_ROWS) } });
    }
    const data = structuredClone(baseData);
    data.number = `INV-2026-${String(10_000 + i)}`;
    data.customer.name = `Customer ${i}`;
    if (MIXED) data.items = data.items.slice(0, 3 + ((i * 7) % 10));
    return compileDocument({ template, data });
  });
  console.log(`batch printing benchmark — ${new Date().toISOString()} — ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${executablePath}`);
  console.log(`${STATEMENTS ? `statement (${STATEMENT_ROWS ?? '20–110'} rows, page-aware tables)` : REPORTS ? `report (${REPORT_ROWS} transactions)` : `invoice (${MIXED ? 'mixed: 3–12 items' : 'uniform'})`}${TAGGED ? ', tagged' : ''}${OUTLINE ? ', with an outline' : ''}, ${DOCUMENTS} documents per run, ${CONCURRENCY} windows, ${ROUNDS} rounds, batch sizes ${BATCH_SIZES.join(', ')}`);

  const raw = await launchRaw(executablePath, CONCURRENCY);
  try {
    // correctness first: every document of a batch against the same document printed alone
    const checked = Math.min(DOCUMENTS, Math.max(...BATCH_SIZES));
    const batch = await printBatchOnPage(raw.pages[0], documents.slice(0, checked));
    let same = 0;
    for (let i = 0; i < checked; i++) {
      const [a, b] = await Promise.all([pdfFacts(await printPdfOnPage(raw.pages[0], documents[i])), pdfFacts(batch[i])]);
      if (a.text === b.text && a.pages === b.pages) same++;
      else console.log(`document ${i}: batch print differs from its print alone (pages ${b.pages} / ${a.pages})`);
    }
    console.log(`text and page count as printed alone: ${same} of ${checked} documents of one batch`);

    let next = 0;
    const take = (count: number): CompiledDocument[] => Array.from({ length: count }, () => documents[next++ % DOCUMENTS]);
    const variants: Variant[] = [
      { name: 'per-doc (render service printing)', unit: 1, job: async (slot) => {
        const [document] = take(1);
        metadata(await printPdfOnPage(raw.pages[slot], document), document.title);
      } },
      ...BATCH_SIZES.map((size): Variant => ({
        name: `batch of ${size}`,
        unit: size,
        job: async (slot) => {
          const batchDocuments = take(size);
          const pdfs = await printBatchOnPage(raw.pages[slot], batchDocuments);
          pdfs.forEach((pdf, i) => metadata(pdf, batchDocuments[i].title));
        },
      })),
    ];
    const rawJob = async (slot: number): Promise<void> => {
      await rawPrint(raw.pages[slot], take(1)[0]);
    };
    const timed = async (units: number, job: (slot: number) => Promise<void>): Promise<{ seconds: number; chromiumMs: number; nodeMs: number }> => {
      const meter = CpuMeter.tree(process.pid).start();
      const node = process.cpuUsage();
      const { seconds } = await closedLoop(units, CONCURRENCY, job);
      const used = process.cpuUsage(node);
      return { seconds, chromiumMs: meter.stop(), nodeMs: (used.user + used.system) / 1000 };
    };
    // warm-up
    await timed(CONCURRENCY * 2, rawJob);
    for (const variant of variants) await timed(CONCURRENCY, variant.job);

    const figures = new Map<string, Figures>([['raw', { rates: [], ratios: [], chromiumMs: 0, nodeMs: 0, documents: 0 }], ...variants.map((v): [string, Figures] => [v.name, { rates: [], ratios: [], chromiumMs: 0, nodeMs: 0, documents: 0 }])]);
    const record = (name: string, result: { seconds: number; chromiumMs: number; nodeMs: number }): number => {
      const f = figures.get(name) as Figures;
      f.rates.push(DOCUMENTS / result.seconds);
      f.chromiumMs += result.chromiumMs;
      f.nodeMs += result.nodeMs;
      f.documents += DOCUMENTS;
      return result.seconds;
    };
    for (let round = 0; round < ROUNDS; round++) {
      let rawBefore = record('raw', await timed(DOCUMENTS, rawJob));
      for (const variant of variants) {
        const seconds = record(variant.name, await timed(DOCUMENTS / variant.unit, variant.job));
        const rawAfter = record('raw', await timed(DOCUMENTS, rawJob));
        (figures.get(variant.name) as Figures).ratios.push((rawBefore + rawAfter) / 2 / seconds);
        rawBefore = rawAfter;
      }
      console.error(`round ${round + 1} of ${ROUNDS} done`);
    }
    console.log('');
    console.log(`| variant | PDFs/s | ratio to raw | CPU ms/doc: Chromium | bench Node |`);
    console.log('|---|---|---|---|---|');
    for (const [name, f] of figures) {
      const ratio = name === 'raw' ? '1.00' : median(f.ratios).toFixed(2);
      console.log(`| ${name === 'raw' ? `raw puppeteer per document, ${CONCURRENCY} windows` : name} | ${median(f.rates).toFixed(2)} | ${ratio} | ${(f.chromiumMs / f.documents).toFixed(1)} | ${(f.nodeMs / f.documents).toFixed(1)} |`);
    }
  } finally {
    await raw.browser.close();
  }
}

runBench(main);
