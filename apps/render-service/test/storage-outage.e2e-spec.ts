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
 * gateway, job worker and dispatcher reach S3 directly, so only the render service sees the outage. Every budget is
 * the default 60 s.
 */
describe('issue 18 item 4: S3 cut for the render service (four apps as processes, real Chromium)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack(
      'storage-outage',
      { JOBS_RENDER_CONCURRENCY: '2' },
      {
        renderService: { template: TEMPLATE, settings: { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2' } },
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

  it('issue 31 item 6, 7.2: a sync render during an S3 outage longer than the budget is answered once the outage is certain: 500 ExternalServiceError with Retry-After, nothing stored or charged', async () => {
    const render = () =>
      fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.prodKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ documents: [{ number: 'SYNC-1' }] }),
      });
    const charged = async () =>
      (
        (await stack.infra.db.dataSource.query(`SELECT count(*)::int AS documents FROM documents WHERE organisation_id = $1`, [stack.tenant.organisationId])) as {
          documents: number;
        }[]
      )[0]!.documents;
    const usage = async () => (await stack.infra.db.database.usage.getUsage(stack.tenant.organisationId)).pagesUsed;
    const [documentsBefore, pagesBefore] = [await charged(), await usage()];
    stack.faults.s3!.cut();
    try {
      const sent = Date.now();
      const res = await render();
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, body.error.code, res.headers.get('retry-after')]).toEqual([500, ErrorCode.ExternalServiceError, expect.stringMatching(/^\d+$/)]);
      // decided by the outage wait of a sync render (the S3 link stays cut), not by the 60 s budget running out
      expect(body.error.message).toMatch(/blob store stayed unreachable for \d+\.\d s, longer than a request waits for it/);
      expect(Date.now() - sent).toBeLessThan(60_000);
    } finally {
      stack.faults.s3!.forward();
    }
    expect([await charged(), await usage()]).toEqual([documentsBefore, pagesBefore]);
    const again = await render();
    expect(again.status).toBe(200);
    expect([await charged(), await usage()]).toEqual([documentsBefore + 1, pagesBefore + 1]);
  });

  it('issue 31 item 6: S3 refusing the render service (403 AccessDenied) is answered at its first refusal, without waiting out the budget', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied.</Message><Resource>/documents</Resource><RequestId>1</RequestId></Error>';
    const refusal = `HTTP/1.1 403 Forbidden\r\nContent-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(xml)}\r\nConnection: close\r\n\r\n${xml}`;
    const renderService = stack.processes['render-service']!;
    const waitsBefore = renderService.output().match(/waiting it out within the render budget/g)?.length ?? 0;
    stack.faults.s3!.answerWith(refusal);
    try {
      const res = await fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}?persist=false`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.testKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ documents: [{ number: 'SYNC-2' }] }),
      });
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, body.error.code]).toEqual([500, ErrorCode.ExternalServiceError]);
      expect(body.error.message).toMatch(/refused the request/);
    } finally {
      stack.faults.s3!.forward();
    }
    // The outcome was certain at the first answer: no backoff was slept for it.
    expect(renderService.output().match(/waiting it out within the render budget/g)?.length ?? 0).toBe(waitsBefore);
  });
});
