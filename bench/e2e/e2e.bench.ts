/**
 * The whole stack against raw Chromium (issue 23): a script, not a test — it prints figures and asserts nothing.
 *
 *   npm run bench:e2e                 (BENCH_QUICK=1 npm run bench:e2e for a small smoke run)
 *
 * The stack is the four apps as separate processes (startAsyncStack of @docrender/testing: api-gateway,
 * render-service with Chromium, job-worker, webhook-dispatcher) on a fresh PostgreSQL database and RabbitMQ vhost,
 * a filesystem blob store shared by the processes, rate limiting off, a production key, documents persisted, and the
 * production defaults for every setting the test stack shortens (outbox polling, webhook timeouts and backoff). The
 * baseline is raw puppeteer in this process (bench/shared/bench-kit): one browser, 2 reused windows, printing the
 * same compiled HTML (examples/invoice) with the same print options.
 *
 * First it times the stack's first two single requests, one at a time (a service just started: its compile threads
 * and Chromium pages unused), then warms up.
 *
 * Each round runs every variant with a raw run just before and just after it (raw runs are shared between
 * neighbours), and a variant's ratio is the mean time of those two raw runs over its own, then the median over the
 * rounds:
 *   - single raw-PDF requests (POST /v1/render/{id}, Accept: application/pdf) with 1, 2 and 4 in flight (1 in
 *     flight against raw with 1 window printing, the others against raw with 2);
 *   - sync batches of BENCH_BATCH_SIZE documents (POST /v1/render/{id}, JSON envelope), 2 batches in flight;
 *   - one async job of all the run's documents, from the enqueue request to the completion callback's arrival.
 * Per variant: PDFs/s (median of the rounds), p50/p95 latency (single requests and raw), documents per print (the render
 * service's docrender_render_documents_per_print over the run, median of the rounds), and the CPU each process used
 * per document, median over the rounds (/proc/<pid>/stat; a run during which the render service replaced a browser
 * after RENDER_MAX_RENDERS_PER_BROWSER renders counts the new browser's start, and is named; Chromium counted apart
 * from the render service's Node process; PostgreSQL's and RabbitMQ's processes are the machine's, so their columns
 * count whatever else used them meanwhile: read them on a quiet machine; the bench's own process, which is every
 * variant's client and the async job's callback receiver, in a column of its own).
 * With both the sync batch and the async job measured, it also prints the async job against the batch of the same
 * round (issue 23 item 2) and the CPU per document by which they differ, process by process.
 * Then memory: RSS of each process (PSS for Chromium's processes) every BENCH_MEMORY_EVERY documents, over
 * BENCH_MEMORY_DOCUMENTS single requests (2 in flight) and then an async job of as many. Then scaling out: sync
 * batches with 1, 2, 4 render-service processes (BENCH_RENDER_SERVICES), each against the raw runs around it.
 *
 * Environment (defaults; BENCH_QUICK=1 in brackets): BENCH_ROUNDS 5 [1], BENCH_DOCUMENTS 80 [40] per run,
 * BENCH_BATCH_SIZE 20, BENCH_MEMORY_DOCUMENTS 1000 [200] (0 skips), BENCH_MEMORY_EVERY 100, BENCH_RENDER_SERVICES
 * "1,2,4" ["1,2"] (empty skips), BENCH_VARIANTS (all; e.g. "batch,async"), BENCH_TAGGED=1 (the invoice with
 * `tagged: true`, raw puppeteer printing it tagged too). Settings of the apps can be given as BENCH_APP_<NAME>=value
 * (e.g. BENCH_APP_JOBS_RENDER_CONCURRENCY=8) to compare them.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { jobsSettings, loadSettings, renderApiSettings, webhookSettings } from '@docrender/config';
import { WebhookEvent } from '@docrender/contracts';
import { locateChromium } from '@docrender/render-service';
import { compileDocument, type Template } from '@docrender/template-dsl';
import { startAsyncStack, treeMemoryMb, waitFor, type AppName, type AppProcess, type AsyncStack, type ReceivedCallback } from '@docrender/testing';
import { parseCallback } from '@docrender/webhooks';
import { benchAppOverrides, closedLoop, launchRaw, loadExample, median, percentile, rawPrint, repositoryRoot, type Run } from '../shared/bench-kit';
import { childrenOf, cpuMs, rssMb, CpuMeter } from './proc-stats';
import { runBench } from '../shared/run-bench';

const QUICK = ['1', 'true', 'yes'].includes((process.env.BENCH_QUICK ?? '').toLowerCase());
const numberFrom = (name: string, normal: number, quick: number): number => Number(process.env[name] ?? (QUICK ? quick : normal));
const ROUNDS = numberFrom('BENCH_ROUNDS', 5, 1);
const DOCUMENTS = numberFrom('BENCH_DOCUMENTS', 80, 40);
const BATCH_SIZE = numberFrom('BENCH_BATCH_SIZE', 20, 20);
const MEMORY_DOCUMENTS = numberFrom('BENCH_MEMORY_DOCUMENTS', 1000, 200);
const MEMORY_EVERY = numberFrom('BENCH_MEMORY_EVERY', 100, 100);
const RENDER_SERVICES = (process.env.BENCH_RENDER_SERVICES ?? (QUICK ? '1,2' : '1,2,4'))
  .split(',')
  .filter((s) => s.trim() !== '')
  .map(Number);
/** BENCH_VARIANTS: a comma-separated subset of single1, single2, single4, batch, async (default: all). */
const VARIANTS = process.env.BENCH_VARIANTS ? process.env.BENCH_VARIANTS.split(',').map((v) => v.trim()) : null;
/** BENCH_TAGGED=1: accessible (tagged) invoices, the stack's and raw puppeteer's. */
const TAGGED = process.env.BENCH_TAGGED === '1';
const RAW_WINDOWS = 2;
const ASYNC_TIMEOUT_MS = 1_800_000;

const appOverrides = benchAppOverrides();

/** What one process used, in CPU milliseconds, counted apart. */
type Cpu = Record<string, number>;

type VariantKey = 'single1' | 'single2' | 'single4' | 'batch' | 'async';
type Variant = { key: VariantKey; label: string; rawInFlight: number; run(): Promise<Run> };

/** A variant's runs: each round's run, the raw time around it, the CPU each process used in it and the documents per print. */
type Measured = { runs: Run[]; rawAround: number[]; cpu: Cpu[]; perPrint: number[] };

async function main(): Promise<void> {
  const root = repositoryRoot();
  const example = loadExample(root, 'invoice');
  const invoiceTemplate = { ...(example.template as Template), ...(TAGGED ? { tagged: true } : {}) };
  const invoice = { ...example, template: invoiceTemplate, compiled: compileDocument({ template: invoiceTemplate, data: example.data }) };
  const executablePath = await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH);
  const blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-bench-e2e-'));
  const defaults = { jobs: loadSettings(jobsSettings, {}), webhooks: loadSettings(webhookSettings, {}) };
  const settings: Record<string, string> = {
    // a filesystem blob store shared by the processes (no S3 endpoint), rate limiting off
    S3_ENDPOINT: '',
    BLOB_DIR: blobDir,
    RATE_LIMIT_ENABLED: 'false',
    // the production defaults of what the test stack shortens
    JOBS_OUTBOX_POLL_MS: String(defaults.jobs.outboxPollMs),
    WEBHOOK_BACKOFF_SCALE: String(defaults.webhooks.backoffScale),
    WEBHOOK_ATTEMPT_TIMEOUT_MS: String(defaults.webhooks.attemptTimeoutMs),
    ...appOverrides,
  };
  const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' / ');
  console.log(`end-to-end benchmark — ${new Date().toISOString()} — ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${executablePath}`);
  console.log(`load average at start (1 / 5 / 15 min): ${load()}`);
  console.log(
    `${ROUNDS} rounds of ${DOCUMENTS} ${TAGGED ? 'tagged ' : ''}invoices per run; batches of ${BATCH_SIZE}; memory over ${MEMORY_DOCUMENTS} documents every ${MEMORY_EVERY}; render services ${RENDER_SERVICES.join(', ') || '(skipped)'}`,
  );
  console.log(
    `app settings: RENDER_API_BATCH_CONCURRENCY=${loadSettings(renderApiSettings, settings).batchConcurrency}, JOBS_RENDER_CONCURRENCY=${loadSettings(jobsSettings, settings).renderConcurrency}, JOBS_CONCURRENT_JOBS=${loadSettings(jobsSettings, settings).concurrentJobs}${Object.keys(appOverrides).length > 0 ? `; overrides ${JSON.stringify(appOverrides)}` : ''}`,
  );

  const stack = await startAsyncStack('bench-e2e', settings, {
    renderService: {
      template: {
        templateJson: TAGGED ? JSON.stringify(invoiceTemplate) : readFileSync(path.join(root, 'examples/invoice/template.json'), 'utf8'),
        sampleData: JSON.stringify({ data: invoice.data, i18n: {} }),
        translations: null,
      },
    },
  });
  const raw = await launchRaw(executablePath, RAW_WINDOWS);
  const rawBrowserPid = raw.browser.process()?.pid ?? -1;
  try {
    const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({ ...(invoice.data as Record<string, unknown>), number: `INV-E2E-${String(i + 1).padStart(5, '0')}` }));
    const headers = { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' };
    const renderUrl = `${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`;
    const singleBody = JSON.stringify({ documents: [documents[0]] });
    const single = async (): Promise<void> => {
      const response = await fetch(renderUrl, { method: 'POST', headers: { ...headers, Accept: 'application/pdf' }, body: singleBody });
      const pdf = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error(`single render answered ${response.status}: ${pdf.toString().slice(0, 300)}`);
    };
    const batchBodies = Array.from({ length: Math.ceil(DOCUMENTS / BATCH_SIZE) }, (_, i) => JSON.stringify({ documents: documents.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE) }));
    let nextBatch = 0;
    const batch = async (): Promise<void> => {
      const body = batchBodies[nextBatch++ % batchBodies.length];
      const response = await fetch(renderUrl, { method: 'POST', headers, body });
      const text = await response.text();
      const envelope = JSON.parse(text) as { status?: string };
      if (response.status !== 200 || envelope.status !== 'ok') throw new Error(`sync batch answered ${response.status}: ${text.slice(0, 300)}`);
    };
    const asyncPhases: Array<{ accepted: number; firstRender: number; lastRendered: number; firstProgress: number; lastProgress: number; completed: number; count: number }> = [];
    const asyncJob = async (count: number): Promise<Run> => {
      const firstCallback = stack.receiver.received.length;
      const started = Date.now();
      const jobId = await stack.enqueue(stack.prodKey, Array.from({ length: count }, (_, i) => documents[i % documents.length]));
      const accepted = Date.now();
      const completion = await completionOf(stack, jobId);
      if (completion.event !== WebhookEvent.Completed) throw new Error(`async job ended with ${completion.event}: ${completion.rawBody.slice(0, 300)}`);
      const progress = stack.receiver.received.slice(firstCallback).filter((r) => r.event === WebhookEvent.Progress);
      const firstProgress = progress.length > 0 ? progress[0].receivedAt : completion.receivedAt;
      const lastProgress = progress.length > 0 ? progress[progress.length - 1].receivedAt : completion.receivedAt;
      // when the render service took the first document and when the job worker had the last one's reply (the job
      // worker's clock: renderedAt is stamped on the reply, renderDuration is the render service's own time)
      const renders = progress.map((p) => parseCallback(p.rawBody).body).flatMap((b) => ('document' in b ? [b.document] : []));
      const renderedAt = renders.map((d) => Date.parse(d.renderedAt));
      const firstRender = renders.length > 0 ? Math.min(...renders.map((d, i) => renderedAt[i] - d.renderDuration)) : completion.receivedAt;
      const lastRendered = renders.length > 0 ? Math.max(...renderedAt) : completion.receivedAt;
      asyncPhases.push({
        accepted: accepted - started,
        firstRender: firstRender - started,
        lastRendered: lastRendered - started,
        firstProgress: firstProgress - started,
        lastProgress: lastProgress - started,
        completed: completion.receivedAt - started,
        count,
      });
      return { seconds: (completion.receivedAt - started) / 1000, latenciesMs: [] };
    };
    const rawRun = (inFlight: number, total = DOCUMENTS): Promise<Run> => closedLoop(total, inFlight, (slot) => rawPrint(raw.pages[slot], invoice.compiled).then(() => undefined));

    const allVariants: Variant[] = [
      { key: 'single1', label: 'single raw-PDF requests, 1 in flight', rawInFlight: 1, run: () => closedLoop(DOCUMENTS, 1, single) },
      { key: 'single2', label: 'single raw-PDF requests, 2 in flight', rawInFlight: RAW_WINDOWS, run: () => closedLoop(DOCUMENTS, 2, single) },
      { key: 'single4', label: 'single raw-PDF requests, 4 in flight', rawInFlight: RAW_WINDOWS, run: () => closedLoop(DOCUMENTS, 4, single) },
      { key: 'batch', label: `sync batches of ${BATCH_SIZE}, 2 in flight`, rawInFlight: RAW_WINDOWS, run: () => closedLoop(batchBodies.length, 2, batch) },
      { key: 'async', label: `one async job of ${DOCUMENTS}, enqueue to completed`, rawInFlight: RAW_WINDOWS, run: () => asyncJob(DOCUMENTS) },
    ];
    const variants = allVariants.filter((v) => VARIANTS === null || VARIANTS.includes(v.key));

    // the first requests on the fresh stack, one at a time (what a service just started or scaled out answers with),
    // then the warm-up: Chromium pages of both sides, connections, caches
    const firstRequestsMs: number[] = [];
    for (let i = 0; i < 2; i++) {
      const started = process.hrtime.bigint();
      await single();
      firstRequestsMs.push(Math.round(Number(process.hrtime.bigint() - started) / 1e6));
    }
    console.log(`first single requests on the fresh stack, one at a time: ${firstRequestsMs.join(' ms, ')} ms`);
    await rawRun(RAW_WINDOWS, RAW_WINDOWS * 4);
    await closedLoop(4, 2, single);
    await batch();
    await asyncJob(Math.min(DOCUMENTS, 8));
    console.error(`warmed up; load average ${load()}`);

    const processes = (): Array<[string, AppProcess]> => {
      const named: Array<[string, AppProcess]> = [];
      for (const app of ['api-gateway', 'render-service', 'job-worker', 'webhook-dispatcher'] as AppName[]) {
        const child = stack.processes[app];
        if (child) named.push([app, child]);
      }
      return named;
    };
    /** Starts counting each process's CPU time; the returned function stops, notes a browser launched meanwhile under `label`, and returns what each used. */
    const countCpu = (): ((label: string) => Cpu) => {
      // the bench process itself: the clients of every variant, the callback receiver of the async job, raw puppeteer's driver
      const own: Cpu = { bench: cpuMs(process.pid) };
      const trees: Record<string, CpuMeter> = {
        // the browser process too: the render service's tree holds its browsers' (its own Node process is counted apart)
        'raw Chromium': CpuMeter.tree(rawBrowserPid, true).start(),
        PostgreSQL: CpuMeter.named(/^postgres$/).start(),
        RabbitMQ: CpuMeter.named(/^(beam\.smp|erl_child_setup|epmd)$/).start(),
      };
      for (const [name, child] of processes()) {
        own[name] = cpuMs(child.pid);
        if (name === 'render-service') trees['render-service Chromium'] = CpuMeter.tree(child.pid).start();
      }
      const pids: Record<string, number> = { bench: process.pid, ...Object.fromEntries(processes().map(([name, child]) => [name, child.pid])) };
      const renderService = stack.processes['render-service']?.pid;
      const browsersBefore = renderService === undefined ? [] : childrenOf(renderService);
      return (label) => {
        const used: Cpu = {};
        for (const name of Object.keys(own)) used[name] = cpuMs(pids[name]) - own[name];
        for (const [name, meter] of Object.entries(trees)) used[name] = meter.stop();
        const launched = renderService === undefined ? [] : childrenOf(renderService).filter((pid) => !browsersBefore.includes(pid));
        if (launched.length > 0) browserLaunches.push(label);
        return used;
      };
    };
    /** The measured runs during which the render service launched a browser (a replacement after RENDER_MAX_RENDERS_PER_BROWSER). */
    const browserLaunches: string[] = [];
    const rawRuns = new Map<number, Run[]>();
    const rawCpu: Record<number, Measured> = {};
    const measured = new Map<VariantKey, Measured>(variants.map((v) => [v.key, { runs: [], rawAround: [], cpu: [], perPrint: [] }]));
    const timedRaw = async (inFlight: number): Promise<Run> => {
      const counted = countCpu();
      const run = await rawRun(inFlight);
      rawRuns.set(inFlight, [...(rawRuns.get(inFlight) ?? []), run]);
      rawCpu[inFlight] ??= { runs: [], rawAround: [], cpu: [], perPrint: [] };
      rawCpu[inFlight].cpu.push(counted(`raw, ${inFlight} window${inFlight === 1 ? '' : 's'}`));
      return run;
    };
    for (let round = 0; round < ROUNDS; round++) {
      let previous: { inFlight: number; run: Run } | null = null;
      for (const variant of variants) {
        const before: Run = previous?.inFlight === variant.rawInFlight ? previous.run : await timedRaw(variant.rawInFlight);
        const counted = countCpu();
        const printsBefore = await printsOf(stack);
        const run = await variant.run();
        const m = measured.get(variant.key) as Measured;
        m.cpu.push(counted(`${variant.key}, round ${round + 1}`));
        m.perPrint.push(documentsPerPrint(printsBefore, await printsOf(stack)));
        m.runs.push(run);
        const after = await timedRaw(variant.rawInFlight);
        m.rawAround.push((before.seconds + after.seconds) / 2);
        previous = { inFlight: variant.rawInFlight, run: after };
      }
      console.error(`round ${round + 1} of ${ROUNDS} done; load average ${load()}`);
    }
    printThroughput(variants, measured, rawRuns, rawCpu);
    if (browserLaunches.length > 0) {
      console.log(
        `the render service launched a browser (replacing one after RENDER_MAX_RENDERS_PER_BROWSER renders) during: ${browserLaunches.join('; ')} — ` +
          'that run counts the new browser\'s start and first renders; the medians over the rounds keep it out of the columns',
      );
    }
    const timed = asyncPhases.filter((p) => p.count === DOCUMENTS);
    if (timed.length > 0) {
      const ms = (pick: (p: (typeof timed)[number]) => number): string => f(median(timed.map(pick)), 0);
      console.log(
        `async job of ${DOCUMENTS} (median of ${timed.length}): 202 after ${ms((p) => p.accepted)} ms, first document taken by the render service after ${ms((p) => p.firstRender)} ms, ` +
          `first progress callback after ${ms((p) => p.firstProgress)} ms, last document's reply after ${ms((p) => p.lastRendered)} ms, last progress callback after ${ms((p) => p.lastProgress)} ms, ` +
          `completion callback after ${ms((p) => p.completed)} ms`,
      );
    }
    console.log(`load average after the rounds: ${load()}\n`);

    if (MEMORY_DOCUMENTS > 0) await measureMemory(stack, processes, single, asyncJob);
    if (RENDER_SERVICES.length > 0) await measureScaling(stack, batch, batchBodies.length, () => timedRaw(RAW_WINDOWS));
    console.log(`load average at the end: ${load()}`);
  } catch (error) {
    for (const [name, child] of Object.entries(stack.processes)) console.error(`--- ${name} output (last 3000 characters)\n${child.output().slice(-3000)}`);
    throw error;
  } finally {
    await raw.browser.close();
    await stack.teardown();
    await rm(blobDir, { recursive: true, force: true });
  }
}

/**
 * The completion callback of a job, looked for among the callbacks that arrived since the last look (the test
 * stack's completionOf parses every callback received on each poll: with thousands of progress callbacks that is
 * CPU the bench would take from the stack it measures).
 */
async function completionOf(stack: AsyncStack, jobId: string): Promise<ReceivedCallback> {
  let seen = 0;
  return waitFor(
    `the completion callback of ${jobId}`,
    () => {
      const received = stack.receiver.received;
      for (; seen < received.length; seen++) {
        const callback = received[seen];
        if (callback.event !== WebhookEvent.Progress && callback.signatureFailure === null && parseCallback(callback.rawBody).body.jobId === jobId) return callback;
      }
      return undefined;
    },
    ASYNC_TIMEOUT_MS,
    20,
  );
}

/** Counts the progress callbacks that arrive from now on. */
function progressCounter(stack: AsyncStack): () => number {
  let seen = stack.receiver.received.length;
  let count = 0;
  return () => {
    const received = stack.receiver.received;
    for (; seen < received.length; seen++) if (received[seen].event === WebhookEvent.Progress) count++;
    return count;
  };
}

/** CPU milliseconds per document a process used in a variant's runs, median over the runs (one run that replaced a browser does not move it). */
const cpuPerDocument = (m: Measured, column: string): number => median(m.cpu.map((used) => (used[column] ?? 0) / DOCUMENTS));

const f = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

function table(header: string[], lines: string[][]): void {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
}

const latency = (runs: Run[]): string => {
  const all = runs.flatMap((r) => r.latenciesMs);
  return all.length === 0 ? '' : `${f(percentile(all, 0.5), 0)} / ${f(percentile(all, 0.95), 0)}`;
};

/** The render service's docrender_render_documents_per_print so far: documents and prints. */
async function printsOf(stack: AsyncStack): Promise<{ documents: number; prints: number }> {
  const port = (stack.processes['render-service'] as AppProcess).env.RENDER_SERVICE_PORT;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const read = (series: string): number => Number(new RegExp(`^docrender_render_documents_per_print_${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { documents: read('sum'), prints: read('count') };
}

/** Documents per print between two readings of printsOf (a sync batch of 20 printed in one print: 20). */
function documentsPerPrint(before: { documents: number; prints: number }, after: { documents: number; prints: number }): number {
  return (after.documents - before.documents) / Math.max(1, after.prints - before.prints);
}

function printThroughput(variants: Variant[], measured: Map<VariantKey, Measured>, rawRuns: Map<number, Run[]>, rawCpu: Record<number, Measured>): void {
  const rate = (runs: Run[]): number => median(runs.map((r) => DOCUMENTS / r.seconds));
  // PostgreSQL and RabbitMQ are the machine's: their columns count everything they did meanwhile (quiet machine only)
  const cpuColumns = ['api-gateway', 'render-service', 'render-service Chromium', 'job-worker', 'webhook-dispatcher', 'PostgreSQL', 'RabbitMQ', 'raw Chromium', 'bench'];
  const cpuCells = (m: Measured): string[] => cpuColumns.map((c) => f(cpuPerDocument(m, c), 1));
  console.log(
    `\nThroughput (PDFs/s, median of ${ROUNDS} rounds), ratio to raw (each run against the raw runs just before and after it, median over the rounds), latency p50 / p95 ms, CPU ms per document (median over the runs):`,
  );
  const lines: string[][] = [];
  for (const inFlight of [...rawRuns.keys()].sort()) {
    const runs = rawRuns.get(inFlight) as Run[];
    lines.push([`raw puppeteer, ${inFlight} window${inFlight === 1 ? '' : 's'} printing`, f(rate(runs), 2), '1.00', latency(runs), '1.00', ...cpuCells(rawCpu[inFlight])]);
  }
  for (const variant of variants) {
    const m = measured.get(variant.key) as Measured;
    const ratio = median(m.runs.map((run, round) => m.rawAround[round] / run.seconds));
    lines.push([variant.label, f(rate(m.runs), 2), f(ratio, 2), variant.key.startsWith('single') ? latency(m.runs) : '', f(median(m.perPrint), 2), ...cpuCells(m)]);
  }
  table(['variant', 'PDFs/s', 'ratio to raw', 'p50 / p95 ms', 'documents per print', ...cpuColumns.map((c) => `CPU ${c}`)], lines);
  printAsyncAgainstBatch(measured, cpuColumns.filter((c) => c !== 'raw Chromium' && c !== 'bench'));
}

/**
 * Issue 23 item 2 read off the run: the async job against the sync batch of the same round (batch time per document
 * over async time per document, median over the rounds: a paired ratio, so the machine's drift between rounds cancels
 * out), and where an async document's CPU differs from a batch document's, process by process.
 */
function printAsyncAgainstBatch(measured: Map<VariantKey, Measured>, stackColumns: string[]): void {
  const batch = measured.get('batch');
  const job = measured.get('async');
  if (!batch || !job || batch.runs.length === 0 || job.runs.length === 0) return;
  const paired = median(job.runs.map((run, round) => batch.runs[round].seconds / run.seconds));
  // paired by round as well: what the async run of a round used beyond the batch run of that round, median over the rounds
  const difference = (c: string): number => median(job.cpu.map((used, round) => ((used[c] ?? 0) - (batch.cpu[round][c] ?? 0)) / DOCUMENTS));
  const differences = stackColumns.map((c) => ({ c, ms: difference(c) })).filter((d) => Math.abs(d.ms) >= 0.05);
  const total = median(job.cpu.map((used, round) => stackColumns.reduce((sum, c) => sum + (used[c] ?? 0) - (batch.cpu[round][c] ?? 0), 0) / DOCUMENTS));
  const batchTotal = median(batch.cpu.map((used) => stackColumns.reduce((sum, c) => sum + (used[c] ?? 0), 0) / DOCUMENTS));
  console.log(
    `async job against the sync batch of the same round (median of ${job.runs.length}): ${f(paired, 2)}; ` +
      `CPU per document, async minus batch (median over the rounds): ${differences.map((d) => `${d.c} ${d.ms >= 0 ? '+' : ''}${f(d.ms, 1)}`).join(', ')}; ` +
      `in all ${total >= 0 ? '+' : ''}${f(total, 1)} ms on the batch's ${f(batchTotal, 1)} ms; ` +
      `and the bench process on the same cores (the batch's client; the job's client and callback receiver) ${difference('bench') >= 0 ? '+' : ''}${f(difference('bench'), 1)}`,
  );
}

/** RSS of each process (PSS of the render service's Chromium) every MEMORY_EVERY documents, single requests then an async job. */
async function measureMemory(stack: AsyncStack, processes: () => Array<[string, AppProcess]>, single: () => Promise<void>, asyncJob: (count: number) => Promise<Run>): Promise<void> {
  const names = processes().map(([name]) => name);
  const sample = (documents: string): string[] => {
    const cells = [documents];
    for (const [name, child] of processes()) {
      cells.push(f(rssMb(child.pid), 0));
      if (name === 'render-service') cells.push(f(treeMemoryMb(child.pid).pssMb, 0));
    }
    return cells;
  };
  const header = ['documents', ...names.flatMap((n) => (n === 'render-service' ? [`${n} RSS MB`, 'its Chromium PSS MB'] : [`${n} RSS MB`]))];
  const lines: string[][] = [sample('0 (single requests, 2 in flight)')];
  for (let done = 0; done < MEMORY_DOCUMENTS; ) {
    const chunk = Math.min(MEMORY_EVERY, MEMORY_DOCUMENTS - done);
    await closedLoop(chunk, 2, single);
    done += chunk;
    lines.push(sample(String(done)));
  }
  // then one async job of as many documents, sampled as its progress callbacks arrive
  const progress = progressCounter(stack);
  lines.push(sample(`0 (async job of ${MEMORY_DOCUMENTS})`));
  let settled = false;
  const job = asyncJob(MEMORY_DOCUMENTS).finally(() => (settled = true));
  for (let next = MEMORY_EVERY; next < MEMORY_DOCUMENTS; next += MEMORY_EVERY) {
    await waitFor(`${next} progress callbacks`, () => (settled || progress() >= next ? true : undefined), ASYNC_TIMEOUT_MS, 100);
    if (settled) break;
    lines.push(sample(String(next)));
  }
  await job;
  lines.push(sample(`${MEMORY_DOCUMENTS} (job completed)`));
  console.log(`Memory: RSS of each process (the render service's Chromium: PSS of its processes) every ${MEMORY_EVERY} documents:`);
  table(header, lines);
  console.log('');
}

/** Sync batches with 1, 2, 4 render-service processes, each against the raw runs around it. */
async function measureScaling(stack: AsyncStack, batch: () => Promise<void>, batches: number, rawRun: () => Promise<Run>): Promise<void> {
  const services: AppProcess[] = [stack.processes['render-service'] as AppProcess];
  const lines: string[][] = [];
  try {
    for (const count of RENDER_SERVICES) {
      while (services.length < count) services.push(await stack.start('render-service'));
      await closedLoop(Math.min(batches, 2), 2, batch); // warm the new pages
      const rates: number[] = [];
      const ratios: number[] = [];
      let serviceCpu = 0;
      let chromiumCpu = 0;
      let before = await rawRun();
      for (let round = 0; round < ROUNDS; round++) {
        const cpuBefore = services.map((s) => ({ own: cpuMs(s.pid), tree: CpuMeter.tree(s.pid).start() }));
        const run = await closedLoop(batches, 2, batch);
        services.forEach((s, i) => {
          serviceCpu += cpuMs(s.pid) - cpuBefore[i].own;
          chromiumCpu += cpuBefore[i].tree.stop();
        });
        const after = await rawRun();
        rates.push(DOCUMENTS / run.seconds);
        ratios.push((before.seconds + after.seconds) / 2 / run.seconds);
        before = after;
      }
      const documents = ROUNDS * DOCUMENTS;
      lines.push([String(count), f(median(rates), 2), f(median(ratios), 2), f(serviceCpu / documents, 1), f(chromiumCpu / documents, 1), f(1000 / ((serviceCpu + chromiumCpu) / documents), 1)]);
      console.error(`scaling: ${count} render services done; load average ${loadavg()[0].toFixed(1)}`);
    }
  } finally {
    await Promise.allSettled(services.slice(1).map((s) => s.stop('SIGTERM', 15_000)));
  }
  console.log(`Scaling out: sync batches of ${BATCH_SIZE}, 2 in flight (RENDER_API_BATCH_CONCURRENCY each), against raw puppeteer with ${RAW_WINDOWS} windows; each render service 1 browser, its default pages:`);
  table(['render services', 'PDFs/s', 'ratio to raw', 'render-service Node CPU ms/doc', 'Chromium CPU ms/doc', 'documents per CPU-second (render side)'], lines);
  console.log('');
}

runBench(main);
