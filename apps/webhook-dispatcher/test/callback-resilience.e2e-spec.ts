import { setTimeout as sleep } from 'node:timers/promises';
import { startDispatcherStand, waitFor, type DispatcherStand } from '@docrender/testing';
import type { WebhookDeliveryRecord } from '@docrender/persistence';
import { connect } from 'amqplib';

/** Scaled backoff (gaps of 0.5, 1, 2, 4 s), short outage waits, a reaper that counts 4 s without news as lost. */
const SETTINGS = {
  WEBHOOK_BACKOFF_SCALE: '0.25',
  WEBHOOK_ATTEMPT_TIMEOUT_MS: '3000',
  AMQP_OUTAGE_WAIT_MS: '250',
  AMQP_OUTAGE_WAIT_MAX_MS: '2000',
  WEBHOOK_REAPER_INTERVAL_MS: '1000',
  WEBHOOK_REAPER_STALE_MS: '4000',
};

const paths = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `/${prefix}/${i}`);

describe('webhook dispatcher resilience (issue 18; the dispatcher as its own process, PostgreSQL behind a TCP fault proxy)', () => {
  let stand: DispatcherStand;

  beforeAll(async () => {
    stand = await startDispatcherStand('callback-resilience', SETTINGS);
  }, 120_000);
  afterAll(async () => {
    await stand?.teardown();
  });

  const requestsTo = (path: string) => stand.receiver.received.filter((r) => r.path === path);
  const settled = async (ids: string[], timeoutMs: number): Promise<WebhookDeliveryRecord[]> =>
    waitFor(
      'every delivery to be settled',
      async () => {
        const records = await stand.deliveries(ids);
        return records.every((r) => r !== null && r.state !== 'pending') ? (records as WebhookDeliveryRecord[]) : undefined;
      },
      timeoutMs,
      200,
    );

  it('6.3 / issue 18: one slow callback host gets 16 callbacks in flight (measured at the receiver), each sent once', async () => {
    // the host answers only once 16 are open at once (the last 8 once all 40 arrived): the waves reach 16 whatever the
    // machine's speed, and a 17th would be in flight before the host answered
    stand.receiver.answer('/slow', { status: 204, heldUntil: { inFlight: 16, received: 40 } });
    const ids = await stand.sendCallbacks(Array.from({ length: 40 }, () => '/slow'));
    const records = await settled(ids, 60_000);
    expect(records.map((r) => [r.state, r.attempts])).toEqual(ids.map(() => ['delivered', 1]));
    expect(requestsTo('/slow')).toHaveLength(40);
    expect(stand.receiver.peakInFlight()).toBe(16);
  }, 90_000);

  it('issue 18: PostgreSQL cut with callbacks pending and retrying: none lost, none stuck pending, the abandoned ones recorded with their 5 attempts', async () => {
    const ok = paths('ok', 8);
    const flaky = paths('flaky', 8);
    const down = paths('down', 8);
    for (const path of flaky) stand.receiver.answer(path, 500, 500, 204);
    for (const path of down) stand.receiver.answer(path, 500);
    const before = await stand.sendCallbacks([...ok, ...flaky, ...down]);
    await waitFor('a first attempt of every retrying callback', () => ([...flaky, ...down].every((p) => requestsTo(p).length >= 1) ? true : undefined), 30_000);

    stand.postgres.cut();
    // Callbacks arriving during the outage, and retries falling due in it.
    const during = await stand.sendCallbacks(paths('late', 8));
    await sleep(6_000);
    stand.postgres.forward();

    const records = await settled([...before, ...during], 90_000);
    const stateOf = (ids: string[]) => records.filter((r) => ids.includes(r.deliveryId)).map((r) => r.state);
    const okIds = before.slice(0, 8);
    const flakyIds = before.slice(8, 16);
    const downIds = before.slice(16);
    expect(stateOf([...okIds, ...flakyIds, ...during])).toEqual(Array.from({ length: 24 }, () => 'delivered'));
    expect(records.filter((r) => downIds.includes(r.deliveryId)).map((r) => [r.state, r.attempts, r.lastHttpStatus])).toEqual(
      downIds.map(() => ['abandoned', 5, 500]),
    );
    // 5 attempts; one more request only for an attempt whose result could not be recorded within its lease.
    for (const path of down) expect(requestsTo(path).length).toBeGreaterThanOrEqual(5);
    for (const path of down) expect(requestsTo(path).length).toBeLessThanOrEqual(6);
    for (const path of [...ok, ...flaky, ...paths('late', 8)]) expect(requestsTo(path).length).toBeGreaterThanOrEqual(1);
    expect(stand.dispatcher.output()).toContain('dependency outage: the message waits and is tried again');
  }, 150_000);

  it('crash safety: the dispatcher SIGKILLed with a delivery in flight and retries pending; its successor delivers every callback', async () => {
    const hanging = paths('hang', 3);
    const retrying = paths('retry', 5);
    for (const path of hanging) stand.receiver.answer(path, 'hang', 204);
    for (const path of retrying) stand.receiver.answer(path, 500, 204);
    const ids = await stand.sendCallbacks([...hanging, ...retrying]);
    await waitFor('every callback tried once', () => ([...hanging, ...retrying].every((p) => requestsTo(p).length >= 1) ? true : undefined), 30_000);
    await stand.dispatcher.stop('SIGKILL');
    stand.dispatcher = await stand.startDispatcher();
    const records = await settled(ids, 90_000);
    expect(records.map((r) => r.state)).toEqual(ids.map(() => 'delivered'));
    for (const path of [...hanging, ...retrying]) expect(requestsTo(path)).toHaveLength(2);
  }, 150_000);

  it('issue 18: a retry whose message was lost (its delay queue purged) is sent again by the reaper; nothing stays pending', async () => {
    await stand.dispatcher.stop('SIGTERM');
    // A 10 s gap before the second attempt: time to lose its message.
    stand.dispatcher = await stand.startDispatcher({ WEBHOOK_BACKOFF_SCALE: '5' });
    const lost = paths('lost', 4);
    for (const path of lost) stand.receiver.answer(path, 500, 204);
    const ids = await stand.sendCallbacks(lost);
    await waitFor('the first attempts recorded', async () => ((await stand.deliveries(ids)).every((r) => r?.attempts === 1) ? true : undefined), 30_000);
    const connection = await connect(stand.infra.vhost.url);
    try {
      const delayQueue = 'webhook.deliver.delay.10000';
      // A fresh channel per look: checking a queue not declared yet closes the channel.
      await waitFor('the four retries to wait in their delay queue', async () => ((await (await connection.createChannel()).checkQueue(delayQueue)).messageCount === 4 ? true : undefined), 10_000);
      const { messageCount } = await (await connection.createChannel()).purgeQueue(delayQueue);
      expect(messageCount).toBe(4);
    } finally {
      await connection.close();
    }
    const records = await settled(ids, 60_000);
    expect(records.map((r) => [r.state, r.attempts])).toEqual(ids.map(() => ['delivered', 2]));
    for (const path of lost) expect(requestsTo(path)).toHaveLength(2);
    expect(stand.dispatcher.output()).toContain('callback without news sent again by the reaper');
  }, 90_000);
});
