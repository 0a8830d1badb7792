import { PLAIN_PDF_CONFORMANCE } from '@docrender/contracts';
import type { RenderedDocument } from './render-batch';
import { UndeliveredAnswers, type UndeliveredAnswerStore } from './undelivered-answers';

const document = (index: number): RenderedDocument => ({
  documentIndex: index,
  id: `doc-${index}`,
  documentName: `Invoice ${index}`,
  pageCount: 2,
  fileSizeBytes: 100,
  renderDurationMs: 10,
  renderedAt: new Date('2026-11-29T12:00:00.000Z'),
  pdfBlobKey: `pdf/${index}.pdf`,
  inlinePdf: null,
  transient: false,
  issues: [],
  conformance: PLAIN_PDF_CONFORMANCE,
});

/** A store in memory, or one that fails every write. */
function store(failing = false): UndeliveredAnswerStore & { kept: Map<string, object[]> } {
  const kept = new Map<string, object[]>();
  return {
    kept,
    remember: async (organisationId, fingerprint, documents) => {
      if (failing) throw new Error('PostgreSQL is away');
      kept.set(`${organisationId}/${fingerprint}`, [...documents]);
    },
    take: async (organisationId, fingerprint) => {
      const found = kept.get(`${organisationId}/${fingerprint}`) ?? [];
      kept.delete(`${organisationId}/${fingerprint}`);
      return found;
    },
  };
}

const request = { organisationId: 'org-1', fingerprint: 'f1' };

describe('UndeliveredAnswers.renderOnce: a retry after a 5xx never pays twice, on every sync route (decision 0041)', () => {
  it('an answer that fails keeps what the render paid for; the same request then gets them to answer, once', async () => {
    const answers = new UndeliveredAnswers(store());
    const failed = answers.renderOnce(request, async () => ({ rendered: [document(0), document(1)] }), async () => Promise.reject(new Error('S3 cut')), () => undefined);
    await expect(failed).rejects.toThrow('S3 cut');
    const seen: (readonly RenderedDocument[])[] = [];
    const retry = await answers.renderOnce(request, async (paid) => (seen.push(paid), { rendered: paid }), async (r) => r.rendered.length, () => undefined);
    expect(seen[0].map((d) => d.id)).toEqual(['doc-0', 'doc-1']);
    expect(retry.answer).toBe(2);
    const third = await answers.renderOnce(request, async (paid) => ({ rendered: paid }), async (r) => r.rendered.length, () => undefined);
    expect(third.answer).toBe(0);
  });

  it('a render that throws after taking the paid documents gives them back for the next retry', async () => {
    const answers = new UndeliveredAnswers(store());
    await expect(answers.renderOnce(request, async () => ({ rendered: [document(0)] }), async () => Promise.reject(new Error('cut')), () => undefined)).rejects.toThrow();
    await expect(answers.renderOnce(request, async () => Promise.reject(new Error('render service away')), async () => 0, () => undefined)).rejects.toThrow('render service away');
    const retry = await answers.renderOnce(request, async (paid) => ({ rendered: paid }), async (r) => r.rendered.map((d) => d.id), () => undefined);
    expect(retry.answer).toEqual(['doc-0']);
  });

  it('a store that cannot keep them is reported, and the answer’s own error goes on', async () => {
    const reported: number[] = [];
    const answers = new UndeliveredAnswers(store(true));
    const failed = answers.renderOnce(request, async () => ({ rendered: [document(0)] }), async () => Promise.reject(new Error('S3 cut')), (_error, documents) => reported.push(documents));
    await expect(failed).rejects.toThrow('S3 cut');
    expect(reported).toEqual([1]);
  });
});
