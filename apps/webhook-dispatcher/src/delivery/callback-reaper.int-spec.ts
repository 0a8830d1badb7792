import { randomUUID } from 'node:crypto';
import { loadSettings, messagingSettings, Settings, webhookSettings } from '@docrender/config';
import { MessageName, WebhookEvent, type DeliverWebhookCommand } from '@docrender/contracts';
import { createMessageBus, type MessageBus } from '@docrender/messaging';
import { ExclusivePasses, OutboxRepository, WebhookDeliveryRepository } from '@docrender/persistence';
import { createRabbitVhost, createTestDatabase, testLogger, waitFor, type RabbitVhost, type TestDatabase } from '@docrender/testing';
import { Client } from 'pg';
import { attemptToResend, CALLBACK_REAPER_LOCK_KEY, CallbackReaperService } from './callback-reaper.service';

const STALE_MS = 60_000;

describe('callback reaper (issue 18: no callback stays pending forever) against PostgreSQL and RabbitMQ', () => {
  let db: TestDatabase;
  let vhost: RabbitVhost;
  let bus: MessageBus;
  let reaper: CallbackReaperService;
  const resent: DeliverWebhookCommand[] = [];
  const organisationId = randomUUID();
  const jobId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    vhost = await createRabbitVhost('reaper');
    bus = await createMessageBus(loadSettings(messagingSettings, { AMQP_URL: vhost.url }), testLogger('reaper-test'));
    await bus.consume(MessageName.DeliverWebhook, async (command) => {
      resent.push(command);
    });
    const settings = Settings.load([webhookSettings], { WEBHOOK_REAPER_STALE_MS: String(STALE_MS) });
    reaper = new CallbackReaperService(new ExclusivePasses(db.database), db.database.webhookDeliveries, bus, testLogger('webhook-dispatcher'), settings);
  });
  afterAll(async () => {
    await bus?.close();
    await db?.drop();
    await vhost?.delete();
  });

  const deliveries = () => new WebhookDeliveryRepository(db.dataSource.manager);
  const command = (deliveryId: string): DeliverWebhookCommand => ({
    deliveryId,
    jobId,
    organisationId,
    event: WebhookEvent.Progress,
    callbackUrl: 'https://hooks.example.com/cb?token=t',
    body: '{"processed":1}',
    attempt: 1,
  });
  /** A callback the job worker stored in the outbox and the relay published at `publishedAt`. */
  const published = async (deliveryId: string, publishedAt: Date): Promise<void> => {
    await new OutboxRepository(db.dataSource.manager).add(MessageName.DeliverWebhook, command(deliveryId), { id: deliveryId, now: publishedAt });
    await db.dataSource.query(`UPDATE outbox SET published_at = $2 WHERE id = $1`, [deliveryId, publishedAt]);
  };
  /** A delivery whose attempts 1..n were made at `at`, the last one `last`. */
  const attempted = async (deliveryId: string, n: number, last: 'failed' | 'unfinished', at: Date): Promise<void> => {
    const repo = deliveries();
    for (let attempt = 1; attempt <= n; attempt++) {
      await repo.claimAttempt({ deliveryId, jobId, organisationId, event: WebhookEvent.Progress }, attempt, 1_000, at);
      if (attempt < n || last === 'failed') {
        await repo.finishAttempt(deliveryId, attempt, { outcome: 'failed', httpStatus: 500, error: 'HTTP 500', durationMs: 3 }, 'pending', at);
      }
    }
  };

  it('issue 18: sends again the next attempt of every delivery without news, from the outbox copy; abandons those with no copy or no attempt left; leaves fresh ones alone', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - STALE_MS - 5_000);
    const fresh = new Date(now.getTime() - 1_000);
    const ids = { retrying: randomUUID(), midAttempt: randomUUID(), neverTaken: randomUUID(), noCopy: randomUUID(), spent: randomUUID(), fresh: randomUUID() };
    await published(ids.retrying, old);
    await attempted(ids.retrying, 2, 'failed', old);
    await published(ids.midAttempt, old);
    await attempted(ids.midAttempt, 3, 'unfinished', old);
    await published(ids.neverTaken, old);
    await attempted(ids.noCopy, 1, 'failed', old);
    await published(ids.spent, old);
    await attempted(ids.spent, 5, 'failed', old);
    await published(ids.fresh, fresh);
    await attempted(ids.fresh, 1, 'failed', fresh);

    expect(await reaper.reap(now)).toEqual({ resent: 3, abandoned: 2 });
    await waitFor('the three messages', () => (resent.length >= 3 ? true : undefined));
    expect(resent.map((c) => [c.deliveryId, c.attempt]).sort()).toEqual(
      [
        [ids.retrying, 3],
        [ids.midAttempt, 3],
        [ids.neverTaken, 1],
      ].sort(),
    );
    expect(resent.find((c) => c.deliveryId === ids.retrying)).toEqual({ ...command(ids.retrying), attempt: 3 });
    expect(await deliveries().findDelivery(ids.neverTaken)).toMatchObject({ state: 'pending', attempts: 0, jobId, event: WebhookEvent.Progress });
    expect(await deliveries().findDelivery(ids.noCopy)).toMatchObject({ state: 'abandoned', lastError: expect.stringContaining('outbox') });
    expect(await deliveries().findDelivery(ids.spent)).toMatchObject({ state: 'abandoned', lastError: expect.stringContaining('last attempt') });
    expect(await deliveries().findDelivery(ids.fresh)).toMatchObject({ state: 'pending' });

    // Sent again at `now`: the next pass leaves them alone until another stale period has passed.
    expect(await reaper.reap(new Date(now.getTime() + 1_000))).toEqual({ resent: 0, abandoned: 0 });
    expect(await reaper.reap(new Date(now.getTime() + STALE_MS + 1_000))).toMatchObject({ resent: 4 });
  });

  it('runs on one replica at a time: while another holds the advisory lock, a pass is skipped', async () => {
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [CALLBACK_REAPER_LOCK_KEY]);
      expect(await reaper.reap()).toBeNull();
      await holder.query('SELECT pg_advisory_unlock($1)', [CALLBACK_REAPER_LOCK_KEY]);
      expect(await reaper.reap()).not.toBeNull();
    } finally {
      await holder.end();
    }
  });
});

describe('attemptToResend', () => {
  it('resends the first attempt, the one in flight, or the one after a failure; none after the fifth (6.3: 5 attempts in all)', () => {
    expect(attemptToResend(null)).toBe(1);
    expect(attemptToResend({ attempt: 2, finished: false, outcome: null })).toBe(2);
    expect(attemptToResend({ attempt: 4, finished: true, outcome: 'failed' })).toBe(5);
    expect(attemptToResend({ attempt: 5, finished: true, outcome: 'failed' })).toBeNull();
  });
});
