import { crashUntilSettled, startAsyncStack, tableDocument, TABLE_TEMPLATE, waitFor } from '@docrender/testing';
import { sizeFrom, type ResilienceScenario } from '../figures';
import { accountFor } from './stack-figures';

/**
 * A job of RESILIENCE_CRASH_DOCUMENTS documents (9) rendered one at a time by the real render service; while the
 * middle one (a long table) prints, every Chromium renderer is killed, and again whenever a renderer prints until
 * the victim is explained, so its print and its retry both crash. The issue 18 run before the fix: `missingCount` 1 with `issues: []`.
 */
export const chromiumCrashLoop: ResilienceScenario = {
  name: 'chromium-crash-loop',
  description: 'Chromium crashed on one document of a job and on its retry',
  async run() {
    const count = sizeFrom('RESILIENCE_CRASH_DOCUMENTS', 9);
    const victim = Math.floor(count / 2);
    const documents = Array.from({ length: count }, (_, i) => tableDocument(`C-${i + 1}`, i === victim ? 4_000 : 5));
    const stack = await startAsyncStack(
      'resilience-crash',
      { JOBS_RENDER_CONCURRENCY: '1' },
      { renderService: { template: TABLE_TEMPLATE, settings: { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1' } } },
    );
    try {
      const key = stack.testKey;
      const renderService = stack.processes['render-service']!;
      const jobId = await stack.enqueue(key, documents);
      await waitFor('the documents before the victim', async () => ((await stack.status(key, jobId)).renderedCount >= victim ? true : undefined), 120_000, 50);
      const explained = waitFor('the victim explained', async () => ((await stack.status(key, jobId)).issues.length >= 1 ? true : undefined), 240_000, 50);
      const kills = await crashUntilSettled(renderService.pid, explained);
      const stoppedAt = Date.now();
      const status = await stack.finished(key, jobId, 180_000).catch(() => null);
      const account = accountFor(stack, status, jobId, count);
      const victimIssue = status?.issues.find((i) => i.documentIndex === victim);
      return {
        lost: account.lost,
        duplicated: account.duplicatedCallbacks,
        secondsToRecover: status === null ? null : (Date.now() - stoppedAt) / 1000,
        maxInFlight: null,
        readP95Ms: null,
        notes: { documents: count, rendered: account.rendered, 'explained by an issue': account.explained, 'victim issue': victimIssue?.type ?? 'none', 'crash rounds': kills },
      };
    } finally {
      await stack.teardown();
    }
  },
};
