/**
 * The webhook dispatcher's CPU per callback (issue 23 item 2), measured apart from the rest of the stack: the
 * dispatcher as its own process (DispatcherStand of @docrender/testing) delivering progress-sized callbacks to a
 * verifying receiver at a steady rate (as an async job's progress callbacks come, one at a time). Its CPU
 * (/proc/<pid>/stat) over each round over the callbacks delivered, the share of it the process uses idle, and the CPU
 * of its PostgreSQL backends. A script, not a test. At a steady 20/s a callback costs about twice what it costs in a
 * burst (every event wakes a cold process), and a young process more than one that has run thousands (V8 compiles the
 * path as it gets hot): compare builds with the same settings only.
 *
 *   npm run bench:dispatcher
 *
 * Environment: BENCH_ROUNDS 5, BENCH_CALLBACKS 200 per round, BENCH_RATE 20 callbacks/s, BENCH_WARM_UP 100 callbacks
 * (sent at 200/s), BENCH_OUTPUT=1 prints the dispatcher's output, BENCH_APP_<SETTING>=value for the dispatcher (e.g.
 * BENCH_APP_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessageName } from '@docrender/contracts';
import { startDispatcherStand, waitFor } from '@docrender/testing';
import { benchAppOverrides, median } from '../shared/bench-kit';
import { cpuMs } from '../e2e/proc-stats';
import { runBench } from '../shared/run-bench';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 100);
const appOverrides = benchAppOverrides();

/** A progress callback's body the size of an invoice's (spec 2.10, no documentBase64). */
function progressBody(jobId: string, index: number): string {
  return JSON.stringify({
    jobId,
    processed: index + 1,
    requestedCount: 80,
    documentIndex: index,
    document: {
      id: randomUUID(),
      documentName: `INV-E2E-${String(index + 1).padStart(5, '0')}.pdf`,
      templateId: randomUUID(),
      versionNumber: 3,
      environment: 'production',
      fileSizeBytes: 48213,
      pageCount: 1,
      renderedAt: new Date().toISOString(),
      renderDuration: 61,
      viewUrl: `https://docs.example.com/v1/documents/${randomUUID()}/view?signature=${'a'.repeat(64)}`,
      documentType: 'template',
      language: 'en',
      documentBase64: null,
      documentIndex: index,
    },
  });
}

async function main(): Promise<void> {
  const stand = await startDispatcherStand('bench-dispatcher', { EGRESS_ALLOW_PRIVATE: 'true', EGRESS_ALLOW_HTTP: 'true', ...appOverrides });
  const pid = stand.dispatcher.pid;
  let index = 0;
  const run = async (count: number, rate = RATE): Promise<void> => {
    const before = stand.receiver.received.length;
    const started = Date.now();
    for (let i = 0; i < count; i++) {
      const command = stand.progressCallback('/hooks/default', progressBody(stand.jobId, index++));
      await stand.bus.publish(MessageName.DeliverWebhook, command, { messageId: command.deliveryId });
      const due = started + ((i + 1) * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
    }
    await waitFor(`${count} callbacks`, () => (stand.receiver.received.length >= before + count ? true : undefined), 120_000, 20);
    await sleep(300); // the last attempts' records
  };
  try {
    await run(WARM_UP, 200);
    // idle: what the process uses with nothing to do (timers, metrics), over a longer spell than a tick of /proc
    const idleStart = cpuMs(pid);
    const idleStarted = performance.now();
    await sleep(5_000);
    const idlePerMs = (cpuMs(pid) - idleStart) / (performance.now() - idleStarted);
    // the dispatcher's PostgreSQL backends (its pool's connections, which come and go; the bench's own is left out),
    // followed every 200 ms: a backend's CPU counts from when it is first seen to when it is last seen
    const backendCpu = new Map<number, { first: number; last: number }>();
    const followBackends = async (): Promise<void> => {
      const rows = (await stand.infra.db.dataSource.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)) as { pid: number }[];
      for (const { pid: backend } of rows) {
        const used = cpuMs(backend);
        const seen = backendCpu.get(backend);
        if (seen === undefined) backendCpu.set(backend, { first: used, last: used });
        else if (used > 0) seen.last = used;
      }
    };
    const postgresMs = async (): Promise<number> => {
      await followBackends();
      return [...backendCpu.values()].reduce((sum, b) => sum + b.last - b.first, 0);
    };
    const follower = setInterval(() => void followBackends(), 200);
    const perCallback: number[] = [];
    const postgresPerCallback: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = cpuMs(pid);
      const postgresBefore = await postgresMs();
      const started = performance.now();
      await run(CALLBACKS);
      const elapsed = performance.now() - started;
      const used = cpuMs(pid) - cpuBefore;
      perCallback.push(used / CALLBACKS);
      postgresPerCallback.push(((await postgresMs()) - postgresBefore) / CALLBACKS);
      console.log(`round ${round + 1}: ${(used / CALLBACKS).toFixed(3)} ms per callback, its PostgreSQL backends ${postgresPerCallback[round].toFixed(3)} ms (${(elapsed / 1000).toFixed(1)} s)`);
    }
    clearInterval(follower);
    const gross = median(perCallback);
    const idle = (idlePerMs * 1000) / RATE;
    const failures = stand.receiver.received.filter((r) => r.signatureFailure !== null).length;
    console.log(
      `dispatcher CPU per callback: ${gross.toFixed(3)} ms (median of ${ROUNDS} rounds of ${CALLBACKS} at ${RATE}/s), of which idle ${idle.toFixed(3)} ms (${(idlePerMs * 1000).toFixed(1)} ms/s with nothing to do); its PostgreSQL backends ${median(postgresPerCallback).toFixed(3)} ms (${backendCpu.size} backends seen); signature failures ${failures}`,
    );
    if (process.env.BENCH_OUTPUT) console.log(stand.dispatcher.output());
  } finally {
    await stand.teardown();
  }
}

runBench(main);
