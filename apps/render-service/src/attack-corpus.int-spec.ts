import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import request from 'supertest';
import { loadSettings, renderApiSettings } from '@docrender/config';
import { DataRef, Environment, MessageName, RenderDocumentResult } from '@docrender/contracts';
import { NotOkDocument, notOkDocument, notOkDocumentNames, treeMemoryMb } from '@docrender/testing';
import { eventually } from '../test/chromium-processes';
import { readExample, renderCommand, useRenderService } from '../test/render-service.harness';

/**
 * The production budget (RENDER_BUDGET_MS's default). With 20 s, cases that end well inside it on a quiet machine (a
 * step budget reached after 6 s) ran past it on a loaded one: the test must not need a quiet machine.
 */
const BUDGET_MS = 60_000;
/** How long past its deadline a reply may arrive: the reply's own trip over the in-process bus on a busy machine. */
const REPLY_SLACK_MS = 2_000;
/**
 * The probe's bound while a case is in flight (issue 31 item 1: "answers its probes … within 1 s") on a machine with a
 * core to spare. On a loaded machine the bound stretches as the main thread's time does (mainThreadStretch: its
 * time waiting for a core over its time on one) and adds what the machine delays a thread of this process that only
 * keeps time (controlDelay): only what the main thread loses beyond that is the service's doing.
 */
const PROBE_BOUND_MS = 1_000;
/**
 * RSS of this process (where the service runs) after the corpus may exceed its warmed-up baseline by this much. The
 * compile threads live in this process; one that grew for a large document (a 20 MB text, a 200,000-item list) is
 * replaced once it has been idle for 10 s (WorkerPool's retireAfterHeapGrowthMb and retireIdleMs), so each of the two threads keeps at most
 * 64 MB more than at its start, and the memory glibc's allocator took for the documents' text and buffers is not all
 * given back to the system (about 128 MB here). Measured on 2026-11-29 on a loaded 2-core machine: +195, +178 MB.
 */
const RSS_BOUND_MB = 256;
/** How long the process may take, idle after the corpus, to come within RSS_BOUND_MB of its baseline. */
const SETTLE_MS = 30_000;
/**
 * The Chromium tree's private memory (treeMemoryMb: pages no other process maps, so Chromiums of other tests running
 * meanwhile do not move it, as they move PSS) after the corpus may exceed its warmed-up baseline by this much: pages
 * keep their caches between documents (a fresh document every RENDER_FRESH_DOCUMENT_EVERY prints).
 */
const CHROMIUM_BOUND_MB = 100;

/** The gateway's default RENDER_API_INLINE_DATA_MAX_BYTES: larger data goes through the blob store. */
const INLINE_DATA_MAX_BYTES = loadSettings(renderApiSettings, {}).inlineDataMaxBytes;

/**
 * A thread of this process that does nothing but keep time while `during` runs; resolves with the longest its event
 * loop was delayed (ms): what the machine's load alone costs a thread here.
 */
async function controlDelay(during: Promise<unknown>): Promise<number> {
  const control = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const { monitorEventLoopDelay } = require('node:perf_hooks');
     const delay = monitorEventLoopDelay({ resolution: 20 });
     delay.enable();
     const keep = setInterval(() => undefined, 1000);
     parentPort.once('message', () => { delay.disable(); clearInterval(keep); parentPort.postMessage(delay.max / 1e6); parentPort.close(); });`,
    { eval: true },
  );
  await during.catch(() => undefined);
  const answer = new Promise<number>((resolve) => control.once('message', resolve));
  control.postMessage('stop');
  const ms = await answer;
  await control.terminate();
  return ms;
}

/** The main thread's time on a core and waiting for one so far (ns), from /proc/self/task/<pid>/schedstat (Linux). */
function mainThreadSchedule(): { runNs: number; waitNs: number } {
  const [runNs, waitNs] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  return { runNs, waitNs };
}

/** How much longer than its own work the main thread took since `since`: 1 with a core always free. */
function mainThreadStretch(since: { runNs: number; waitNs: number }): number {
  const now = mainThreadSchedule();
  const run = now.runNs - since.runNs;
  return run > 0 ? 1 + (now.waitNs - since.waitNs) / run : 1;
}

/** A full collection: `--expose-gc` switched on for this process, then `gc` taken from a fresh context. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const rssMb = (): number => process.memoryUsage().rss / 2 ** 20;

/**
 * Issue 31 item 7: the attack corpus (libs/template-dsl/src/fixtures/not-ok, docs/testing.md) against the render
 * service with real Chromium, each case a production render command with the 60 s budget, one after another. While each
 * case is in flight the readiness probe is asked again and again and must answer within 1 s each time, the event loop
 * of the service's main thread (this process's) is never held for 1 s, and the invoice example is rendered. Each case ends with its stated outcome and issues, never later than its deadline; after
 * the corpus the memory of this process and of the Chromium tree is back within a stated bound of its baseline.
 */
describe('issue 31 item 7: the attack corpus against the render service (real Chromium, the 60 s budget)', () => {
  const service = useRenderService('attack-corpus', { RENDER_BUDGET_MS: String(BUDGET_MS) });
  const render = (overrides: Parameters<typeof renderCommand>[0]): Promise<RenderDocumentResult> =>
    service.bus.request(MessageName.RenderDocument, renderCommand(overrides), { timeoutMs: BUDGET_MS + 60_000 });
  const invoice = readExample('invoice');
  const renderInvoice = () => render({ template: invoice.template, data: { inline: invoice.data }, translations: invoice.translations, environment: Environment.Production });

  /** Asks the probe again and again until `until` settles; returns each answer's status and latency. */
  async function probeWhile(until: Promise<unknown>): Promise<{ status: number; ms: number }[]> {
    let settled = false;
    const settle = (): void => {
      settled = true;
    };
    until.then(settle, settle);
    const answers: { status: number; ms: number }[] = [];
    do {
      const started = performance.now();
      const response = await request(service.app.getHttpServer()).get('/v1/meta/status');
      answers.push({ status: response.status, ms: performance.now() - started });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } while (!settled);
    return answers;
  }

  /**
   * A case without its grown data, and the data as the gateway hands it over: its JSON text inside the message up to
   * RENDER_API_INLINE_DATA_MAX_BYTES, through the blob store when larger. The grown value is not kept: the service's
   * heap, which is this process's, holds only what the service holds.
   */
  async function handedOver(name: string): Promise<{ attack: Omit<NotOkDocument, 'data'>; data: DataRef }> {
    const { data: grown, ...attack } = notOkDocument(name);
    const json = JSON.stringify(grown);
    if (Buffer.byteLength(json) <= INLINE_DATA_MAX_BYTES) return { attack, data: { json } };
    const blobKey = `orgs/test/data/${Math.random().toString(36).slice(2)}.json`;
    await service.blobStore.put(blobKey, Buffer.from(json), 'application/json');
    return { attack, data: { blobKey } };
  }

  const baseline = { rssMb: 0, chromiumMb: 0 };
  const measured: string[] = [];

  beforeAll(async () => {
    // warm-up: the compile threads have loaded the DSL, the browser's pages have printed
    for (let i = 0; i < 3; i++) expect((await renderInvoice()).outcome).toBe('rendered');
    collectGarbage();
    baseline.rssMb = rssMb();
    baseline.chromiumMb = treeMemoryMb(process.pid).privateMb;
  }, 120_000);

  afterAll(() => {
    // the measurements, for docs/testing.md and the bounds above
    process.stdout.write(`${measured.join('\n')}\n`);
  });

  it.each(notOkDocumentNames())('%s ends with its stated outcome within its budget; meanwhile the probe answers within 1 s and an invoice renders', async (name) => {
    const { attack, data } = await handedOver(name);
    // the test's own garbage (the grown data, its JSON text) collected before the clocks start
    collectGarbage();
    // how long this process's event loop — the service's main thread — was held meanwhile
    const loopDelay = monitorEventLoopDelay({ resolution: 20 });
    loopDelay.enable();
    const schedule = mainThreadSchedule();
    const sent = Date.now();
    const deadline = sent + BUDGET_MS;
    let repliedAt = 0;
    const reply = render({ template: attack.template, data, translations: attack.translations, environment: Environment.Production, deadline }).then((result) => {
      repliedAt = Date.now();
      return result;
    });
    const [result, probes, other, machineDelay] = await Promise.all([reply, probeWhile(reply), renderInvoice(), controlDelay(reply)]);
    loopDelay.disable();
    const stretch = mainThreadStretch(schedule);
    const bound = PROBE_BOUND_MS * stretch + machineDelay;
    const slowestProbe = Math.max(...probes.map((p) => p.ms));
    measured.push(
      `${name}: ${result.outcome} after ${repliedAt - sent} ms; ${probes.length} probes, slowest ${Math.round(slowestProbe)} ms; event loop held up to ${Math.round(loopDelay.max / 1e6)} ms (bound ${Math.round(bound)} ms: stretch ${stretch.toFixed(2)}, a control thread ${Math.round(machineDelay)} ms)`,
    );

    const stated = attack.service;
    expect(result.outcome).toBe(stated.outcome);
    expect(result.issues).toEqual(stated.issues.map((e) => expect.objectContaining({ type: e.type, elementId: e.elementId, description: expect.stringContaining(e.description) })));
    expect(repliedAt).toBeLessThanOrEqual(deadline + REPLY_SLACK_MS);
    expect(probes.every((p) => p.status === 200)).toBe(true);
    expect(loopDelay.max / 1e6).toBeLessThanOrEqual(bound);
    expect(slowestProbe).toBeLessThanOrEqual(bound);
    expect(other.outcome).toBe('rendered');
  }, BUDGET_MS + 90_000);

  it(`after the corpus, this process's RSS comes within ${RSS_BOUND_MB} MB of its baseline within ${SETTLE_MS / 1000} s idle, and the Chromium tree's private memory is within ${CHROMIUM_BOUND_MB} MB`, async () => {
    // idle: a retired compile thread's memory goes when its thread has wound down, this process's at a full collection
    // each turn and Chromium's caches at its own memory reducer's pace, so both are read until they are within their
    // bounds, for at most 30 s
    await eventually(() => {
      collectGarbage();
      return rssMb() - baseline.rssMb <= RSS_BOUND_MB && treeMemoryMb(process.pid).privateMb - baseline.chromiumMb <= CHROMIUM_BOUND_MB;
    }, SETTLE_MS, 500);
    const rss = rssMb();
    const chromium = treeMemoryMb(process.pid).privateMb;
    const { heapUsed, external } = process.memoryUsage();
    measured.push(
      `RSS ${Math.round(baseline.rssMb)} -> ${Math.round(rss)} MB (main heap ${Math.round(heapUsed / 2 ** 20)} MB, external ${Math.round(external / 2 ** 20)} MB); Chromium private ${Math.round(baseline.chromiumMb)} -> ${Math.round(chromium)} MB`,
    );
    expect(rss - baseline.rssMb).toBeLessThanOrEqual(RSS_BOUND_MB);
    expect(chromium - baseline.chromiumMb).toBeLessThanOrEqual(CHROMIUM_BOUND_MB);
  }, SETTLE_MS + 30_000);
});
