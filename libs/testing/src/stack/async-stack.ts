import { Environment, JobState, WebhookEvent, type JobStatusDto } from '@docrender/contracts';
import { startTcpFaultProxy, type TcpFaultProxy } from '../network/tcp-fault-proxy';
import { ensureBuilt, freePort, startAppProcess, type AppProcess } from '../processes/app-process';
import { parseCallback } from '@docrender/webhooks';
import { expectAnswerMatchesContract, expectCallbackMatchesContract } from '../openapi/contract-answers';
import { startCallbackReceiver, type CallbackReceiver, type ReceivedCallback } from './callback-receiver';
import { startRenderStandIn, type RenderStandIn, type StandInDocument } from './render-stand-in';
import { startTestInfrastructure, type TestInfrastructure } from './test-infrastructure';
import { provisionTenant, type TemplateContent, type TestTenant } from './test-tenant';
import { waitFor } from './wait-for';

export type AppName = 'api-gateway' | 'job-worker' | 'webhook-dispatcher' | 'render-service';

const PORT_VARIABLE: Record<AppName, string> = {
  'api-gateway': 'PORT',
  'job-worker': 'JOB_WORKER_PORT',
  'webhook-dispatcher': 'WEBHOOK_DISPATCHER_PORT',
  'render-service': 'RENDER_SERVICE_PORT',
};

export type AsyncStackOptions = {
  /** Milliseconds the render stand-in takes per document (stand-in only). */
  renderDelayMs?: number;
  /** The real render service (Chromium) as a fourth process, with this template published, instead of the stand-in. */
  renderService?: { template: TemplateContent; settings?: Record<string, string> };
  /** Settings of one app only (e.g. a short RENDER_BUDGET_MS for the gateway while jobs keep the full budget). */
  settingsOf?: Partial<Record<AppName, Record<string, string>>>;
  /**
   * The apps that reach a dependency through a TCP fault proxy (`AsyncStack.faults`), which a test cuts to simulate
   * its outage; the other apps, the stand-in and the test reach it directly. `'render-stand-in'` is the stand-in.
   */
  faults?: Partial<Record<FaultTarget, readonly (AppName | 'render-stand-in')[]>>;
};

/** The dependencies the stack can put behind a fault proxy. */
export type FaultTarget = 'rabbitmq' | 's3' | 'postgres';

/**
 * The async path end to end: the gateway, the job worker and the webhook dispatcher as separate processes
 * (node dist/apps/<app>/src/main.js) on a fresh database, vhost and S3 server; a render stand-in on the bus; a
 * real HTTP receiver that verifies every callback with the organisation's secret; API keys of both environments.
 */
export type AsyncStack = {
  infra: TestInfrastructure;
  tenant: TestTenant;
  prodKey: string;
  testKey: string;
  gatewayUrl: string;
  receiver: CallbackReceiver;
  /** The stand-in's render counts; null with the real render service. */
  renderer: RenderStandIn | null;
  /** The fault proxies asked for in AsyncStackOptions.faults. */
  faults: Partial<Record<FaultTarget, TcpFaultProxy>>;
  processes: Partial<Record<AppName, AppProcess>> & Record<'api-gateway' | 'job-worker' | 'webhook-dispatcher', AppProcess>;
  /** Starts (another) process of the app, with extra settings; waits for its readiness probe. */
  start(app: AppName, extra?: Record<string, string>): Promise<AppProcess>;
  enqueue(key: string, documents: StandInDocument[] | Record<string, unknown>[], options?: { query?: string; hook?: string; includeDocument?: boolean }): Promise<string>;
  status(key: string, jobId: string): Promise<JobStatusDto>;
  /** Polls the job status until it is not pending. */
  finished(key: string, jobId: string, timeoutMs?: number): Promise<JobStatusDto>;
  /** The callbacks the receiver got for a job (by the jobId in the body; only those that verified carry one). */
  callbacksOf(jobId: string): ReceivedCallback[];
  /** Waits until the receiver got the job's completion callback. */
  completionOf(jobId: string, timeoutMs?: number): Promise<ReceivedCallback>;
  teardown(): Promise<void>;
};

/** The body of a gateway answer, once it is checked against docs/openapi.json. */
async function checkedBody(method: string, res: Response): Promise<Buffer> {
  const body = Buffer.from(await res.arrayBuffer());
  expectAnswerMatchesContract({ method, url: res.url, status: res.status, headers: res.headers, body });
  return body;
}

export async function startAsyncStack(label: string, settings: Record<string, string> = {}, options: AsyncStackOptions = {}): Promise<AsyncStack> {
  await ensureBuilt();
  const infra = await startTestInfrastructure(label);
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const env: Record<string, string> = {
    ...infra.env,
    EGRESS_ALLOW_PRIVATE: 'true',
    EGRESS_ALLOW_HTTP: 'true',
    WEBHOOK_BACKOFF_SCALE: '0.05',
    WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000',
    JOBS_OUTBOX_POLL_MS: '200',
    JOBS_RETENTION_SWEEP_INTERVAL_MS: '0',
    PUBLIC_BASE_URL: gatewayUrl,
    ...settings,
  };
  const faults: Partial<Record<FaultTarget, TcpFaultProxy>> = {};
  const proxiedEnv: Partial<Record<FaultTarget, Record<string, string>>> = {};
  if (options.faults?.rabbitmq) {
    const amqpUrl = new URL(env.AMQP_URL);
    const proxy = (faults.rabbitmq = await startTcpFaultProxy({ host: amqpUrl.hostname, port: Number(amqpUrl.port || 5672) }));
    amqpUrl.host = `127.0.0.1:${proxy.port}`;
    proxiedEnv.rabbitmq = { AMQP_URL: amqpUrl.toString() };
  }
  if (options.faults?.s3) {
    const s3Url = new URL(env.S3_ENDPOINT);
    const proxy = (faults.s3 = await startTcpFaultProxy({ host: s3Url.hostname, port: Number(s3Url.port) }));
    s3Url.port = String(proxy.port);
    proxiedEnv.s3 = { S3_ENDPOINT: s3Url.origin };
  }
  if (options.faults?.postgres) {
    const dbUrl = new URL(env.DATABASE_URL);
    const proxy = (faults.postgres = await startTcpFaultProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) }));
    dbUrl.host = `127.0.0.1:${proxy.port}`;
    proxiedEnv.postgres = { DATABASE_URL: dbUrl.toString() };
  }
  /** The settings of `app` that point it at the fault proxies it is behind. */
  const envOf = (app: AppName | 'render-stand-in'): Record<string, string> =>
    Object.assign({}, ...(Object.keys(proxiedEnv) as FaultTarget[]).filter((t) => options.faults?.[t]?.includes(app)).map((t) => proxiedEnv[t]));
  const standInEnv = { ...env, ...envOf('render-stand-in') };
  const renderer = options.renderService
    ? null
    : await startRenderStandIn(await infra.connectBus(standInEnv), infra.blobStore, { delayMs: options.renderDelayMs ?? 20 });
  const tenant = await provisionTenant(infra.db.database, { pages: 100_000, template: options.renderService?.template });
  const prodKey = (await infra.db.database.apiKeys.create(tenant.organisationId, Environment.Production)).plaintextKey;
  const testKey = (await infra.db.database.apiKeys.create(tenant.organisationId, Environment.Test)).plaintextKey;
  const receiver = await startCallbackReceiver([tenant.webhookSecret]);
  const started: AppProcess[] = [];

  const start = async (app: AppName, extra: Record<string, string> = options.settingsOf?.[app] ?? {}): Promise<AppProcess> => {
    const port = app === 'api-gateway' ? gatewayPort : await freePort();
    const child = startAppProcess(`apps/${app}/src/main.js`, { ...env, ...envOf(app), ...extra, [PORT_VARIABLE[app]]: String(port) });
    started.push(child);
    await child.waitForReady(`http://127.0.0.1:${port}/v1/meta/status`);
    return child;
  };
  const renderService = options.renderService ? await start('render-service', options.renderService.settings) : undefined;
  const processes = {
    ...(renderService ? { 'render-service': renderService } : {}),
    'api-gateway': await start('api-gateway'),
    'job-worker': await start('job-worker'),
    'webhook-dispatcher': await start('webhook-dispatcher'),
  };

  const jobIdOf = (callback: ReceivedCallback): string | null => {
    if (callback.signatureFailure !== null) return null;
    return parseCallback(callback.rawBody).body.jobId;
  };
  // Every verified callback a test looks at must match the document's description of its event.
  const callbacksOf = (jobId: string) =>
    receiver.received.filter((r) => {
      const ofJob = jobIdOf(r) === jobId;
      if (ofJob) expectCallbackMatchesContract(r.event, r.rawBody);
      return ofJob;
    });
  const status = async (key: string, jobId: string): Promise<JobStatusDto> => {
    const res = await fetch(`${gatewayUrl}/v1/render/jobs/${jobId}`, { headers: { Authorization: `Bearer ${key}` } });
    const body = await checkedBody('GET', res);
    if (res.status !== 200) throw new Error(`job status answered ${res.status}: ${body.toString('utf8')}`);
    return JSON.parse(body.toString('utf8')) as JobStatusDto;
  };

  return {
    infra,
    tenant,
    prodKey,
    testKey,
    gatewayUrl,
    receiver,
    renderer,
    faults,
    processes,
    start,
    async enqueue(key, documents, opts = {}) {
      const callbackUrl = `${receiver.url}/hooks/${opts.hook ?? 'default'}?token=${Math.random().toString(36).slice(2)}`;
      const res = await fetch(`${gatewayUrl}/v1/render/${tenant.templateId}/async${opts.query ? `?${opts.query}` : ''}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ documents, callbackUrl, includeDocument: opts.includeDocument ?? false }),
      });
      const answer = await checkedBody('POST', res);
      if (res.status !== 202) throw new Error(`enqueue answered ${res.status}: ${answer.toString('utf8')}`);
      const body = JSON.parse(answer.toString('utf8')) as { jobId: string; requestedCount: number; state: string };
      if (body.state !== 'queued' || body.requestedCount !== documents.length) throw new Error(`unexpected enqueue answer ${JSON.stringify(body)}`);
      return body.jobId;
    },
    status,
    finished: (key, jobId, timeoutMs = 60_000) =>
      waitFor(`job ${jobId} to finish`, async () => {
        const current = await status(key, jobId);
        return current.state === JobState.Pending ? undefined : current;
      }, timeoutMs, 200),
    callbacksOf,
    completionOf: (jobId, timeoutMs = 60_000) =>
      waitFor(`the completion callback of ${jobId}`, () => callbacksOf(jobId).find((c) => c.event !== WebhookEvent.Progress), timeoutMs),
    async teardown() {
      await Promise.allSettled(started.map((p) => p.stop('SIGTERM', 5_000)));
      await renderer?.stop().catch(() => undefined);
      await receiver.close();
      await Promise.allSettled(Object.values(faults).map((proxy) => proxy.close()));
      await infra.teardown();
    },
  };
}
