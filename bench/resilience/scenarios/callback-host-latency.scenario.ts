import { startDispatcherStand } from '@docrender/testing';
import { sizeFrom, type ResilienceScenario } from '../figures';
import { accountForCallbacks, dispatcherCounter, secondsUntilSettled } from './callback-figures';

/**
 * Issue 18 row 5 (spec 6.3: 16 in flight): RESILIENCE_SLOW_CALLBACKS (200) callbacks to one receiver that answers each
 * in RESILIENCE_RECEIVER_MS (1000). In flight is measured at the receiver; parked = callbacks sent back to RabbitMQ.
 */
export const callbackHostLatency: ResilienceScenario = {
  name: 'callback-host-latency',
  description: 'callbacks to one receiver answering in 1 s',
  async run() {
    const total = sizeFrom('RESILIENCE_SLOW_CALLBACKS', 200);
    const answerMs = sizeFrom('RESILIENCE_RECEIVER_MS', 1000);
    const stand = await startDispatcherStand('resilience-callback-host');
    try {
      stand.receiver.answer('/slow', { status: 204, afterMs: answerMs });
      const started = Date.now();
      const ids = await stand.sendCallbacks(Array.from({ length: total }, () => '/slow'));
      const settled = await secondsUntilSettled(stand, ids, 600_000);
      const seconds = settled === null ? null : (Date.now() - started) / 1000;
      const account = await accountForCallbacks(stand, ids);
      return {
        lost: account.lost,
        duplicated: account.duplicated,
        secondsToRecover: null,
        maxInFlight: stand.receiver.peakInFlight(),
        readP95Ms: null,
        notes: { ...account.states, 'seconds for all': seconds === null ? 'timed out' : seconds.toFixed(1), parked: (await dispatcherCounter(stand, 'docrender_webhook_host_busy_total')) ?? '?' },
      };
    } finally {
      await stand.teardown();
    }
  },
};
