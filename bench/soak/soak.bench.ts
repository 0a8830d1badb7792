/**
 * `npm run bench:soak` (issue 31 item 3): memory over a long mixed run — a script, not a test; it prints figures and
 * asserts nothing.
 *
 * The stack is the four apps as separate processes (startAsyncStack of @docrender/testing, as bench/e2e) on a fresh
 * PostgreSQL database and RabbitMQ vhost, with the real render service and a production key. The run cycles through a
 * fixed mix until BENCH_SOAK_DOCUMENTS documents have been rendered, with 2 operations in flight:
 *   - a single raw-PDF render of the stored invoice (Accept: application/pdf)            × 4 per cycle
 *   - a sync batch of 5 invoices (JSON envelope)                                          × 1
 *   - stateless renders of the other examples: report (1,000 rows), letter in German,
 *     label, ledger (page-aware tables) and certificate (test key: its font is not
 *     uploaded, an UnresolvedFont Warning a test key prints through)                     × 1 each
 *   - an async job of 10 invoices, enqueue to completion callback                          every 4th cycle
 * Every BENCH_SOAK_EVERY documents it samples the resident memory of each process (RSS of the Node processes; PSS
 * of the render service's Chromium processes, so pages shared between them count once). At the end it prints the
 * samples and, per process, the growth over the second half of the run in MB per 1,000 documents: a plateau is a
 * second-half growth within BENCH_SOAK_PLATEAU_MB (default 5) per 1,000 documents. Chromium is replaced every
 * RENDER_MAX_RENDERS_PER_BROWSER renders, so its column is a sawtooth: read its maxima.
 *
 * Environment (defaults; BENCH_QUICK=1 in brackets): BENCH_SOAK_DOCUMENTS 10000 [600], BENCH_SOAK_EVERY 500 [100],
 * BENCH_SOAK_PLATEAU_MB 5. Settings of the apps as BENCH_APP_<NAME>=value, as in bench/e2e.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { WebhookEvent } from '@docrender/contracts';
import { locateChromium } from '@docrender/render-service';
import { startAsyncStack, treeMemoryMb, type AppName, type AsyncStack } from '@docrender/testing';
import { benchAppOverrides, repositoryRoot } from '../shared/bench-kit';
import { rssMb } from '../e2e/proc-stats';
import { runBench } from '../shared/run-bench';

const QUICK = ['1', 'true', 'yes'].includes((process.env.BENCH_QUICK ?? '').toLowerCase());
const numberFrom = (name: string, normal: number, quick: number): number => Number(process.env[name] ?? (QUICK ? quick : normal));
const DOCUMENTS = numberFrom('BENCH_SOAK_DOCUMENTS', 10_000, 600);
const EVERY = numberFrom('BENCH_SOAK_EVERY', 500, 100);
const PLATEAU_MB = numberFrom('BENCH_SOAK_PLATEAU_MB', 5, 5);
const IN_FLIGHT = 2;
const ASYNC_DOCUMENTS = 10;
const BATCH_DOCUMENTS = 5;

const appOverrides = benchAppOverrides();

/**
 * The gateway and the render service as their images run them (deploy/docker/*.Dockerfile): glibc's mmap threshold
 * kept fixed, so large freed buffers go back to the system.
 */
const IMAGE_MALLOC = { MALLOC_MMAP_THRESHOLD_: '131072' };

type Sample = { documents: number; seconds: number; mb: Record<string, number> };
type Operation = { name: string; documents: number; run(): Promise<void> };

const COLUMNS = ['api-gateway', 'render-service', 'render-service Chromium', 'job-worker', 'webhook-dispatcher'] as const;

function sample(stack: AsyncStack): Record<string, number> {
  const mb: Record<string, number> = {};
  for (const app of ['api-gateway', 'render-service', 'job-worker', 'webhook-dispatcher'] as AppName[]) {
    const pid = stack.processes[app]?.pid;
    if (pid !== undefined) mb[app] = rssMb(pid);
  }
  const renderService = stack.processes['render-service']?.pid;
  if (renderService !== undefined) mb['render-service Chromium'] = treeMemoryMb(renderService).pssMb;
  return mb;
}

/** Least-squares slope of `y` over `x`. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

const f = (n: number, digits = 0): string => (Number.isFinite(n) ? n.toFixed(digits) : '–');

async function main(): Promise<void> {
  const root = repositoryRoot();
  const example = (name: string, file: string): unknown => JSON.parse(readFileSync(path.join(root, 'examples', name, file), 'utf8'));
  const invoiceData = example('invoice', 'data.json') as Record<string, unknown>;
  const executablePath = await locateChromium(process.env.PUPPETEER_EXECUTABLE_PATH);
  const blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-bench-soak-'));
  const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' / ');
  console.log(`soak benchmark — ${new Date().toISOString()} — ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${executablePath}`);
  console.log(`load average at start (1 / 5 / 15 min): ${load()}`);
  console.log(`${DOCUMENTS} documents, ${IN_FLIGHT} operations in flight, a sample every ${EVERY}${Object.keys(appOverrides).length > 0 ? `; overrides ${JSON.stringify(appOverrides)}` : ''}`);

  const stack = await startAsyncStack(
    'bench-soak',
    // a filesystem blob store shared by the processes (no S3 endpoint), rate limiting off
    { S3_ENDPOINT: '', BLOB_DIR: blobDir, RATE_LIMIT_ENABLED: 'false', ...appOverrides },
    {
      renderService: {
        template: {
          templateJson: readFileSync(path.join(root, 'examples/invoice/template.json'), 'utf8'),
          sampleData: JSON.stringify({ data: invoiceData, i18n: {} }),
          translations: null,
        },
        settings: IMAGE_MALLOC,
      },
      settingsOf: { 'api-gateway': IMAGE_MALLOC },
    },
  );
  const failures: string[] = [];
  try {
    const headers = { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' };
    const renderUrl = `${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`;
    let serial = 0;
    const invoice = (): Record<string, unknown> => ({ ...invoiceData, number: `INV-SOAK-${String(++serial).padStart(6, '0')}` });
    const expectPdf = async (what: string, response: Response): Promise<void> => {
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || body.subarray(0, 5).toString() !== '%PDF-') throw new Error(`${what} answered ${response.status}: ${body.toString().slice(0, 300)}`);
    };
    const stateless = (name: string, options: { translations?: string; language?: string; key?: string } = {}): Operation => {
      const body = JSON.stringify({
        template: example(name, 'template.json'),
        data: example(name, 'data.json'),
        ...(options.translations ? { translations: example(name, options.translations) } : {}),
      });
      return {
        name,
        documents: 1,
        run: async () =>
          expectPdf(
            name,
            await fetch(`${stack.gatewayUrl}/v1/render${options.language ? `?language=${options.language}` : ''}`, {
              method: 'POST',
              headers: { ...headers, Authorization: `Bearer ${options.key ?? stack.prodKey}` },
              body,
            }),
          ),
      };
    };
    const single: Operation = {
      name: 'single invoice',
      documents: 1,
      run: async () => expectPdf('single invoice', await fetch(renderUrl, { method: 'POST', headers: { ...headers, Accept: 'application/pdf' }, body: JSON.stringify({ documents: [invoice()] }) })),
    };
    const batch: Operation = {
      name: 'sync batch',
      documents: BATCH_DOCUMENTS,
      run: async () => {
        const response = await fetch(renderUrl, { method: 'POST', headers, body: JSON.stringify({ documents: Array.from({ length: BATCH_DOCUMENTS }, invoice) }) });
        const text = await response.text();
        if (response.status !== 200 || (JSON.parse(text) as { status?: string }).status !== 'ok') throw new Error(`sync batch answered ${response.status}: ${text.slice(0, 300)}`);
      },
    };
    const asyncJob: Operation = {
      name: 'async job',
      documents: ASYNC_DOCUMENTS,
      run: async () => {
        const jobId = await stack.enqueue(stack.prodKey, Array.from({ length: ASYNC_DOCUMENTS }, invoice));
        const completion = await stack.completionOf(jobId, 600_000);
        if (completion.event !== WebhookEvent.Completed) throw new Error(`async job ended with ${completion.event}: ${completion.rawBody.slice(0, 300)}`);
      },
    };
    const cycle: Operation[] = [
      single,
      stateless('report'),
      single,
      batch,
      stateless('letter', { translations: 'translations.json', language: 'de' }),
      single,
      stateless('label'),
      stateless('ledger'),
      single,
      // its custom font is not uploaded here: an UnresolvedFont Warning, which a test key prints through
      stateless('certificate', { key: stack.testKey }),
    ];
    let cycles = 0;
    const plan = function* (): Generator<Operation> {
      for (;;) {
        yield* cycle;
        if (++cycles % 4 === 0) yield asyncJob;
      }
    };

    // warm-up: every operation once, then the baseline sample
    for (const operation of [...cycle, asyncJob]) await operation.run();
    const samples: Sample[] = [];
    const started = Date.now();
    samples.push({ documents: 0, seconds: 0, mb: sample(stack) });
    console.error(`warmed up; load average ${load()}`);

    let done = 0;
    let nextSample = EVERY;
    const operations = plan();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (done < DOCUMENTS) {
          const operation = operations.next().value as Operation;
          try {
            await operation.run();
          } catch (error) {
            failures.push(`${operation.name}: ${error instanceof Error ? error.message : String(error)}`);
          }
          done += operation.documents;
          if (done >= nextSample) {
            nextSample += EVERY;
            samples.push({ documents: done, seconds: (Date.now() - started) / 1000, mb: sample(stack) });
            console.error(`${done} documents, ${f((Date.now() - started) / 1000)} s, load average ${load()}`);
          }
        }
      }),
    );

    console.log(`\nsoak run ${new Date().toISOString()}: ${done} documents in ${f((Date.now() - started) / 1000)} s, ${failures.length} failed operations; load average at end ${load()}\n`);
    console.log(`| documents | s | ${COLUMNS.map((c) => `${c} MB`).join(' | ')} |`);
    console.log(`|---|---|${COLUMNS.map(() => '---').join('|')}|`);
    for (const s of samples) console.log(`| ${s.documents} | ${f(s.seconds)} | ${COLUMNS.map((c) => f(s.mb[c] ?? Number.NaN)).join(' | ')} |`);

    const secondHalf = samples.filter((s) => s.documents >= done / 2);
    console.log('\n| process | baseline MB | max MB | end MB | growth over the second half, MB per 1,000 documents | plateau |');
    console.log('|---|---|---|---|---|---|');
    for (const column of COLUMNS) {
      const values = samples.map((s) => s.mb[column] ?? Number.NaN);
      const growth = slope(secondHalf.map((s) => [s.documents / 1000, s.mb[column] ?? Number.NaN]));
      console.log(
        `| ${column} | ${f(values[0])} | ${f(Math.max(...values))} | ${f(values[values.length - 1])} | ${f(growth, 1)} | ${Number.isFinite(growth) ? (growth <= PLATEAU_MB ? 'yes' : 'no') : '–'} |`,
      );
    }
    for (const failure of failures.slice(0, 10)) console.log(`failed: ${failure}`);
  } catch (error) {
    for (const [name, child] of Object.entries(stack.processes)) console.error(`--- ${name} output (last 3000 characters)\n${child.output().slice(-3000)}`);
    throw error;
  } finally {
    await stack.teardown();
    await rm(blobDir, { recursive: true, force: true });
  }
}

runBench(main);
