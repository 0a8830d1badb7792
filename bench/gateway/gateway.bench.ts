/**
 * Gateway overhead (issue 5, "Benchmark bench/gateway"): p50/p95 latency and throughput of one invoice render
 * (examples/invoice, production key) from one run, two ways:
 *   1. through the gateway:   POST /v1/render/{templateId} with Accept: application/pdf (persisted: a stored document,
 *                             credit, signed link), the PDF in the answer;
 *   2. the render service alone: a render.document request on the bus with the same template, data and settings,
 *                             asking for the PDF inline as the gateway does (RENDER_API_INLINE_PDF_MAX_BYTES), read
 *                             from the blob store only when it does not come back inline (the PDF stays stored,
 *                             as the gateway's does; the bench's blob directory is removed at the end).
 * Both run on the real apps as separate processes (api-gateway, render-service with Chromium), PostgreSQL at
 * 127.0.0.1:5432, RabbitMQ at 127.0.0.1:5672 (a fresh vhost) and a filesystem blob store shared by the processes.
 * Latency: sequential requests, the two ways interleaved so drift hits both alike. Throughput: BENCH_CONCURRENCY
 * requests in flight for BENCH_SECONDS per way. Prints the figures; asserts nothing.
 * Run: npm run bench:gateway   (BENCH_ITERATIONS, BENCH_CONCURRENCY, BENCH_SECONDS override 100, 4, 10).
 * NODE_OPTIONS, when set, is handed to the apps (e.g. --cpu-prof).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings, renderApiSettings, renderBudgetSettings } from '@docrender/config';
import { Environment, MessageName, type RenderDocumentCommand } from '@docrender/contracts';
import { createMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { provisionOrganisation } from '@docrender/persistence';
import { FilesystemBlobStore } from '@docrender/storage';
import { createRabbitVhost, createTestDatabase, freePort, startReadyAppProcess, statusUrl, TEST_API_KEY_PEPPER, type AppProcess } from '@docrender/testing';
import { repositoryRoot } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP = 15;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

type Way = { name: string; once(): Promise<void> };

/** Requests completed per second with `concurrency` in flight for `seconds`. */
async function throughput(way: Way, concurrency: number, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await way.once();
        done++;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

async function main(): Promise<void> {
  const root = repositoryRoot();
  const logger = new JsonLogger('bench-gateway', 'error');
  const db = await createTestDatabase();
  const vhost = await createRabbitVhost('bench-gateway');
  const blobDir = await mkdtemp(path.join(tmpdir(), 'bench-gateway-blobs-'));
  const apps: AppProcess[] = [];
  const env: Record<string, string> = { DATABASE_URL: db.url, AMQP_URL: vhost.url, BLOB_DIR: blobDir, API_KEY_PEPPER: TEST_API_KEY_PEPPER };
  const appEnv = { ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}), ...env };
  const bus = await createMessageBus(loadSettings(messagingSettings, env), logger);
  try {
    const renderPort = await freePort();
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    apps.push(await startReadyAppProcess('apps/render-service/src/main.js', { ...appEnv, RENDER_SERVICE_PORT: String(renderPort) }, statusUrl(renderPort)));
    // The rate limit stays on (its query is part of the gateway's cost), scaled so the bench never reaches it.
    apps.push(await startReadyAppProcess('apps/api-gateway/src/main.js', { ...appEnv, PORT: String(gatewayPort), RATE_LIMIT_SCALE: '1000' }, statusUrl(gatewayPort)));
    const blobs = await FilesystemBlobStore.open(blobDir);

    const { organisation } = await db.database.transaction((r) =>
      provisionOrganisation(r, { name: 'Bench', tier: 'bench', includedPagesPerMonth: 100_000_000, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
    );
    const key = (await db.database.apiKeys.create(organisation.id, Environment.Production)).plaintextKey;
    const templateText = readFileSync(path.join(root, 'examples/invoice/template.json'), 'utf8');
    const dataText = readFileSync(path.join(root, 'examples/invoice/data.json'), 'utf8');
    const template = await db.database.templates.create({ organisationId: organisation.id, projectId: null, name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', updatedBy: 'bench' });
    await db.database.templateVersions.addVersion(
      template.id,
      { templateJson: templateText, sampleData: JSON.stringify({ data: JSON.parse(dataText) as unknown, i18n: {} }), translations: null, documentNameTemplate: null },
      { author: 'bench', publish: true },
    );
    const budget = { ...loadSettings(renderApiSettings, env), ...loadSettings(renderBudgetSettings, env) };
    const parsedTemplate = JSON.parse(templateText) as unknown;
    const body = JSON.stringify({ documents: [JSON.parse(dataText) as unknown] });
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/pdf' };

    const throughGateway: Way = {
      name: 'through the gateway (POST /v1/render/{id}, raw PDF)',
      async once() {
        const response = await fetch(`${gatewayUrl}/v1/render/${template.id}`, { method: 'POST', headers, body });
        const pdf = Buffer.from(await response.arrayBuffer());
        if (response.status !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error(`gateway answered ${response.status}: ${pdf.toString().slice(0, 300)}`);
      },
    };
    const renderServiceAlone: Way = {
      name: 'render service alone (render.document on the bus)',
      async once() {
        const outputBlobKey = `bench/direct/${randomUUID()}.pdf`;
        const command: RenderDocumentCommand = {
          requestId: randomUUID(),
          organisationId: organisation.id,
          environment: Environment.Production,
          template: parsedTemplate,
          data: { json: dataText },
          translations: null,
          language: null,
          documentNameTemplate: 'Invoice {{number}}',
          fallbackDocumentName: 'Invoice',
          customFonts: [],
          outputBlobKey,
          inlinePdfMaxBytes: budget.inlinePdfMaxBytes,
          inlinePdfBinary: true,
          deadline: Date.now() + budget.renderBudgetMs,
        };
        const result = await bus.request(MessageName.RenderDocument, command, { timeoutMs: budget.renderBudgetMs + budget.replyGraceMs });
        if (result.outcome !== 'rendered' || result.pdf === null) throw new Error(`render service: ${result.outcome} ${JSON.stringify(result.issues)}`);
        const pdf = result.pdf.inlineBytes === undefined ? await blobs.get(result.pdf.blobKey) : Buffer.from(result.pdf.inlineBytes);
        if (pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error('render service stored no PDF');
      },
    };
    const ways = [throughGateway, renderServiceAlone];

    for (let i = 0; i < WARM_UP; i++) for (const way of ways) await way.once();
    const latencies = new Map<Way, number[]>(ways.map((w) => [w, []]));
    for (let i = 0; i < ITERATIONS; i++) {
      for (const way of i % 2 === 0 ? ways : [...ways].reverse()) {
        const started = process.hrtime.bigint();
        await way.once();
        latencies.get(way)?.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const rates = new Map<Way, number>();
    for (const way of ways) rates.set(way, await throughput(way, CONCURRENCY, SECONDS));

    const stats = (way: Way) => {
      const sorted = [...(latencies.get(way) ?? [])].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), rate: rates.get(way) ?? 0 };
    };
    const gw = stats(throughGateway);
    const alone = stats(renderServiceAlone);
    const row = (name: string, s: { p50: number; p95: number; rate: number }) =>
      `| ${name.padEnd(52)} | ${s.p50.toFixed(1).padStart(7)} | ${s.p95.toFixed(1).padStart(7)} | ${s.rate.toFixed(1).padStart(11)} |`;
    console.log(`\nsingle invoice render (examples/invoice, production key), ${ITERATIONS} sequential requests per way, then ${CONCURRENCY} in flight for ${SECONDS} s; ${availableParallelism()} cores`);
    console.log(`| ${'way'.padEnd(52)} | p50 ms  | p95 ms  | renders/s   |`);
    console.log(`|${'-'.repeat(54)}|---------|---------|-------------|`);
    console.log(row(throughGateway.name, gw));
    console.log(row(renderServiceAlone.name, alone));
    // request i of one way ran next to request i of the other: their difference cancels what the machine did meanwhile
    const gwLatencies = latencies.get(throughGateway) ?? [];
    const aloneLatencies = latencies.get(renderServiceAlone) ?? [];
    const paired = gwLatencies.map((ms, i) => ms - (aloneLatencies[i] ?? ms)).sort((a, b) => a - b);
    console.log(
      `gateway overhead: p50 ${(gw.p50 - alone.p50).toFixed(1)} ms (target <= 10 ms), p95 ${(gw.p95 - alone.p95).toFixed(1)} ms; ` +
        `median of the ${paired.length} paired differences ${percentile(paired, 50).toFixed(1)} ms; ` +
        `throughput ${((gw.rate / alone.rate) * 100).toFixed(0)} % of the render service alone\n`,
    );
  } finally {
    await Promise.allSettled(apps.map((a) => a.stop()));
    await bus.close();
    await db.drop();
    await vhost.delete();
    await rm(blobDir, { recursive: true, force: true });
  }
}

runBench(main);
