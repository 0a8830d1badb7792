import { startAsyncStack } from '@docrender/testing';
import { p95, readWhile, sizeFrom, sleep, type ResilienceScenario } from '../figures';
import { accountFor, numberedDocuments, NUMBERED_TEMPLATE } from './stack-figures';

/**
 * S3 cut for RESILIENCE_S3_CUT_S seconds (20) for every app, a few seconds into a job of RESILIENCE_S3_DOCUMENTS
 * documents (60) rendered by the real render service (Chromium); a job status read four times a second meanwhile.
 * The issue 18 run before the fix: requests discarded in milliseconds while storage was down, jobs finished 60 s
 * after S3 was back.
 */
export const s3Cut: ResilienceScenario = {
  name: 's3-cut',
  description: 'S3 cut mid-batch (real render service); no document lost, every missing one explained',
  async run() {
    const cutMs = sizeFrom('RESILIENCE_S3_CUT_S', 20) * 1000;
    const documents = sizeFrom('RESILIENCE_S3_DOCUMENTS', 60);
    const stack = await startAsyncStack(
      'resilience-s3',
      {},
      {
        renderService: { template: NUMBERED_TEMPLATE, settings: { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2' } },
        faults: { s3: ['api-gateway', 'job-worker', 'webhook-dispatcher', 'render-service'] },
      },
    );
    try {
      const key = stack.prodKey;
      const jobId = await stack.enqueue(key, numberedDocuments(documents));
      await sleep(3_000);
      const storage = stack.faults.s3!;
      storage.cut();
      const outage = sleep(cutMs);
      const reads = readWhile(
        async () => (await fetch(`${stack.gatewayUrl}/v1/render/jobs/${jobId}`, { headers: { Authorization: `Bearer ${key}` } })).status,
        outage,
        250,
      );
      await outage;
      const { latencies, statuses } = await reads;
      storage.forward();
      const backAt = Date.now();
      const status = await stack.finished(key, jobId, 300_000).catch(() => null);
      const recovered = (Date.now() - backAt) / 1000;
      const account = accountFor(stack, status, jobId, documents);
      return {
        lost: account.lost,
        duplicated: account.duplicatedCallbacks,
        secondsToRecover: status === null ? null : recovered,
        maxInFlight: null,
        readP95Ms: p95(latencies),
        notes: { documents, 'cut s': cutMs / 1000, rendered: account.rendered, 'explained by an issue': account.explained, state: account.state, 'reads not 200': statuses.filter((s) => s !== 200).length },
      };
    } finally {
      stack.faults.s3?.forward();
      await stack.teardown();
    }
  },
};
