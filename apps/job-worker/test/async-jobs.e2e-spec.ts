import {
  JobState,
  RenderIssueType,
  RenderStatus,
  WebhookEvent,
  type CompletionCallbackDto,
  type JobStatusDto,
  type ProgressCallbackDto,
} from '@docrender/contracts';
import { WebhookDeliveryRepository } from '@docrender/persistence';
import { TEST_POSTGRES_URL, startAsyncStack, type AsyncStack, type ReceivedCallback, documentsOf, waitFor } from '@docrender/testing';
import { Client } from 'pg';
import { parseCallback } from '@docrender/webhooks';
import { completionDeliveryId, jobDocumentId, progressDeliveryId } from '@docrender/rendering';

const progressOf = (c: ReceivedCallback) => parseCallback(c.rawBody).body as ProgressCallbackDto;
const completionBodyOf = (c: ReceivedCallback) => parseCallback(c.rawBody).body as CompletionCallbackDto;

/** Spec 4.6 / 6.5: polling reports the same state, status, counts and (up to 100) issues as the completion callback. */
function expectPollingAgrees(status: JobStatusDto, completion: CompletionCallbackDto): void {
  expect(status).toMatchObject({
    jobId: completion.jobId,
    state: completion.state,
    status: completion.status,
    renderedCount: completion.renderedCount,
    requestedCount: completion.requestedCount,
    missingCount: completion.missingCount,
  });
  expect(status.issues).toEqual(completion.issues.slice(0, 100));
  expect(status.completedAt).not.toBeNull();
}

describe('async jobs end to end: gateway, job worker and webhook dispatcher as processes, a verifying receiver', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack('async-e2e', { JOBS_RENDER_CONCURRENCY: '4' }, { renderDelayMs: 40 });
  });
  afterAll(async () => {
    await stack?.teardown();
  });

  afterEach(() => {
    // Spec 6.4: every callback the receiver got verified with the organisation's secret.
    expect(stack.receiver.received.filter((r) => r.signatureFailure !== null)).toEqual([]);
  });

  it('3.1 / 6.1: a 25-document production job and a 10-document test job end completed/ok with 25 and 10 progress callbacks and one completion each; polling agrees', async () => {
    const [production, test] = await Promise.all([
      stack.enqueue(stack.prodKey, documentsOf(25, 'ok', 2), { hook: 'prod' }),
      stack.enqueue(stack.testKey, documentsOf(10), { hook: 'test' }),
    ]);
    for (const [jobId, n, key] of [
      [production, 25, stack.prodKey],
      [test, 10, stack.testKey],
    ] as const) {
      const completion = await stack.completionOf(jobId);
      const status = await stack.finished(key, jobId);
      // Callbacks are delivered concurrently (spec 6.3 rule 1): the completion may arrive before the last progress.
      await waitFor('every callback of the job', () => (new Set(stack.callbacksOf(jobId).map((c) => c.deliveryId)).size >= n + 1 ? true : undefined));
      const callbacks = stack.callbacksOf(jobId);
      const progress = callbacks.filter((c) => c.event === WebhookEvent.Progress);
      // At most N+1 callbacks; one logical delivery per document and one for the completion.
      expect(new Set(callbacks.map((c) => c.deliveryId)).size).toBe(n + 1);
      expect(progress).toHaveLength(n);
      expect(progress.map((p) => progressOf(p).documentIndex).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
      for (const p of progress) expect(p.deliveryId).toBe(progressDeliveryId(jobId, progressOf(p).documentIndex));
      expect(completion).toMatchObject({ event: WebhookEvent.Completed, deliveryId: completionDeliveryId(jobId) });
      const body = completionBodyOf(completion);
      expect(body).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: n, requestedCount: n, missingCount: 0, issues: [] });
      expectPollingAgrees(status, body);
      expect(status.failureReason).toBeNull();
    }
    // Spec 2.4 / 2.10: a progress callback's viewUrl downloads the stored PDF without the API key.
    const sample = progressOf(stack.callbacksOf(production).find((c) => c.event === WebhookEvent.Progress)!);
    expect(sample.document.id).toBe(jobDocumentId(production, sample.documentIndex));
    const download = await fetch(sample.document.viewUrl!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('3.1: blocked documents give partial with the right issues; nothing rendering gives render.failed; polling agrees', async () => {
    const mixed = documentsOf(5);
    mixed[1] = { scenario: 'warning' };
    mixed[3] = { scenario: 'error' };
    const partial = await stack.enqueue(stack.prodKey, mixed, { hook: 'partial' });
    const failed = await stack.enqueue(stack.prodKey, [{ scenario: 'error' }, { scenario: 'timeout' }], { hook: 'failed' });

    const partialBody = completionBodyOf(await stack.completionOf(partial));
    expect(partialBody).toMatchObject({ state: JobState.Completed, status: RenderStatus.Partial, renderedCount: 3, missingCount: 2 });
    expect(partialBody.issues.map((i) => [i.type, i.documentIndex])).toEqual([
      [RenderIssueType.MissingBinding, 1],
      [RenderIssueType.SchemaInvalid, 3],
    ]);
    await waitFor('the progress callbacks', () => (stack.callbacksOf(partial).filter((c) => c.event === WebhookEvent.Progress).length >= 3 ? true : undefined));
    expect(stack.callbacksOf(partial).filter((c) => c.event === WebhookEvent.Progress)).toHaveLength(3);
    expectPollingAgrees(await stack.finished(stack.prodKey, partial), partialBody);

    const failedCallback = await stack.completionOf(failed);
    expect(failedCallback.event).toBe(WebhookEvent.Failed);
    const failedBody = completionBodyOf(failedCallback);
    expect(failedBody).toMatchObject({ state: JobState.Failed, status: RenderStatus.Failed, renderedCount: 0, missingCount: 2 });
    const failedStatus = await stack.finished(stack.prodKey, failed);
    expectPollingAgrees(failedStatus, failedBody);
    expect(failedStatus.failureReason).toEqual(expect.any(String));
  });

  it('crash safety: the job worker killed mid-job; another worker finishes it; every document stored, charged and announced once', async () => {
    const n = 40;
    const pagesBefore = (await stack.infra.db.database.usage.getUsage(stack.tenant.organisationId)).pagesUsed;
    const jobId = await stack.enqueue(stack.prodKey, documentsOf(n, 'ok', 1), { hook: 'kill-worker' });
    await waitFor('some documents to be recorded', async () => ((await stack.status(stack.prodKey, jobId)).renderedCount >= 8 ? true : undefined), 30_000, 20);
    await stack.processes['job-worker'].stop('SIGKILL');
    const midway = await stack.status(stack.prodKey, jobId);
    expect(midway.state).toBe(JobState.Pending);
    expect(midway.renderedCount).toBeLessThan(n);
    stack.processes['job-worker'] = await stack.start('job-worker');

    const completion = completionBodyOf(await stack.completionOf(jobId));
    expect(completion).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: n, missingCount: 0 });
    expectPollingAgrees(await stack.finished(stack.prodKey, jobId), completion);

    const db = stack.infra.db.dataSource;
    const documents = (await db.query(`SELECT id FROM documents WHERE render_job_id = $1`, [jobId])) as { id: string }[];
    expect(documents.map((d) => d.id).sort()).toEqual(Array.from({ length: n }, (_, i) => jobDocumentId(jobId, i)).sort());
    const [{ results }] = (await db.query(`SELECT count(*)::int AS results FROM render_job_documents WHERE job_id = $1`, [jobId])) as { results: number }[];
    expect(results).toBe(n);
    expect((await stack.infra.db.database.usage.getUsage(stack.tenant.organisationId)).pagesUsed - pagesBefore).toBe(n);

    await waitFor('every progress callback', () => (new Set(stack.callbacksOf(jobId).map((c) => c.deliveryId)).size === n + 1 ? true : undefined));
    const progress = stack.callbacksOf(jobId).filter((c) => c.event === WebhookEvent.Progress);
    const byIndex = new Map<number, Set<string>>();
    for (const p of progress) byIndex.set(progressOf(p).documentIndex, (byIndex.get(progressOf(p).documentIndex) ?? new Set()).add(p.deliveryId));
    expect([...byIndex.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect([...byIndex.values()].every((ids) => ids.size === 1)).toBe(true);
    // Only the renders in flight at the kill are repeated (at most the job's render concurrency).
    const renders = [...stack.renderer!.renders.entries()].filter(([requestId]) => requestId.startsWith(jobId));
    expect(renders).toHaveLength(n);
    expect(renders.reduce((sum, [, count]) => sum + count, 0)).toBeLessThanOrEqual(n + 4);
  });

  it('PostgreSQL away mid-job (the worker\'s connections dropped and refused for 3 s): the job pauses, resumes and completes once', async () => {
    const n = 30;
    const db = stack.infra.db;
    const jobId = await stack.enqueue(stack.prodKey, documentsOf(n), { hook: 'postgres-away' });
    await waitFor('the job to be under way', async () => ((await stack.status(stack.prodKey, jobId)).renderedCount >= 4 ? true : undefined), 30_000, 20);
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS false`);
    try {
      await db.dataSource.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'job-worker'`, [db.name]);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const [{ rendered }] = (await db.dataSource.query(`SELECT rendered_count AS rendered FROM render_jobs WHERE id = $1`, [jobId])) as { rendered: number }[];
      expect(rendered).toBeLessThan(n);
    } finally {
      await admin.query(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    const completion = completionBodyOf(await stack.completionOf(jobId));
    expect(completion).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: n, missingCount: 0 });
    const [{ documents }] = (await db.dataSource.query(`SELECT count(DISTINCT id)::int AS documents FROM documents WHERE render_job_id = $1`, [jobId])) as { documents: number }[];
    expect(documents).toBe(n);
    await waitFor('every progress callback', () => (new Set(stack.callbacksOf(jobId).map((c) => c.deliveryId)).size === n + 1 ? true : undefined));
    expect(stack.processes['job-worker'].output()).toContain('job paused by an outage');
  });

  it('crash safety: the webhook dispatcher killed with deliveries in flight and retries pending; its successor delivers every callback', async () => {
    await stack.processes['webhook-dispatcher'].stop('SIGTERM');
    // Real backoff (2 s) so the retries are still waiting in RabbitMQ when the dispatcher dies.
    stack.processes['webhook-dispatcher'] = await stack.start('webhook-dispatcher', { WEBHOOK_BACKOFF_SCALE: '1' });
    stack.receiver.answer('/hooks/kill-dispatcher', 'hang', 'hang', ...Array.from({ length: 9 }, () => 500), 204);
    const jobId = await stack.enqueue(stack.testKey, documentsOf(10), { hook: 'kill-dispatcher' });
    await waitFor('every callback to be tried once', () => (stack.receiver.received.filter((r) => r.path === '/hooks/kill-dispatcher').length >= 11 ? true : undefined), 30_000, 20);
    await stack.processes['webhook-dispatcher'].stop('SIGKILL');
    stack.processes['webhook-dispatcher'] = await stack.start('webhook-dispatcher');

    const deliveries = new WebhookDeliveryRepository(stack.infra.db.dataSource.manager);
    const records = await waitFor(
      'every delivery to be delivered',
      async () => {
        const list = await deliveries.listByJob(jobId);
        return list.length === 11 && list.every((d) => d.state === 'delivered') ? list : undefined;
      },
      60_000,
      200,
    );
    const ids = new Set(records.map((r) => r.deliveryId));
    expect(ids).toEqual(new Set([...Array.from({ length: 10 }, (_, i) => progressDeliveryId(jobId, i)), completionDeliveryId(jobId)]));
    for (const record of records) {
      const attempts = await deliveries.listAttempts(record.deliveryId);
      expect(attempts.length).toBeLessThanOrEqual(3);
      expect(attempts.at(-1)).toMatchObject({ outcome: 'delivered', httpStatus: 204 });
    }
    const completion = completionBodyOf(await stack.completionOf(jobId));
    expectPollingAgrees(await stack.finished(stack.testKey, jobId), completion);
  });
});
