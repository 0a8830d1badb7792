/**
 * Async job vs sync batch, one run each (issue 6, "Benchmark bench/async"): the same 200 invoice documents
 * (examples/invoice) rendered in production by
 *   1. the synchronous batch endpoint  POST /v1/render/{templateId}            (wall time = the HTTP exchange), and
 *   2. an async job                    POST /v1/render/{templateId}/async      (wall time = enqueue to completion callback),
 * on the real apps as separate processes (api-gateway, render-service with Chromium, job-worker, webhook-dispatcher),
 * PostgreSQL at 127.0.0.1:5432, RabbitMQ at 127.0.0.1:5672 (a fresh vhost) and an in-process s3rver. Prints the figures;
 * asserts nothing. Run: npm run bench:async   (BENCH_DOCUMENTS overrides 200).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { jobsSettings, loadSettings, renderApiSettings } from '@docrender/config';
import { Environment, WebhookEvent, WebhookHeader } from '@docrender/contracts';
import { provisionOrganisation } from '@docrender/persistence';
import { freePort, startReadyAppProcess, startTestInfrastructure, statusUrl, type AppProcess } from '@docrender/testing';
import { WebhookVerifier } from '@docrender/webhooks';
import { repositoryRoot } from '../shared/bench-kit';
import { runBench } from '../shared/run-bench';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 200);

type Receiver = { url: string; progress: number; completedAt: Promise<number>; close(): void };

/** A receiver that verifies every callback and notes when the completion arrives. */
async function startReceiver(secret: string): Promise<Receiver> {
  const verifier = new WebhookVerifier();
  let resolveCompleted: (at: number) => void = () => undefined;
  const completedAt = new Promise<number>((resolve) => (resolveCompleted = resolve));
  const receiver = { progress: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      verifier.verify({ rawBody, signatureHeader: req.headers[WebhookHeader.Signature.toLowerCase()], secrets: secret });
      res.writeHead(204).end();
      if (req.headers[WebhookHeader.Event.toLowerCase()] === WebhookEvent.Progress) receiver.progress++;
      else resolveCompleted(Date.now());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/bench`,
    get progress() {
      return receiver.progress;
    },
    completedAt,
    close: () => server.close(),
  };
}

async function main(): Promise<void> {
  const root = repositoryRoot();
  const infra = await startTestInfrastructure('bench-async');
  const { db } = infra;
  const processes: { name: string; app: AppProcess }[] = [];
  try {
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const env: Record<string, string> = {
      ...infra.env,
      PUBLIC_BASE_URL: gatewayUrl,
      EGRESS_ALLOW_PRIVATE: 'true',
      EGRESS_ALLOW_HTTP: 'true',
      JOBS_RETENTION_SWEEP_INTERVAL_MS: '0',
    };
    /** `node dist/apps/<name>/src/main.js` with `env`, ready when its status probe answers 200. */
    const start = async (name: string, portVariable: string, port: number): Promise<void> => {
      processes.push({ name, app: await startReadyAppProcess(`apps/${name}/src/main.js`, { ...env, [portVariable]: String(port) }, statusUrl(port)) });
    };
    await start('render-service', 'RENDER_SERVICE_PORT', await freePort());
    await start('api-gateway', 'PORT', gatewayPort);
    await start('job-worker', 'JOB_WORKER_PORT', await freePort());
    await start('webhook-dispatcher', 'WEBHOOK_DISPATCHER_PORT', await freePort());

    const { organisation, webhookSecret } = await db.database.transaction((r) =>
      provisionOrganisation(r, { name: 'Bench', tier: 'bench', includedPagesPerMonth: 10_000_000, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
    );
    const key = (await db.database.apiKeys.create(organisation.id, Environment.Production)).plaintextKey;
    const template = await db.database.templates.create({ organisationId: organisation.id, projectId: null, name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', updatedBy: 'bench' });
    const example = (file: string) => readFileSync(path.join(root, 'examples/invoice', file), 'utf8');
    const data = JSON.parse(example('data.json')) as Record<string, unknown>;
    await db.database.templateVersions.addVersion(
      template.id,
      { templateJson: example('template.json'), sampleData: JSON.stringify({ data, i18n: {} }), translations: null, documentNameTemplate: null },
      { author: 'bench', publish: true },
    );
    const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({ ...data, number: `INV-BENCH-${String(i + 1).padStart(5, '0')}` }));
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };

    // Warm-up: Chromium pages, connections, caches.
    await fetch(`${gatewayUrl}/v1/render/${template.id}`, { method: 'POST', headers, body: JSON.stringify({ documents: documents.slice(0, 8) }) });

    const syncStarted = Date.now();
    const syncResponse = await fetch(`${gatewayUrl}/v1/render/${template.id}`, { method: 'POST', headers, body: JSON.stringify({ documents }) });
    if (syncResponse.status !== 200) throw new Error(`the sync batch answered ${syncResponse.status}: ${await syncResponse.text()}`);
    const envelope = (await syncResponse.json()) as { status: string; renderedCount: number };
    const syncSeconds = (Date.now() - syncStarted) / 1000;

    const receiver = await startReceiver(webhookSecret);
    const asyncStarted = Date.now();
    const enqueue = await fetch(`${gatewayUrl}/v1/render/${template.id}/async`, { method: 'POST', headers, body: JSON.stringify({ documents, callbackUrl: receiver.url }) });
    if (enqueue.status !== 202) throw new Error(`the enqueue answered ${enqueue.status}: ${await enqueue.text()}`);
    const accepted = (await enqueue.json()) as { jobId: string };
    const acceptedSeconds = (Date.now() - asyncStarted) / 1000;
    const completedAt = await receiver.completedAt;
    const asyncSeconds = (completedAt - asyncStarted) / 1000;
    const status = (await (await fetch(`${gatewayUrl}/v1/render/jobs/${accepted.jobId}`, { headers })).json()) as { status: string; renderedCount: number };
    receiver.close();

    const row = (mode: string, seconds: number, rendered: number, outcome: string) =>
      `| ${mode.padEnd(38)} | ${String(DOCUMENTS).padStart(9)} | ${String(rendered).padStart(8)} | ${seconds.toFixed(2).padStart(10)} | ${(rendered / seconds).toFixed(1).padStart(7)} | ${outcome.padEnd(9)} |`;
    console.log(`\nasync job vs sync batch, ${DOCUMENTS} invoice documents (examples/invoice), production key, one run each`);
    console.log('| mode                                   | documents | rendered | wall (s)   | docs/s  | status    |');
    console.log('|----------------------------------------|-----------|----------|------------|---------|-----------|');
    console.log(row(`sync batch (POST /v1/render/{id})`, syncSeconds, envelope.renderedCount, envelope.status));
    console.log(row(`async job (enqueue to completion)`, asyncSeconds, status.renderedCount, status.status));
    console.log(`async enqueue answered 202 after ${acceptedSeconds.toFixed(2)} s; ${receiver.progress} progress callbacks had arrived at completion`);
    console.log(
      `documents in flight: sync RENDER_API_BATCH_CONCURRENCY=${loadSettings(renderApiSettings, env).batchConcurrency}, async JOBS_RENDER_CONCURRENCY=${loadSettings(jobsSettings, env).renderConcurrency}; the render service's own settings at their defaults\n`,
    );
  } catch (error) {
    for (const p of processes) console.error(`--- ${p.name} output (last 3000 characters)\n${p.app.output().slice(-3000)}`);
    throw error;
  } finally {
    await Promise.allSettled(processes.map((p) => p.app.stop()));
    await infra.teardown();
  }
}

runBench(main);
