import { Environment, type RenderDocumentResult } from '@docrender/contracts';
import type { RenderedDocumentEntry } from '@docrender/persistence';
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
