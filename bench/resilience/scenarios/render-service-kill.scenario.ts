import { startAsyncStack, waitFor } from '@docrender/testing';
import { sizeFrom, type ResilienceScenario } from '../figures';
import { accountFor, numberedDocuments, NUMBERED_TEMPLATE } from './stack-figures';

/**
 * Two render services (Chromium) share a job of RESILIENCE_KILL_DOCUMENTS documents (60); one is SIGKILLed once a
 * few documents are rendered. Holds since before issue 18 (60/60, nothing stored, charged or called back twice):
 * kept so it does not regress.
 */
export const renderServiceKill: ResilienceScenario = {
  name: 'render-service-kill',
  description: 'a render service SIGKILLed mid-batch while another keeps rendering',
  async run() {
    const count = sizeFrom('RESILIENCE_KILL_DOCUMENTS', 60);
    const stack = await startAsyncStack(
      'resilience-kill',
      {},
      { renderService: { template: NUMBERED_TEMPLATE, settings: { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1' } } },
    );
    try {
      const key = stack.prodKey;
      await stack.start('render-service', { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1' });
      const jobId = await stack.enqueue(key, numberedDocuments(count));
      await waitFor('a few documents', async () => ((await stack.status(key, jobId)).renderedCount >= 5 ? true : undefined), 120_000, 50);
      await stack.processes['render-service']!.stop('SIGKILL');
      const killedAt = Date.now();
      const status = await stack.finished(key, jobId, 300_000).catch(() => null);
      const account = accountFor(stack, status, jobId, count);
      const [{ stored }] = (await stack.infra.db.dataSource.query(`SELECT count(*)::int AS stored FROM documents WHERE render_job_id = $1`, [jobId])) as { stored: number }[];
      return {
        lost: account.lost,
        duplicated: account.duplicatedCallbacks + Math.max(0, stored - account.rendered),
        secondsToRecover: status === null ? null : (Date.now() - killedAt) / 1000,
        maxInFlight: null,
        readP95Ms: null,
        notes: { documents: count, rendered: account.rendered, 'stored rows': stored },
      };
    } finally {
      await stack.teardown();
    }
  },
};
