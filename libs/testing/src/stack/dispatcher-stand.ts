import { randomUUID } from 'node:crypto';
import { MessageName, WebhookEvent, type DeliverWebhookCommand } from '@docrender/contracts';
import type { MessageBus } from '@docrender/messaging';
import { OutboxRepository, provisionOrganisation, WebhookDeliveryRepository, type WebhookDeliveryRecord } from '@docrender/persistence';
import { startTcpFaultProxy, type TcpFaultProxy } from '../network/tcp-fault-proxy';
import { ensureBuilt, freePort, startAppProcess, type AppProcess } from '../processes/app-process';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver';
import { startTestInfrastructure, type TestInfrastructure } from './test-infrastructure';

/**
 * The webhook dispatcher as its own process (node dist/apps/webhook-dispatcher/src/main.js) on a fresh database,
 * vhost and S3 server, reaching PostgreSQL through a TCP fault proxy (`postgres.cut()` takes the database away from
 * the dispatcher alone), with a real verifying receiver and an organisation whose secret it knows. Callbacks are put
 * where the job worker puts them: stored in the outbox (published) and published on webhook.deliver.
 */
export type DispatcherStand = {
  infra: TestInfrastructure;
  /** The test's own bus on the vhost (publishes callbacks as the outbox relay does). */
  bus: MessageBus;
  receiver: CallbackReceiver;
  /** In front of PostgreSQL for the dispatcher (the test itself reaches the database directly). */
  postgres: TcpFaultProxy;
  dispatcher: AppProcess;
  organisationId: string;
  /** The job every callback of the stand belongs to. */
  jobId: string;
  /** A first attempt of a progress callback of `jobId` to `path` on the receiver, carrying `body`. */
  progressCallback(path: string, body: string): DeliverWebhookCommand;
  /** Starts a (new) dispatcher process with extra settings; waits for its readiness probe. */
  startDispatcher(extra?: Record<string, string>): Promise<AppProcess>;
  /** Sends one callback per path (`/ok/1`, …) to the receiver; returns their delivery ids in order. */
  sendCallbacks(paths: string[]): Promise<string[]>;
  /** The delivery records of `ids` (null where none exists yet), in order. */
  deliveries(ids: string[]): Promise<Array<WebhookDeliveryRecord | null>>;
  teardown(): Promise<void>;
};

export async function startDispatcherStand(label: string, settings: Record<string, string> = {}): Promise<DispatcherStand> {
  await ensureBuilt();
  const infra = await startTestInfrastructure(label);
  const databaseUrl = new URL(infra.env.DATABASE_URL);
  const postgres = await startTcpFaultProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
  const proxiedUrl = new URL(databaseUrl);
  proxiedUrl.hostname = '127.0.0.1';
  proxiedUrl.port = String(postgres.port);
  const bus = await infra.connectBus();
  const { organisation, webhookSecret } = await infra.db.database.transaction((r) =>
    provisionOrganisation(r, { name: 'Callbacks', tier: 'pro', includedPagesPerMonth: 1, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
  );
  const receiver = await startCallbackReceiver([webhookSecret]);
  const jobId = randomUUID();
  const started: AppProcess[] = [];
  const env: Record<string, string> = {
    ...infra.env,
    DATABASE_URL: proxiedUrl.toString(),
    EGRESS_ALLOW_PRIVATE: 'true',
    EGRESS_ALLOW_HTTP: 'true',
    ...settings,
  };
  const startDispatcher = async (extra: Record<string, string> = {}): Promise<AppProcess> => {
    const port = await freePort();
    const child = startAppProcess('apps/webhook-dispatcher/src/main.js', { ...env, ...extra, WEBHOOK_DISPATCHER_PORT: String(port) });
    started.push(child);
    await child.waitForReady(`http://127.0.0.1:${port}/v1/meta/status`, 60_000);
    return child;
  };
  const progressCallback = (path: string, body: string): DeliverWebhookCommand => {
    const deliveryId = randomUUID();
    return { deliveryId, jobId, organisationId: organisation.id, event: WebhookEvent.Progress, callbackUrl: `${receiver.url}${path}?token=${deliveryId}`, body, attempt: 1 };
  };
  const stand: DispatcherStand = {
    infra,
    bus,
    receiver,
    postgres,
    dispatcher: await startDispatcher(),
    organisationId: organisation.id,
    jobId,
    progressCallback,
    startDispatcher,
    async sendCallbacks(paths) {
      const ids: string[] = [];
      for (const path of paths) {
        const command = progressCallback(path, JSON.stringify({ jobId, processed: 1, path }));
        const { deliveryId } = command;
        const now = new Date();
        await new OutboxRepository(infra.db.dataSource.manager).add(MessageName.DeliverWebhook, command, { id: deliveryId, now });
        await bus.publish(MessageName.DeliverWebhook, command, { messageId: deliveryId });
        await infra.db.dataSource.query(`UPDATE outbox SET published_at = $2 WHERE id = $1`, [deliveryId, new Date()]);
        ids.push(deliveryId);
      }
      return ids;
    },
    async deliveries(ids) {
      const repo = new WebhookDeliveryRepository(infra.db.dataSource.manager);
      return Promise.all(ids.map((id) => repo.findDelivery(id)));
    },
    async teardown() {
      await Promise.allSettled(started.map((p) => p.stop('SIGTERM', 5_000)));
      await receiver.close();
      await postgres.close();
      await infra.teardown();
    },
  };
  return stand;
}
