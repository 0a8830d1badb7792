import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JobState, RenderIssueType, RenderStatus, WebhookEvent, type CompletionCallbackDto, type ProgressCallbackDto } from '@docrender/contracts';
import { REPO_ROOT, startAsyncStack, type AsyncStack, waitFor } from '@docrender/testing';
import { parseCallback } from '@docrender/webhooks';

const example = (file: string) => readFileSync(path.join(REPO_ROOT, 'examples/invoice', file), 'utf8');
const invoice = JSON.parse(example('data.json')) as Record<string, unknown> & { seller: Record<string, unknown> };
const invoices = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ ...invoice, number: `INV-${tag}-${String(i + 1).padStart(3, '0')}` }));

/**
 * The Proof of issue 6 on the real pipeline: the four apps as processes (the render service printing with Chromium),
 * the invoice example of the repository, a receiver verifying every callback.
 */
describe('async jobs with the real render service (examples/invoice)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack('async-real', {}, {
      renderService: { template: { templateJson: example('template.json'), sampleData: JSON.stringify({ data: invoice, i18n: {} }), translations: null } },
    });
  }, 180_000);
  afterAll(async () => {
    await stack?.teardown();
  });

  it('3.1 / 6.1: a 25-document production job and a 10-document test job end completed/ok with 25 and 10 progress callbacks and one completion; polling agrees', async () => {
    const production = await stack.enqueue(stack.prodKey, invoices(25, 'P'), { hook: 'real-prod' });
    const test = await stack.enqueue(stack.testKey, invoices(10, 'T'), { hook: 'real-test', includeDocument: true });
    for (const [jobId, n, key] of [
      [production, 25, stack.prodKey],
      [test, 10, stack.testKey],
    ] as const) {
      const completion = parseCallback((await stack.completionOf(jobId, 150_000)).rawBody).body as CompletionCallbackDto;
      expect(completion).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: n, requestedCount: n, missingCount: 0 });
      const status = await stack.finished(key, jobId);
      expect(status).toMatchObject({ state: completion.state, status: completion.status, renderedCount: n, missingCount: 0 });
      await waitFor('every progress callback', () => (new Set(stack.callbacksOf(jobId).map((c) => c.deliveryId)).size === n + 1 ? true : undefined));
      const progress = stack.callbacksOf(jobId).filter((c) => c.event === WebhookEvent.Progress).map((c) => parseCallback(c.rawBody).body as ProgressCallbackDto);
      expect(new Set(progress.map((p) => p.documentIndex))).toEqual(new Set(Array.from({ length: n }, (_, i) => i)));
      expect(progress.every((p) => p.document.pageCount >= 1 && p.document.fileSizeBytes > 0)).toBe(true);
    }
    const withPdf = stack.callbacksOf(test).map((c) => parseCallback(c.rawBody).body).find((b): b is ProgressCallbackDto => 'document' in b)!;
    expect(Buffer.from(withPdf.document.documentBase64!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(stack.receiver.received.filter((r) => r.signatureFailure !== null)).toEqual([]);
  }, 240_000);

  it('3.1 / 7.4: a production document with a missing binding is blocked; the job is partial with that issue', async () => {
    const documents: Record<string, unknown>[] = invoices(3, 'B');
    const { iban: _iban, ...sellerWithoutIban } = invoice.seller;
    documents[1] = { ...documents[1], seller: sellerWithoutIban };
    const jobId = await stack.enqueue(stack.prodKey, documents, { hook: 'real-blocked' });
    const completion = parseCallback((await stack.completionOf(jobId, 120_000)).rawBody).body as CompletionCallbackDto;
    expect(completion).toMatchObject({ state: JobState.Completed, status: RenderStatus.Partial, renderedCount: 2, missingCount: 1 });
    expect(completion.issues).toContainEqual(expect.objectContaining({ type: RenderIssueType.MissingBinding, documentIndex: 1 }));
    const status = await stack.finished(stack.prodKey, jobId);
    expect(status.issues).toEqual(completion.issues);
  }, 180_000);
});
