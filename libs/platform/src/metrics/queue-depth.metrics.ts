import { MessageName } from '@docrender/contracts';
import type { MessageBus } from '@docrender/messaging';
import { gauge } from '@docrender/observability';

/**
 * `docrender_queue_depth{queue}`: messages waiting for a consumer in each work queue, read from the bus when
 * Prometheus scrapes (what KEDA scales the render service and the job worker on, and what operators alert on).
 * In one-process mode several apps register it; the first bus registered is the one read (they share it).
 */
export function registerQueueDepthGauge(bus: MessageBus): void {
  gauge('docrender_queue_depth', 'Messages waiting for a consumer, by queue (read at scrape time).', ['queue'], async function collect() {
    await Promise.all(
      Object.values(MessageName).map(async (queue) => {
        try {
          this.set({ queue }, await bus.queueDepth(queue));
        } catch {
          // The bus is unreachable: no fresh value; the readiness probe reports the outage.
        }
      }),
    );
  });
}
