import { IssueSeverity, JobState, RenderIssueType, RenderStatus, type RenderEnvelopeDto } from '@docrender/contracts';
import { crashUntilSettled, startAsyncStack, tableDocument, TABLE_TEMPLATE, waitFor, type AsyncStack } from '@docrender/testing';

jest.setTimeout(300_000);

/** Enough rows (over 400 pages) to keep a print in Chromium for seconds, so the crashes hit it there. */
const LONG_ROWS = 20_000;
/**
 * A renderer is taken to be printing the long document once it has used 1 s of CPU. A page being created or cleared
 * on a loaded machine can use that much too: killing it only replaces the page, and the killing goes on until the
 * document's outcome is known (crashUntilSettled), so the print is caught whichever page it lands on.
 */
const BUSY_TICKS = 100;

/** The Error issue that explains a missing document (spec 3.1 rule 2; docs/decisions/0010: RenderTimeout, saying why). */
const explanationOf = (documentIndex: number) =>
  expect.objectContaining({ documentIndex, type: RenderIssueType.RenderTimeout, severity: IssueSeverity.Error, description: 'Not rendered: Chromium crashed twice while printing the document.' });

/**
 * Issue 18 item 3: a document whose Chromium crashes on its render and on the pool's one retry (every renderer process
 * killed whenever it prints) ends without a PDF and is explained by an issue with its documentIndex, in the job status, the completion callback and the sync envelope. Before the fix: missingCount 1
 * with `issues: []`. The four apps are processes; the render service has one page, the job renders one document at a
 * time, so the crashes hit only the long document.
 */
describe('issue 18 item 3: Chromium crash loop on one document (four apps as processes, real Chromium)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack(
      'crash-loop',
      { JOBS_RENDER_CONCURRENCY: '1' },
      { renderService: { template: TABLE_TEMPLATE, settings: { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1' } } },
    );
  });

  afterAll(async () => {
    await stack?.teardown();
  });

  it('3.1 rule 2: the job status and the completion callback explain the crashed document by its documentIndex; the others render', async () => {
    const jobId = await stack.enqueue(stack.testKey, [tableDocument('A', 3), tableDocument('B', LONG_ROWS), tableDocument('C', 3)]);
    await waitFor('document 0', async () => ((await stack.status(stack.testKey, jobId)).renderedCount >= 1 ? true : undefined), 120_000, 25);
    // the crashes stop once document 1 is explained, so document 2 prints undisturbed
    const explained = waitFor('document 1 explained', async () => ((await stack.status(stack.testKey, jobId)).issues.length >= 1 ? true : undefined), 240_000, 25);
    expect(await crashUntilSettled(stack.processes['render-service']!.pid, explained, BUSY_TICKS)).toBeGreaterThanOrEqual(2);

    const done = await stack.finished(stack.testKey, jobId, 120_000);
    expect(done).toMatchObject({ state: JobState.Completed, status: RenderStatus.Partial, renderedCount: 2, missingCount: 1 });
    expect(done.issues).toEqual([explanationOf(1)]);
    const completion = JSON.parse((await stack.completionOf(jobId)).rawBody) as { missingCount: number; issues: unknown[] };
    expect(completion).toMatchObject({ missingCount: 1, issues: [explanationOf(1)] });
  });

  it('3.1 rule 2: a sync render whose Chromium keeps crashing answers an envelope explaining the document by its documentIndex', async () => {
    const answer = fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}?persist=false`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ documents: [tableDocument('D', LONG_ROWS)] }),
    });
    expect(await crashUntilSettled(stack.processes['render-service']!.pid, answer, BUSY_TICKS)).toBeGreaterThanOrEqual(2);
    const res = await answer;
    expect(res.status).toBe(200);
    const envelope = (await res.json()) as RenderEnvelopeDto;
    expect(envelope).toMatchObject({ status: RenderStatus.Failed, renderedCount: 0, missingCount: 1, issues: [explanationOf(0)] });
  });
});
