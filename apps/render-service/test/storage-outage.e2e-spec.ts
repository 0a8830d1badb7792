import { ErrorCode, JobState } from '@docrender/contracts';
import { startAsyncStack, waitFor, type AsyncStack, type TemplateContent } from '@docrender/testing';

jest.setTimeout(300_000);

const TEMPLATE: TemplateContent = {
  templateJson: JSON.stringify({ dsl: 1, name: 'Outage', body: [{ type: 'text', id: 'title', text: 'Document {{ number }}' }] }),
  sampleData: JSON.stringify({ data: { number: 'S-1' }, i18n: {} }),
  translations: null,
};
const documents = (n: number) => Array.from({ length: n }, (_, i) => ({ number: `D-${i + 1}` }));

/**
 * Issue 18 item 4: the render service waits out an S3 outage inside each document's budget instead of sending the
 * message back at once. The render service (Chromium) reaches S3 through a TCP fault proxy the test cuts; the
 * gateway, job worker and dispatcher reach S3 directly, so only the render service sees the outage. The gateway's
 * render budget is 4 s (RENDER_BUDGET_MS, given to the gateway alone) so that a sync render past it is quick to reach.
 */
describe('issue 18 item 4: S3 cut for the render service (four apps as processes, real Chromium)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack(
      'storage-outage',
      { JOBS_RENDER_CONCURRENCY: '2' },
      {
        renderService: { template: TEMPLATE, settings: { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2' } },
        settingsOf: { 'api-gateway': { RENDER_BUDGET_MS: '4000' } },
        faults: { s3: ['render-service'] },
      },
    );
  });

  afterAll(async () => {
    stack?.faults.s3?.forward();
    await stack?.teardown();
  });

  it('S3 cut mid-batch: the documents wait for storage and every one renders once it is back; none lost, none stored twice', async () => {
    const count = 6;
    const jobId = await stack.enqueue(stack.testKey, documents(count));
    await waitFor('the first document', async () => ((await stack.status(stack.testKey, jobId)).renderedCount >= 1 ? true : undefined), 60_000, 50);
    stack.faults.s3!.cut();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await stack.status(stack.testKey, jobId)).state).toBe(JobState.Pending);
    stack.faults.s3!.forward();

    const done = await stack.finished(stack.testKey, jobId, 120_000);
    expect(done).toMatchObject({ state: JobState.Completed, renderedCount: count, missingCount: 0, issues: [] });
    const [{ stored }] = (await stack.infra.db.dataSource.query(`SELECT count(DISTINCT id)::int AS stored FROM documents WHERE render_job_id = $1`, [jobId])) as {
      stored: number;
    }[];
    expect(stored).toBe(count);
    const completion = await stack.completionOf(jobId);
    expect(JSON.parse(completion.rawBody)).toMatchObject({ jobId, renderedCount: count, issues: [] });
  });

  it('7.2: a sync render whose storage stays down past its budget answers 500 ExternalServiceError with Retry-After, not RenderTimeout', async () => {
    const render = () =>
      fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}?persist=false`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.testKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ documents: [{ number: 'SYNC-1' }] }),
      });
    stack.faults.s3!.cut();
    try {
      const res = await render();
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, body.error.code, res.headers.get('retry-after')]).toEqual([500, ErrorCode.ExternalServiceError, expect.stringMatching(/^\d+$/)]);
      expect(body.error.message).toMatch(/blob store/);
    } finally {
      stack.faults.s3!.forward();
    }
    expect((await render()).status).toBe(200);
  });
});
