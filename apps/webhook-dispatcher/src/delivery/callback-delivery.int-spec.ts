import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, MessageName, WebhookEvent, type DeliverWebhookCommand } from '@docrender/contracts';
import { guardedFetch } from '@docrender/egress';
import { createMessageBus, type MessageBus } from '@docrender/messaging';
import { JsonLogger, metricsRegistry } from '@docrender/observability';
import { provisionOrganisation, WebhookDeliveryRepository } from '@docrender/persistence';
import { createServiceApp } from '@docrender/platform';
import { FilesystemBlobStore } from '@docrender/storage';
import { createRabbitVhost, createTestDatabase, type RabbitVhost, type TestDatabase, startCallbackReceiver, type CallbackReceiver } from '@docrender/testing';
import { parseSignatureHeader, signingSecretsAt, WebhookVerifier } from '@docrender/webhooks';
import { webhookDispatcherService } from '../webhook-dispatcher.definition';
import { CallbackDeliveryService } from './callback-delivery.service';

const logger = new JsonLogger('webhook-dispatcher', process.env.DEBUG_TEST_LOGS ? 'debug' : 'error');
const BACKOFF_SCALE = 0.05;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type Harness = {
  db: TestDatabase;
  vhost: RabbitVhost;
  bus: MessageBus;
  blobDir: string;
  organisationId: string;
  jobId: string;
  secret: string;
  receiver: CallbackReceiver;
  start(): Promise<INestApplication>;
  teardown(): Promise<void>;
};

/** A dispatcher in-process over a fresh database and vhost, an organisation with a secret, a verifying receiver. */
async function harness(label: string, env: Record<string, string>): Promise<Harness> {
  const db = await createTestDatabase();
  const vhost = await createRabbitVhost(label);
  const blobDir = await mkdtemp(path.join(os.tmpdir(), 'docrender-dispatcher-'));
  const blobStore = await FilesystemBlobStore.open(blobDir);
  const fullEnv = {
    AMQP_URL: vhost.url,
    EGRESS_ALLOW_PRIVATE: 'true',
    EGRESS_ALLOW_HTTP: 'true',
    WEBHOOK_BACKOFF_SCALE: String(BACKOFF_SCALE),
    WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000',
    WEBHOOK_HOST_BUSY_DELAY_MS: '100',
    ...env,
  };
  Object.assign(process.env, fullEnv);
  const bus = await createMessageBus(loadSettings(messagingSettings, fullEnv), logger);
  const { organisation, webhookSecret } = await db.database.transaction((r) =>
    provisionOrganisation(r, { name: 'Hooks', tier: 'pro', includedPagesPerMonth: 1, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
  );
  const template = await db.database.templates.create({ organisationId: organisation.id, projectId: null, name: 'T', documentNameTemplate: null, updatedBy: 't' });
  const job = await db.database.renderJobs.createQueued({
    organisationId: organisation.id,
    templateId: template.id,
    versionNumber: 1,
    environment: Environment.Production,
    language: null,
    persist: true,
    includeDocument: false,
    callbackUrl: 'http://unused',
    inputBlobKey: 'jobs/x/input',
    requestedCount: 1,
  });
  const receiver = await startCallbackReceiver([webhookSecret]);
  const apps: INestApplication[] = [];
  return {
    db,
    vhost,
    bus,
    blobDir,
    organisationId: organisation.id,
    jobId: job.id,
    secret: webhookSecret,
    receiver,
    async start() {
      const app = await createServiceApp(webhookDispatcherService, { database: db.database, bus, blobStore, close: async () => undefined }, logger);
      await app.init();
      apps.push(app);
      return app;
    },
    async teardown() {
      for (const app of apps) await app.close();
      await receiver.close();
      await bus.close();
      await db.drop();
      await vhost.delete();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}

function callback(h: Harness, deliveryId: string, callbackUrl: string, body: object = { jobId: h.jobId, processed: 1 }): DeliverWebhookCommand {
  return { deliveryId, jobId: h.jobId, organisationId: h.organisationId, event: WebhookEvent.Progress, callbackUrl, body: JSON.stringify(body), attempt: 1 };
}

let sequence = 0;
const newDeliveryId = () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;

describe('webhook dispatcher (spec part 6) against PostgreSQL, RabbitMQ and a real verifying receiver', () => {
  let h: Harness;
  let app: INestApplication;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    h = await harness('dispatcher', { WEBHOOK_PER_HOST_IN_FLIGHT: '2' });
    app = await h.start();
  });
  afterAll(async () => {
    await h?.teardown();
    process.env = savedEnv;
  });

  const deliveries = () => new WebhookDeliveryRepository(h.db.dataSource.manager);
  const receivedFor = (deliveryId: string) => h.receiver.received.filter((r) => r.deliveryId === deliveryId);

  it('6.2 / 6.4: a callback arrives once with the exact body, the event and delivery headers, and a signature that verifies', async () => {
    const id = newDeliveryId();
    const command = callback(h, id, `${h.receiver.url}/ok?token=secret`, { jobId: h.jobId, processed: 1, text: 'Grüße ✓' });
    await h.bus.publish(MessageName.DeliverWebhook, command);
    const [got] = await waitFor('the callback', () => (receivedFor(id).length > 0 ? receivedFor(id) : undefined));
    expect(got).toMatchObject({ path: '/ok', event: 'render.progress', deliveryId: id, rawBody: command.body, signatureFailure: null });
    expect(got.signatureHeader).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const delivery = await waitFor('the delivery record', async () => {
      const d = await deliveries().findDelivery(id);
      return d?.state === 'delivered' ? d : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 1, lastHttpStatus: 204, jobId: h.jobId, event: WebhookEvent.Progress });
  });

  it('6.3: non-2xx answers are retried after 2, 4, 8, 16 s (scaled by WEBHOOK_BACKOFF_SCALE), signed afresh, one X-Service-Delivery', async () => {
    const id = newDeliveryId();
    h.receiver.answer('/flaky', 500, 503, 429, 500, 200);
    await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/flaky`));
    const got = await waitFor('five attempts', () => (receivedFor(id).length >= 5 ? receivedFor(id) : undefined));
    expect(got.every((g) => g.signatureFailure === null && g.deliveryId === id)).toBe(true);
    const gaps = got.slice(1).map((g, i) => g.receivedAt - got[i].receivedAt);
    [2, 4, 8, 16].forEach((seconds, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(seconds * 1000 * BACKOFF_SCALE - 20);
      expect(gaps[i]).toBeLessThan(seconds * 1000 * BACKOFF_SCALE + 1500);
    });
    const delivery = await waitFor('delivered', async () => ((await deliveries().findDelivery(id))?.state === 'delivered' ? true : undefined));
    expect(delivery).toBe(true);
    const attempts = await deliveries().listAttempts(id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.httpStatus])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 503],
      [3, 'failed', 429],
      [4, 'failed', 500],
      [5, 'delivered', 200],
    ]);
  });

  it('6.3: a callback is abandoned after 5 failed attempts (no sixth)', async () => {
    const id = newDeliveryId();
    h.receiver.answer('/down', 500);
    await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/down`));
    await waitFor('abandonment', async () => ((await deliveries().findDelivery(id))?.state === 'abandoned' ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receivedFor(id)).toHaveLength(5);
    expect(await deliveries().findDelivery(id)).toMatchObject({ attempts: 5, lastHttpStatus: 500 });
  });

  it('6.3: a redirect is a failed attempt and is never followed', async () => {
    const id = newDeliveryId();
    h.receiver.answer('/moved', 302, 204);
    await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/moved`));
    await waitFor('delivered on the retry', async () => ((await deliveries().findDelivery(id))?.state === 'delivered' ? true : undefined));
    expect(receivedFor(id).map((r) => r.path)).toEqual(['/moved', '/moved']);
    expect(h.receiver.received.some((r) => r.path === '/redirected')).toBe(false);
    expect((await deliveries().listAttempts(id)).map((a) => a.httpStatus)).toEqual([302, 204]);
  });

  it('6.3: a receiver that never answers times out (a failed attempt) and is retried', async () => {
    const id = newDeliveryId();
    h.receiver.answer('/slow-once', 'hang', 204);
    await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/slow-once`));
    await waitFor('delivered after the timeout', async () => ((await deliveries().findDelivery(id))?.state === 'delivered' ? true : undefined));
    const [first] = await deliveries().listAttempts(id);
    expect(first).toMatchObject({ outcome: 'failed', httpStatus: null });
    expect(first.error).toMatch(/timeout/);
  });

  it('6.4: during the 24 h rotation grace every callback carries two v1 signatures, active first; each verifies with its secret', async () => {
    const previous = h.secret;
    const rotated = await h.db.database.webhookSecrets.rotate(h.organisationId);
    h.receiver.setSecrets([rotated.active, previous]);
    const id = newDeliveryId();
    await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/ok`));
    const [got] = await waitFor('the callback', () => (receivedFor(id).length > 0 ? receivedFor(id) : undefined));
    const header = parseSignatureHeader(got.signatureHeader);
    expect(header.v1).toHaveLength(2);
    const verifier = new WebhookVerifier();
    expect(() => verifier.verify({ rawBody: got.rawBody, signatureHeader: got.signatureHeader, secrets: rotated.active })).not.toThrow();
    expect(() => verifier.verify({ rawBody: got.rawBody, signatureHeader: got.signatureHeader, secrets: previous })).not.toThrow();
    const activeOnly = `t=${header.timestamp},v1=${header.v1[0]}`;
    expect(() => verifier.verify({ rawBody: got.rawBody, signatureHeader: activeOnly, secrets: rotated.active })).not.toThrow();
    expect(signingSecretsAt({ active: rotated.active, previous, rotatedAt: rotated.rotatedAt }, new Date(Date.now() + 25 * 3_600_000))).toEqual({ active: rotated.active });
  });

  it('6.3: a black-holed receiver alone gets more than its per-host share (WEBHOOK_PER_HOST_IN_FLIGHT 2); other hosts keep flowing', async () => {
    const other = await startCallbackReceiver([(await h.db.database.webhookSecrets.find(h.organisationId))!.active]);
    try {
      h.receiver.answer('/blackhole', 'hang');
      const stuck = Array.from({ length: 8 }, () => newDeliveryId());
      for (const id of stuck) await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/blackhole`));
      await waitFor('the black hole to hold 8 callbacks at once', () => (h.receiver.inFlight() >= 8 ? true : undefined));
      const flowing = Array.from({ length: 6 }, () => newDeliveryId());
      for (const id of flowing) await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${other.url}/ok`));
      await waitFor('the other host to get every callback', () => (other.received.length >= 6 ? true : undefined));
      expect(other.received.every((r) => r.signatureFailure === null)).toBe(true);
      expect(h.receiver.peakInFlight()).toBeGreaterThanOrEqual(8);
    } finally {
      await other.close();
    }
  });

  it('6.3: a pending retry survives a dispatcher restart (durable delay in RabbitMQ)', async () => {
    const id = newDeliveryId();
    h.receiver.answer('/after-restart', 500, 204);
    await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/after-restart`));
    await waitFor('the first attempt', () => (receivedFor(id).length === 1 ? true : undefined));
    await app.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    app = await h.start();
    await waitFor('the retry after the restart', async () => ((await deliveries().findDelivery(id))?.state === 'delivered' ? true : undefined));
    expect(receivedFor(id)).toHaveLength(2);
  });

  it('issue 23: callbacks one after another to one receiver go over one kept-alive connection', async () => {
    let connections = 0;
    const paths: string[] = [];
    const receiver = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume().on('end', () => res.writeHead(204).end());
    });
    receiver.on('connection', () => connections++);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kept-alive`;
      for (let i = 0; i < 3; i++) {
        const id = newDeliveryId();
        await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, url));
        await waitFor('delivered', async () => ((await deliveries().findDelivery(id))?.state === 'delivered' ? true : undefined));
      }
      expect(paths).toEqual(['/kept-alive', '/kept-alive', '/kept-alive']);
      expect(connections).toBe(1);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('6.2: a duplicate message of a delivered callback does not reach the receiver again', async () => {
    const id = newDeliveryId();
    const command = callback(h, id, `${h.receiver.url}/ok`);
    await h.bus.publish(MessageName.DeliverWebhook, command);
    await waitFor('delivered', async () => ((await deliveries().findDelivery(id))?.state === 'delivered' ? true : undefined));
    await h.bus.publish(MessageName.DeliverWebhook, command);
    await h.bus.publish(MessageName.DeliverWebhook, command);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedFor(id)).toHaveLength(1);
  });

  it('6.3 / issue: private, loopback and link-local targets are refused in production configuration, in every notation', async () => {
    const service = new CallbackDeliveryService(
      {
        bus: h.bus,
        deliveries: deliveries(),
        firstSecrets: async () => ({ active: h.secret }),
        send: guardedFetch,
        logger,
      },
      { policy: { allowPrivate: false, allowHttp: true }, attemptTimeoutMs: 1000, maxResponseBytes: 1024, backoffScale: BACKOFF_SCALE, inFlight: 16, perHostInFlight: 2, hostBusyDelayMs: 100 },
    );
    const port = new URL(h.receiver.url).port;
    const refused: string[] = [];
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]', 'localhost', '169.254.169.254', '10.0.0.1']) {
      const id = newDeliveryId();
      refused.push(id);
      await service.handle(callback(h, id, `http://${host}:${port}/ok`));
      expect(await deliveries().findDelivery(id)).toMatchObject({ state: 'abandoned', attempts: 1 });
      expect((await deliveries().listAttempts(id))[0]).toMatchObject({ outcome: 'refused', httpStatus: null });
    }
    // by delivery id: the dispatcher the earlier tests started may still be delivering their retries to the receiver
    expect(refused.flatMap(receivedFor)).toEqual([]);
  });
});

describe('webhook dispatcher under overload (spec 6.3 rule 4)', () => {
  let h: Harness;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    h = await harness('dispatcher-overload', { AMQP_WEBHOOK_QUEUE_MAX_LENGTH: '3' });
  });
  afterAll(async () => {
    await h?.teardown();
    process.env = savedEnv;
  });

  it('6.3: a full callback queue drops its oldest pending callbacks; they are counted in metrics and recorded as dropped', async () => {
    const droppedBefore = (await metricsRegistry.getSingleMetricAsString('docrender_webhook_dropped_total')).match(/reason="max-length"} (\d+)/)?.[1] ?? '0';
    const ids = Array.from({ length: 5 }, () => newDeliveryId());
    for (const id of ids) await h.bus.publish(MessageName.DeliverWebhook, callback(h, id, `${h.receiver.url}/ok`));
    await h.start();
    const repo = new WebhookDeliveryRepository(h.db.dataSource.manager);
    await waitFor('every callback settled', async () => {
      const states = await Promise.all(ids.map((id) => repo.findDelivery(id)));
      return states.every((s) => s !== null && s.state !== 'pending') ? true : undefined;
    });
    const states = await Promise.all(ids.map(async (id) => (await repo.findDelivery(id))!.state));
    expect(states).toEqual(['dropped', 'dropped', 'delivered', 'delivered', 'delivered']);
    expect(h.receiver.received.map((r) => r.deliveryId)).toEqual(expect.arrayContaining(ids.slice(2)));
    expect(h.receiver.received.some((r) => ids.slice(0, 2).includes(r.deliveryId))).toBe(false);
    const droppedAfter = (await metricsRegistry.getSingleMetricAsString('docrender_webhook_dropped_total')).match(/reason="max-length"} (\d+)/)?.[1];
    expect(Number(droppedAfter) - Number(droppedBefore)).toBe(2);
  });
});
