import { DependencyOutageError, DomainError, Environment, ErrorCode, OutcomeUnknownError, RenderIssueType, type RenderDocumentResult } from '@docrender/contracts';
import type { RenderedDocumentEntry } from './rendered-document';
import { RenderBatch, renderWhileCreditLasts, type BatchDocument, type BatchDocumentOutput } from './render-batch';
import { renderTargetFixture } from '@docrender/testing';

type Doc = BatchDocument & { pages: number; delayMs: number };

const target = renderTargetFixture({ template: { pages: [] } });

/** Fakes of the use case's ports: a credit of `included` pages taken atomically, and a blob store that only deletes. */
function ports(included: number, concurrency: number) {
  const state = { used: 0, recorded: [] as RenderedDocumentEntry[], deleted: [] as string[] };
  const batch = new RenderBatch({
    store: {
      record: async (entry) => {
        await Promise.resolve();
        const pages = entry.payment?.pages ?? 0;
        if (state.used + pages > included) return false;
        state.used += pages;
        state.recorded.push(entry);
        return true;
      },
    },
    credit: { getUsage: async () => ({ pagesUsed: state.used, includedPagesPerMonth: included }) },
    pdfs: { delete: async (key) => void state.deleted.push(key) },
    concurrency,
  });
  return { batch, state };
}

/** A render service stand-in that counts the documents in flight. */
function renderService() {
  const seen = { inFlight: 0, peak: 0, sent: [] as number[] };
  const render = async (document: Doc, output: BatchDocumentOutput): Promise<RenderDocumentResult> => {
    seen.sent.push(document.index);
    seen.inFlight++;
    seen.peak = Math.max(seen.peak, seen.inFlight);
    await new Promise((resolve) => setTimeout(resolve, document.delayMs));
    seen.inFlight--;
    return { outcome: 'rendered', issues: [], documentName: 'Invoice', pdf: { blobKey: output.outputBlobKey, pageCount: document.pages, fileSizeBytes: 10 }, renderDurationMs: 1, failure: null };
  };
  return { render, seen };
}

const docs = (specs: [pages: number, delayMs: number][]): Doc[] => specs.map(([pages, delayMs], index) => ({ index, depth: 1, pages, delayMs }));

describe('RenderBatch (the sync batch use case) with fakes of its ports', () => {
  it('issue 31 item 6: documents an earlier answer of the request paid for and did not deliver are answered as they are, not rendered or paid again; the rest are', async () => {
    const { batch, state } = ports(3, 2);
    const { render, seen } = renderService();
    const first = await batch.render({ target, documents: docs([[2, 1], [1, 1]]), persist: false, requestId: 'r1', render });
    expect(state.used).toBe(3);
    // the credit is spent: a retry that paid again could not even be answered
    const retry = await batch.render({ target, documents: docs([[2, 1], [1, 1], [1, 1]]), persist: false, requestId: 'r2', render, paid: first.rendered });
    expect(retry.rendered.map((d) => [d.documentIndex, d.pdfBlobKey])).toEqual([
      [0, 'organisations/org-1/transient/r1/0.pdf'],
      [1, 'organisations/org-1/transient/r1/1.pdf'],
    ]);
    expect(retry.creditStopped).toBe(true);
    expect(seen.sent).toEqual([0, 1, 2]);
    expect(state.used).toBe(3);
  });

  it('4.2 sync batch: never more than the batch concurrency of documents in flight at once', async () => {
    const { batch } = ports(1000, 3);
    const { render, seen } = renderService();
    const result = await batch.render({ target, documents: docs(Array.from({ length: 10 }, (_, i) => [1, 2 + (i % 3)])), persist: false, requestId: 'r', render });
    expect(result.rendered).toHaveLength(10);
    expect(seen.peak).toBe(3);
  });

  it('2.6 documentIndex: outcomes come back in document order whatever order they finish in', async () => {
    const { batch } = ports(1000, 4);
    const { render } = renderService();
    const result = await batch.render({ target, documents: docs([[1, 30], [1, 1], [1, 20], [1, 5]]), persist: false, requestId: 'r', render });
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0, 1, 2, 3]);
  });

  it('3.1 rule 3 credit: the document that does not fit is not paid, its PDF is deleted, and later documents are not started', async () => {
    const { batch, state } = ports(3, 1);
    const { render, seen } = renderService();
    const result = await batch.render({ target, documents: docs([[2, 1], [2, 1], [1, 1], [1, 1]]), persist: false, requestId: 'r', render });
    expect(result.creditStopped).toBe(true);
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0]);
    expect(seen.sent).toEqual([0, 1]);
    expect(state.used).toBe(2);
    expect(state.deleted).toEqual(['organisations/org-1/transient/r/1.pdf']);
  });

  it('3.1 rule 3 credit: a production batch at zero credit sends nothing to the render service', async () => {
    const { batch } = ports(0, 2);
    const { render, seen } = renderService();
    const result = await batch.render({ target, documents: docs([[1, 1], [1, 1]]), persist: false, requestId: 'r', render });
    expect(result).toMatchObject({ creditStopped: true, rendered: [] });
    expect(seen.sent).toEqual([]);
  });

  it('spec 2.4 test keys: a test batch takes no credit, so zero credit does not stop it', async () => {
    const { batch, state } = ports(0, 2);
    const { render } = renderService();
    const result = await batch.render({ target: { ...target, environment: Environment.Test }, documents: docs([[1, 1], [1, 1]]), persist: false, requestId: 'r', render });
    expect(result).toMatchObject({ creditStopped: false });
    expect(result.rendered).toHaveLength(2);
    expect(state.used).toBe(0);
  });
});

/** Ports whose store records the first `healthy` documents, then fails each recording with `failure()`. */
function failingAfter(healthy: number, failure: () => Error) {
  const state = { used: 0, recorded: [] as RenderedDocumentEntry[], deleted: [] as string[], attempts: 0 };
  const batch = new RenderBatch({
    store: {
      record: async (entry) => {
        await Promise.resolve();
        if (++state.attempts > healthy) throw failure();
        state.used += entry.payment?.pages ?? 0;
        state.recorded.push(entry);
        return true;
      },
    },
    credit: { getUsage: async () => ({ pagesUsed: state.used, includedPagesPerMonth: 1000 }) },
    pdfs: { delete: async (key) => void state.deleted.push(key) },
    concurrency: 1,
  });
  return { batch, state };
}

const databaseDown = () => new DependencyOutageError('database', 'connect ECONNREFUSED 127.0.0.1:5432');

describe('RenderBatch when a dependency goes away mid-batch (issue 31 item 6: an outage never charges for what is not answered)', () => {
  it('the documents paid for before the outage are answered; each other one has an issue saying it was not charged, and no further document is sent', async () => {
    const { batch, state } = failingAfter(2, databaseDown);
    const { render, seen } = renderService();
    const result = await batch.render({ target, documents: docs([[2, 1], [2, 1], [2, 1], [2, 1], [2, 1]]), persist: false, requestId: 'r', render });
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0, 1]);
    expect(state.used).toBe(4);
    // The one whose recording failed was sent; the two after it were not.
    expect(seen.sent).toEqual([0, 1, 2]);
    expect(state.deleted).toEqual(['organisations/org-1/transient/r/2.pdf']);
    expect(result.issues.map((i) => [i.documentIndex, i.type])).toEqual([
      [2, RenderIssueType.RenderTimeout],
      [3, RenderIssueType.RenderTimeout],
      [4, RenderIssueType.RenderTimeout],
    ]);
    expect(result.issues[0].description).toMatch(/database became unreachable.*not charged/);
    expect(result.issues[0].description).not.toMatch(/127\.0\.0\.1/);
    expect(result).toMatchObject({ interruption: { reason: 'the database became unreachable' }, failedCount: 3, uncertain: [] });
  });

  it("nothing paid for: the outage goes on as the request's error (500 ExternalServiceError with Retry-After), so the retry pays once", async () => {
    const { batch, state } = failingAfter(0, databaseDown);
    const { render } = renderService();
    await expect(batch.render({ target, documents: docs([[1, 1], [1, 1]]), persist: false, requestId: 'r', render })).rejects.toBeInstanceOf(DependencyOutageError);
    expect(state.used).toBe(0);
  });

  it('a recording whose outcome is unknown (the connection went away with it sent) is answered, never reported missing', async () => {
    const { batch } = failingAfter(1, () => new OutcomeUnknownError('database', 'connection lost'));
    const { render } = renderService();
    const result = await batch.render({ target, documents: docs([[1, 1], [1, 1], [1, 1]]), persist: false, requestId: 'r', render });
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0, 1]);
    expect(result.uncertain).toEqual([1]);
    expect(result.issues.map((i) => i.documentIndex)).toEqual([2]);
  });

  it('the render service unreachable after documents were paid: they are answered, the rest explained', async () => {
    const { batch } = ports(1000, 1);
    const { render: healthy } = renderService();
    const render = async (document: Doc, output: BatchDocumentOutput) => {
      if (document.index >= 1) throw new DomainError(ErrorCode.ExternalServiceError, 'the render service cannot be reached; retry later');
      return healthy(document, output);
    };
    const result = await batch.render({ target, documents: docs([[1, 1], [1, 1], [1, 1]]), persist: false, requestId: 'r', render });
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0]);
    expect(result.issues.map((i) => i.documentIndex)).toEqual([1, 2]);
    expect(result.issues[0].description).toMatch(/render service cannot be reached/);
  });
});

describe('renderWhileCreditLasts (the loop the sync batch and the job share)', () => {
  it('3.1 rule 3: once a document stops the run, no further document starts; one already in flight finishes', async () => {
    const started: number[] = [];
    const run = await renderWhileCreditLasts([0, 1, 2, 3, 4], { concurrency: 2, creditStopped: false }, async (i, state) => {
      started.push(i);
      await new Promise((resolve) => setTimeout(resolve, i === 0 ? 1 : 10));
      if (i === 0) state.creditStopped = true;
    });
    expect(run.creditStopped).toBe(true);
    expect(started).toEqual([0, 1]);
  });

  it('3.1 rule 3: a run that starts stopped starts nothing', async () => {
    const started: number[] = [];
    await renderWhileCreditLasts([0, 1], { concurrency: 2, creditStopped: true }, async (i) => void started.push(i));
    expect(started).toEqual([]);
  });
});
