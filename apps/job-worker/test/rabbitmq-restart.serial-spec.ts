import { JobState, RenderStatus, WebhookEvent, type CompletionCallbackDto } from '@docrender/contracts';
import { restartRabbitMq, startAsyncStack, type AsyncStack, documentsOf, waitFor } from '@docrender/testing';
import { parseCallback } from '@docrender/webhooks';
import { jobDocumentId } from '@docrender/rendering';

/**
 * Restarts the machine's RabbitMQ (stop_app / start_app) while a job runs and while a job is enqueued: every
 * connection on the broker drops, so it is a serial spec: jest runs it after every other test file, alone.
 */
describe('RabbitMQ restarted while a job runs (issue: reconnect without losing accepted work)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    // 120 documents of 250 ms, 4 at a time: the job runs for 7.5 s at least, longer than `rabbitmqctl stop_app` takes
    // on a loaded machine, so RabbitMQ goes down while it runs (with 40 of 100 ms it had sometimes finished first)
    stack = await startAsyncStack('async-restart', { JOBS_RENDER_CONCURRENCY: '4', JOBS_ENQUEUE_PUBLISH_WAIT_MS: '1000' }, { renderDelayMs: 250 });
  }, 180_000);
  afterAll(async () => {
    await stack?.teardown();
  });

  it('a running job and a job enqueued while RabbitMQ is down both complete; every document stored once, every callback delivered', async () => {
    const n = 120;
    const running = await stack.enqueue(stack.prodKey, documentsOf(n), { hook: 'restart' });
    await waitFor('the job to be under way', async () => ((await stack.status(stack.prodKey, running)).renderedCount >= 4 ? true : undefined), 30_000, 20);
    let enqueuedWhileDown = '';
    await restartRabbitMq(async () => {
      expect((await stack.status(stack.prodKey, running)).state).toBe(JobState.Pending);
      // The job is stored with its outbox message; the relay publishes it once RabbitMQ is back (spec 4.5: 202).
      enqueuedWhileDown = await stack.enqueue(stack.testKey, documentsOf(5), { hook: 'restart' });
    });

    for (const [jobId, count, key] of [
      [running, n, stack.prodKey],
      [enqueuedWhileDown, 5, stack.testKey],
    ] as const) {
      const completion = parseCallback((await stack.completionOf(jobId, 120_000)).rawBody).body as CompletionCallbackDto;
      expect(completion).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: count, missingCount: 0 });
      const status = await stack.finished(key, jobId, 60_000);
      expect(status).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: count });
      await waitFor('every progress callback', () => (new Set(stack.callbacksOf(jobId).map((c) => c.deliveryId)).size === count + 1 ? true : undefined), 60_000);
      const indexes = stack
        .callbacksOf(jobId)
        .filter((c) => c.event === WebhookEvent.Progress)
        .map((c) => (parseCallback(c.rawBody).body as { documentIndex: number }).documentIndex);
      expect(new Set(indexes)).toEqual(new Set(Array.from({ length: count }, (_, i) => i)));
      const documents = (await stack.infra.db.dataSource.query(`SELECT id FROM documents WHERE render_job_id = $1`, [jobId])) as { id: string }[];
      expect(documents.map((d) => d.id).sort()).toEqual(Array.from({ length: count }, (_, i) => jobDocumentId(jobId, i)).sort());
    }
    expect(stack.receiver.received.filter((r) => r.signatureFailure !== null)).toEqual([]);
    // as long as its own waits allow: the broker's restart and the reconnections take 20–70 s on a busy machine
  }, 300_000);
});
