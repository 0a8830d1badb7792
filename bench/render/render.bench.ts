/**
 * Render-service throughput against raw puppeteer (a script, not a test: prints figures, asserts nothing).
 *
 *   node tools/build.mjs && node dist/bench/render/render.bench.js
 *
 * For the invoice and the 1,000-row report (examples/), at each concurrency C (default 1 and 2) — C Chromium pages
 * printing at once in every variant:
 *   (a) raw puppeteer: one browser, C reused pages (each in its own window, like the pool's), printing the same
 *       compiled HTML with the same print options as a puppeteer user would (setContent, which lays the document
 *       out for the screen as it loads, then page.pdf()), a new document every RENDER_FRESH_DOCUMENT_EVERY renders
 *       per page like the pool's;
 *   (b) the render service in-process: the render service started by createServiceApp on the in-process bus, pool of 1 browser × C pages
 *       (data check, compile, print, page count, store the PDF, reply);
 *   (c) the render service through RabbitMQ: `node dist/apps/render-service/src/main.js` as its own process
 *       (1 browser × C pages) on a fresh vhost, requests from this process over AMQP.
 * (b) and (c) run twice: with C requests in flight (each request waits for the previous one's compile and store), and
 * with as many in flight as the service itself takes from its queue (renderPrefetch(C) = C + ⌈C/2⌉), which is how
 * it runs under load: the extra documents wait in the pool so a page never idles while another document is compiled
 * or stored. Closed loop, N documents per run, R rounds; in each round a raw run comes before and after every
 * service run (raw, b, raw, b', raw, c, raw, c', raw), and a variant's ratio is taken against the two raw runs around
 * it, then the median over the rounds (PDFs/s: median of the runs; latency percentiles over all runs). (b) and (c)
 * store PDFs in the filesystem blob store under one temp directory.
 * Then the facts behind three defaults: pool shape (raw puppeteer, invoice: browsers × pages), tagged vs untagged print
 * (raw, C = 1), and what rewriting PDF metadata with pdf-lib would cost; and what the service's print-only loading
 * (no screen layout before printing) is worth to raw puppeteer on its own (C = 1).
 *
 * Environment: BENCH_CONCURRENCY (default "1,2"), BENCH_ROUNDS (3), BENCH_INVOICES (60), BENCH_REPORTS (16; with 8,
 * a run of reports at C = 2 lasted about 4 s, and one slow spell of the machine moved its ratio by 10 %).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { PDFDocument } from '@cantoo/pdf-lib';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, MessageName, RenderDocumentCommand } from '@docrender/contracts';
import { AmqpMessageBus, InProcessMessageBus, MessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { createServiceApp, serviceSettings } from '@docrender/platform';
import { laidOutForPrintOnly, locateChromium, renderPrefetch, renderService } from '@docrender/render-service';
import { FilesystemBlobStore } from '@docrender/storage';
import type { CompiledDocument } from '@docrender/template-dsl';
import { createRabbitVhost, startRenderServiceProcess } from '@docrender/testing';
import { closedLoop, launchRaw, loadExample, median, percentile, rawPrint, repositoryRoot, type Example, type Run } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,2').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COUNTS: Record<string, number> = { invoice: Number(process.env.BENCH_INVOICES ?? 60), report: Number(process.env.BENCH_REPORTS ?? 16) };
const quiet = new JsonLogger('bench-render', 'error', {}, () => undefined);

function command(example: Example): RenderDocumentCommand {
  return {
    requestId: randomUUID(),
    organisationId: '00000000-0000-4000-8000-00000000bench',
    environment: Environment.Production,
    template: example.template,
    data: { inline: example.data },
    translations: null,
    language: null,
    documentNameTemplate: null,
    fallbackDocumentName: example.name,
    customFonts: [],
    outputBlobKey: `bench/${example.name}/${randomUUID()}.pdf`,
    deadline: Date.now() + 120_000,
  };
}

async function requestRender(bus: MessageBus, example: Example): Promise<void> {
  const result = await bus.request(MessageName.RenderDocument, command(example), { timeoutMs: 120_000 });
  if (result.outcome !== 'rendered') throw new Error(`${example.name}: ${result.outcome} ${JSON.stringify(result.failure ?? result.issues)}`);
}

type Variant = 'raw' | 'inProcess' | 'inProcessQueued' | 'amqp' | 'amqpQueued';
type ServiceVariant = Exclude<Variant, 'raw'>;
/**
 * `rawAround[v][round]`: the mean time of the two raw runs just before and just after variant v's run in that
 * round, the baseline its ratio is taken against.
 */
type Row = { document: string; concurrency: number; total: number; runs: Record<Variant, Run[]>; rawAround: Record<ServiceVariant, number[]> };

function summary(runs: Run[], total: number): { rate: number; p50: number; p95: number } {
  const latencies = runs.flatMap((r) => r.latenciesMs);
  return { rate: median(runs.map((r) => total / r.seconds)), p50: median(latencies), p95: percentile(latencies, 0.95) };
}

function printTables(rows: Row[]): void {
  const f = (n: number, digits = 1): string => n.toFixed(digits);
  const table = (header: string[], lines: string[][]): void => {
    console.log(`| ${header.join(' | ')} |`);
    console.log(`|${header.map(() => '---').join('|')}|`);
    for (const line of lines) console.log(`| ${line.join(' | ')} |`);
  };
  console.log('Throughput (PDFs/s, median of the runs) and ratios to raw puppeteer at the same number of pages printing at once (C; each run against the raw runs just before and after it, median over the rounds):');
  table(
    ['document', 'C', '(a) raw', '(b) in-process, C in flight', '(b) in-process, prefetch in flight', '(c) RabbitMQ, C in flight', '(c) RabbitMQ, prefetch in flight', 'b/a (C / prefetch)', 'c/a (C / prefetch)'],
    rows.map((row) => {
      const r = (v: Variant) => summary(row.runs[v], row.total).rate;
      const a = r('raw');
      // each run against the raw runs just before and after it, then the median over the rounds: a machine that
      // slows down or speeds up during a round moves both sides of a ratio alike
      const ratio = (v: ServiceVariant): number => median(row.runs[v].map((run, round) => row.rawAround[v][round] / run.seconds));
      return [
        row.document,
        String(row.concurrency),
        f(a, 2),
        f(r('inProcess'), 2),
        f(r('inProcessQueued'), 2),
        f(r('amqp'), 2),
        f(r('amqpQueued'), 2),
        `${f(ratio('inProcess'), 2)} / ${f(ratio('inProcessQueued'), 2)}`,
        `${f(ratio('amqp'), 2)} / ${f(ratio('amqpQueued'), 2)}`,
      ];
    }),
  );
  console.log('');
  console.log('Latency per document, p50 / p95 ms (with prefetch in flight it includes the wait for a free page):');
  table(
    ['document', 'C', '(a) raw', '(b) C in flight', '(b) prefetch in flight', '(c) C in flight', '(c) prefetch in flight'],
    rows.map((row) => {
      const l = (v: Variant) => {
        const s = summary(row.runs[v], row.total);
        return `${f(s.p50, 0)} / ${f(s.p95, 0)}`;
      };
      return [row.document, String(row.concurrency), l('raw'), l('inProcess'), l('inProcessQueued'), l('amqp'), l('amqpQueued')];
    }),
  );
}

async function main(): Promise<void> {
  const root = repositoryRoot();
  const executablePath = await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH);
  const examples = ['invoice', 'report'].map((name) => loadExample(root, name));
  console.log(`render benchmark — ${new Date().toISOString()} — ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${executablePath}`);
  console.log(`concurrency ${CONCURRENCY.join(', ')}; ${ROUNDS} rounds; ${COUNTS.invoice} invoices / ${COUNTS.report} reports per run`);
  for (const e of examples) console.log(`  ${e.name}: ${(e.compiled.html.length / 1024).toFixed(0)} kB HTML, tagged=${e.compiled.tagged}, header/footer=${e.compiled.headerHtml !== null}`);

  const blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-bench-render-'));
  const vhost = await createRabbitVhost('bench-render');
  const rows: Row[] = [];
  try {
    for (const concurrency of CONCURRENCY) {
      const raw = await launchRaw(executablePath, concurrency);
      const serviceEnv = { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: String(concurrency) };
      const inProcessBus = new InProcessMessageBus(loadSettings(messagingSettings, {}), quiet);
      const blobStore = await FilesystemBlobStore.open(blobDir);
      const app: INestApplication = await createServiceApp(renderService, { bus: inProcessBus, blobStore, close: () => inProcessBus.close() }, quiet, serviceSettings([renderService], serviceEnv));
      await app.init();
      const amqpEnv = { AMQP_URL: vhost.url, AMQP_QUEUE_PREFIX: `c${concurrency}-`, BLOB_DIR: blobDir };
      const service = await startRenderServiceProcess({ ...amqpEnv, ...serviceEnv });
      const amqpBus = await AmqpMessageBus.connect(loadSettings(messagingSettings, amqpEnv), quiet);
      try {
        const queued = renderPrefetch(concurrency);
        for (const example of examples) {
          const total = COUNTS[example.name];
          const rawJob = (slot: number) => rawPrint(raw.pages[slot], example.compiled).then(() => undefined);
          const variants: Array<[ServiceVariant, number, (slot: number) => Promise<void>]> = [
            ['inProcess', concurrency, () => requestRender(inProcessBus, example)],
            ['inProcessQueued', queued, () => requestRender(inProcessBus, example)],
            ['amqp', concurrency, () => requestRender(amqpBus, example)],
            ['amqpQueued', queued, () => requestRender(amqpBus, example)],
          ];
          await closedLoop(concurrency * 2, concurrency, rawJob);
          for (const [, inFlight, job] of variants) await closedLoop(inFlight * 2, inFlight, job);
          const row: Row = {
            document: example.name,
            concurrency,
            total,
            runs: { raw: [], inProcess: [], inProcessQueued: [], amqp: [], amqpQueued: [] },
            rawAround: { inProcess: [], inProcessQueued: [], amqp: [], amqpQueued: [] },
          };
          for (let round = 0; round < ROUNDS; round++) {
            // raw, b, raw, b', raw, c, raw, c', raw: every service run has a raw run on each side
            let rawBefore = await closedLoop(total, concurrency, rawJob);
            row.runs.raw.push(rawBefore);
            for (const [variant, inFlight, job] of variants) {
              row.runs[variant].push(await closedLoop(total, inFlight, job));
              const rawAfter = await closedLoop(total, concurrency, rawJob);
              row.runs.raw.push(rawAfter);
              row.rawAround[variant].push((rawBefore.seconds + rawAfter.seconds) / 2);
              rawBefore = rawAfter;
            }
          }
          rows.push(row);
          console.error(`done: ${example.name} at concurrency ${concurrency}`);
        }
      } finally {
        await amqpBus.close();
        await service.stop();
        await app.close();
        await inProcessBus.close();
        await raw.browser.close();
      }
    }
    console.log('');
    printTables(rows);
    await printBusRoundTrips(vhost.url, examples[0]);
    await printPoolShapes(executablePath, examples[0]);
    await printDefaultsCosts(executablePath, examples);
    await printScreenLayoutCost(executablePath, examples);
  } finally {
    await vhost.delete().catch((error: unknown) => console.error(`could not delete the vhost ${vhost.name}:`, error instanceof Error ? error.message : error));
    await rm(blobDir, { recursive: true, force: true });
  }
}

/** One render.document request/reply with a handler that does nothing: what the transport alone costs. */
async function printBusRoundTrips(amqpUrl: string, example: Example): Promise<void> {
  const settings = loadSettings(messagingSettings, { AMQP_URL: amqpUrl, AMQP_QUEUE_PREFIX: 'round-trip-' });
  const reply = async () => ({ outcome: 'rendered' as const, issues: [], documentName: example.name, pdf: null, renderDurationMs: 0, failure: null });
  const measure = async (requester: MessageBus): Promise<string> => {
    const latencies: number[] = [];
    for (let i = 0; i < 110; i++) {
      const t = process.hrtime.bigint();
      await requester.request(MessageName.RenderDocument, command(example), { timeoutMs: 10_000 });
      if (i >= 10) latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return `${percentile(latencies, 0.5).toFixed(1)} / ${percentile(latencies, 0.95).toFixed(1)}`;
  };
  const inProcess = new InProcessMessageBus(loadSettings(messagingSettings, {}), quiet);
  const consumer = await AmqpMessageBus.connect(settings, quiet);
  const requester = await AmqpMessageBus.connect(settings, quiet);
  try {
    await inProcess.consume(MessageName.RenderDocument, reply, { prefetch: 1 });
    await consumer.consume(MessageName.RenderDocument, reply, { prefetch: 1 });
    console.log('');
    console.log(`Message bus round trip, render.document with the ${example.name} data and a handler that does nothing (p50 / p95 ms over 100):`);
    console.log('| in-process bus | RabbitMQ (AmqpMessageBus, two connections) |');
    console.log('|---|---|');
    console.log(`| ${await measure(inProcess)} | ${await measure(requester)} |`);
  } finally {
    await requester.close();
    await consumer.close();
    await inProcess.close();
  }
}

/**
 * Raw puppeteer PDFs/s for a few pool shapes (browsers × reused pages, all printing at once). Every shape's browsers
 * are started first and the shapes take turns in each round, so a change in machine load hits them all alike.
 */
async function printPoolShapes(executablePath: string, example: Example): Promise<void> {
  const shapes: Array<[number, number]> = [
    [1, 1],
    [1, 2],
    [1, 3],
    [2, 1],
    [2, 2],
  ];
  const total = COUNTS[example.name];
  const launched = await Promise.all(shapes.map(([browsers, pagesEach]) => Promise.all(Array.from({ length: browsers }, () => launchRaw(executablePath, pagesEach)))));
  try {
    const jobs = launched.map((group) => {
      const pages = group.flatMap((l) => l.pages);
      return { inFlight: pages.length, job: (slot: number) => rawPrint(pages[slot], example.compiled).then(() => undefined) };
    });
    for (const { inFlight, job } of jobs) await closedLoop(inFlight * 2, inFlight, job);
    const rates: number[][] = shapes.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, { inFlight, job }] of jobs.entries()) rates[index].push(total / (await closedLoop(total, inFlight, job)).seconds);
    }
    console.log('');
    console.log(`Pool shape, raw puppeteer, ${example.name} (PDFs/s, median of ${ROUNDS} interleaved runs of ${total}):`);
    console.log('| browsers × pages | PDFs/s |');
    console.log('|---|---|');
    for (const [index, [browsers, pagesEach]] of shapes.entries()) console.log(`| ${browsers} × ${pagesEach} | ${median(rates[index]).toFixed(2)} |`);
  } finally {
    await Promise.all(launched.flat().map((l) => l.browser.close()));
  }
}

/** Tagged vs untagged print (raw, one reused page) and the cost pdf-lib would add to set PDF metadata. */
async function printDefaultsCosts(executablePath: string, examples: Example[]): Promise<void> {
  const raw = await launchRaw(executablePath, 1);
  const page = raw.pages[0];
  console.log('');
  console.log('| document | untagged PDFs/s | untagged kB | tagged PDFs/s | tagged kB | tagged time × | pdf-lib load+save ms (untagged / tagged) |');
  console.log('|---|---|---|---|---|---|---|');
  try {
    for (const example of examples) {
      const total = COUNTS[example.name];
      const pdfs: Record<string, Uint8Array> = {};
      const rates: Record<string, number[]> = { false: [], true: [] };
      for (const tagged of [false, true]) pdfs[String(tagged)] = await rawPrint(page, example.compiled, tagged);
      for (let round = 0; round < ROUNDS; round++) {
        for (const tagged of [false, true]) {
          const run = await closedLoop(total, 1, () => rawPrint(page, example.compiled, tagged).then(() => undefined));
          rates[String(tagged)].push(total / run.seconds);
        }
      }
      const figures: Record<string, { rate: number; pdf: Uint8Array }> = {
        false: { rate: median(rates.false), pdf: pdfs.false },
        true: { rate: median(rates.true), pdf: pdfs.true },
      };
      const pdfLibMs = async (pdf: Uint8Array): Promise<number> => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t = process.hrtime.bigint();
          const document = await PDFDocument.load(pdf, { updateMetadata: false });
          document.setTitle(example.name);
          document.setProducer('docrender');
          document.setCreationDate(new Date());
          await document.save();
          times.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
        return median(times);
      };
      const untagged = figures.false;
      const tagged = figures.true;
      console.log(
        `| ${example.name} | ${untagged.rate.toFixed(2)} | ${(untagged.pdf.length / 1024).toFixed(0)} | ${tagged.rate.toFixed(2)} | ${(tagged.pdf.length / 1024).toFixed(0)} | ${(untagged.rate / tagged.rate).toFixed(2)} | ${(await pdfLibMs(untagged.pdf)).toFixed(0)} / ${(await pdfLibMs(tagged.pdf)).toFixed(0)} |`,
      );
    }
  } finally {
    await raw.browser.close();
  }
}

/**
 * What the service's print-only loading (laidOutForPrintOnly) is worth on its own: raw puppeteer, one reused page,
 * printing each document as loaded (laid out for the screen first, as in (a)) and kept off the screen, taking turns.
 * The service's ratio against a raw baseline that did the same is its ratio to (a) divided by this one.
 */
async function printScreenLayoutCost(executablePath: string, examples: Example[]): Promise<void> {
  const raw = await launchRaw(executablePath, 1);
  const page = raw.pages[0];
  console.log('');
  console.log(`Raw puppeteer, one reused page: the document as loaded vs kept off the screen (PDFs/s, median of ${ROUNDS} interleaved runs):`);
  console.log('| document | as loaded (a) | kept off the screen | ratio |');
  console.log('|---|---|---|---|');
  try {
    for (const example of examples) {
      const total = COUNTS[example.name];
      const offScreen: CompiledDocument = { ...example.compiled, html: laidOutForPrintOnly(example.compiled.html) };
      const variants = [example.compiled, offScreen];
      const rates: number[][] = [[], []];
      for (const compiled of variants) await rawPrint(page, compiled);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, compiled] of variants.entries()) {
          rates[index].push(total / (await closedLoop(total, 1, () => rawPrint(page, compiled).then(() => undefined))).seconds);
        }
      }
      const [asLoaded, kept] = rates.map(median);
      console.log(`| ${example.name} | ${asLoaded.toFixed(2)} | ${kept.toFixed(2)} | ${(kept / asLoaded).toFixed(2)} |`);
    }
  } finally {
    await raw.browser.close();
  }
}

runBench(main);
