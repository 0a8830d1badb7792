import { startDispatcherStand } from '@docrender/testing';
import { sizeFrom, sleep, type ResilienceScenario } from '../figures';
import { accountForCallbacks, dispatcherCounter, secondsUntilSettled } from './callback-figures';

/**
 * Issue 18 row 1: PostgreSQL cut from the webhook dispatcher for RESILIENCE_PG_CUT_SECONDS (20) with
 * RESILIENCE_CALLBACKS (100) callbacks waiting: a fifth retrying (500, 500, then 204) when the cut starts, the rest
 * arriving during it. Production settings (real backoff, outage waits of 1 s doubling to 30 s).
 */
export const postgresCutCallbacks: ResilienceScenario = {
  name: 'postgres-cut-callbacks',
  description: 'PostgreSQL cut from the dispatcher with callbacks retrying and waiting',
  async run() {
    const total = sizeFrom('RESILIENCE_CALLBACKS', 100);
    const cutSeconds = sizeFrom('RESILIENCE_PG_CUT_SECONDS', 20);
    const stand = await startDispatcherStand('resilience-pg-callbacks');
    try {
      const retrying = Array.from({ length: Math.max(1, Math.floor(total / 5)) }, (_, i) => `/flaky/${i}`);
      for (const path of retrying) stand.receiver.answer(path, 500, 500, 204);
      const before = await stand.sendCallbacks(retrying);
      const firstAttempts = Date.now();
      while (!retrying.every((p) => stand.receiver.received.some((r) => r.path === p)) && Date.now() - firstAttempts < 30_000) await sleep(50);
      stand.postgres.cut();
      const during = await stand.sendCallbacks(Array.from({ length: total - retrying.length }, () => '/ok'));
      await sleep(cutSeconds * 1000);
      stand.postgres.forward();
      const ids = [...before, ...during];
      const secondsToRecover = await secondsUntilSettled(stand, ids, 180_000);
      const account = await accountForCallbacks(stand, ids);
      return {
        lost: account.lost,
        duplicated: account.duplicated,
        secondsToRecover,
        maxInFlight: stand.receiver.peakInFlight(),
        readP95Ms: null,
        notes: { ...account.states, 'cut s': cutSeconds, resent: (await dispatcherCounter(stand, 'docrender_webhook_resent_total')) ?? '?' },
      };
    } finally {
      await stand.teardown();
    }
  },
};
