import { JobState } from '@docrender/contracts';
import { documentsOf, startAsyncStack } from '@docrender/testing';
import { p95, readWhile, sizeFrom, sleep, type ResilienceScenario } from '../figures';

/**
 * RabbitMQ cut for RESILIENCE_BROKER_CUT_S seconds (30) for the gateway, the job worker and the dispatcher while
 * the client enqueues RESILIENCE_ENQUEUES_PER_S jobs a second (2) of one document each, and reads a job status four
 * times a second; the render stand-in keeps its own connection. The issue 18 run before the fix: all 10 pool
 * connections held, every request 11–14 s.
 */
export const rabbitmqCut: ResilienceScenario = {
  name: 'rabbitmq-cut',
  description: 'RabbitMQ cut under enqueue load; reads during the outage',
  async run() {
    const cutMs = sizeFrom('RESILIENCE_BROKER_CUT_S', 30) * 1000;
    const perSecond = sizeFrom('RESILIENCE_ENQUEUES_PER_S', 2);
    const stack = await startAsyncStack('resilience-broker', { AMQP_RECONNECT_MAX_DELAY_MS: '1000' }, { faults: { rabbitmq: ['api-gateway', 'job-worker', 'webhook-dispatcher'] } });
    try {
      const key = stack.testKey;
      const probe = await stack.enqueue(key, documentsOf(1));
      await stack.finished(key, probe);
      const broker = stack.faults.rabbitmq!;
      const enqueueMs: number[] = [];
      const accepted: string[] = [];
      let refused = 0;
      broker.cut();
      const cutAt = Date.now();
      const outage = sleep(cutMs);
      const reads = readWhile(
        async () => (await fetch(`${stack.gatewayUrl}/v1/render/jobs/${probe}`, { headers: { Authorization: `Bearer ${key}` } })).status,
        outage,
        250,
      );
      const enqueues: Promise<void>[] = [];
      while (Date.now() - cutAt < cutMs) {
        const started = Date.now();
        enqueues.push(
          stack.enqueue(key, documentsOf(1)).then(
            (jobId) => {
              enqueueMs.push(Date.now() - started);
              accepted.push(jobId);
            },
            () => {
              refused++;
            },
          ),
        );
        await sleep(1000 / perSecond);
      }
      await outage;
      await Promise.all(enqueues);
      const { latencies, statuses } = await reads;
      broker.forward();
      const backAt = Date.now();
      let lost = 0;
      let duplicated = 0;
      for (const jobId of accepted) {
        const done = await stack.finished(key, jobId, 180_000).catch(() => null);
        if (done === null || done.state !== JobState.Completed || done.renderedCount !== 1) lost++;
        if ((stack.renderer?.renders.get(`${jobId}:0`) ?? 0) > 1) duplicated++;
      }
      return {
        lost,
        duplicated,
        secondsToRecover: (Date.now() - backAt) / 1000,
        maxInFlight: null,
        readP95Ms: p95(latencies),
        notes: {
          'cut s': cutMs / 1000,
          'enqueues accepted': accepted.length,
          'enqueues refused': refused,
          'enqueue p95 ms': p95(enqueueMs) ?? 0,
          'reads not 200': statuses.filter((s) => s !== 200).length,
        },
      };
    } finally {
      stack.faults.rabbitmq?.forward();
      await stack.teardown();
    }
  },
};
