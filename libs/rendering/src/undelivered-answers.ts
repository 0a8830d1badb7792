import { createHash } from 'node:crypto';
import type { DocumentConformance, RenderIssue } from '@docrender/contracts';
import type { RenderedDocument } from './render-batch';

/** The store of answers that did not reach their client (UndeliveredRenderRepository in libs/persistence). */
export type UndeliveredAnswerStore = {
  remember(organisationId: string, fingerprint: string, documents: readonly object[]): Promise<void>;
  take(organisationId: string, fingerprint: string, windowMs: number): Promise<object[]>;
};

/**
 * How long a paid, undelivered answer waits for the same request: a client retries an answer with Retry-After within
 * seconds to minutes; a day covers a client that retries from its own queue the next morning.
 */
export const UNDELIVERED_ANSWER_WINDOW_MS = 24 * 3_600_000;

/** A rendered document as it is kept: its PDF at its blob key (inline bytes are not kept). */
type KeptDocument = Omit<RenderedDocument, 'renderedAt' | 'inlinePdf'> & { renderedAt: string };

function kept(document: RenderedDocument): KeptDocument {
  const { inlinePdf: _inline, renderedAt, ...rest } = document;
  return { ...rest, renderedAt: renderedAt.toISOString() };
}

function restored(document: object): RenderedDocument {
  const k = document as KeptDocument;
  return {
    documentIndex: k.documentIndex,
    id: k.id,
    documentName: k.documentName,
    pageCount: k.pageCount,
    fileSizeBytes: k.fileSizeBytes,
    renderDurationMs: k.renderDurationMs,
    renderedAt: new Date(k.renderedAt),
    pdfBlobKey: k.pdfBlobKey,
    inlinePdf: null,
    transient: k.transient,
    issues: k.issues as RenderIssue[],
    conformance: k.conformance as DocumentConformance,
  };
}

/**
 * A retry after a 5xx never pays twice for the same input (issue 31 item 6, decision 0041). When a sync render paid
 * for documents and then could not deliver its answer (reading a PDF back failed, the answer could not be written),
 * the documents are remembered under the request's fingerprint: what the client sent (its bytes) and how it asked for
 * it (template, version, query, answer format, key environment). The same request within UNDELIVERED_ANSWER_WINDOW_MS
 * takes them — answered, not rendered or charged again — once; every other request renders as before, so a client that
 * prints the same data again on purpose after an answer it received pays for it, as before.
 */
export class UndeliveredAnswers {
  constructor(
    private readonly store: UndeliveredAnswerStore,
    private readonly windowMs: number = UNDELIVERED_ANSWER_WINDOW_MS,
  ) {}

  /** The fingerprint of a request: how it asked (any JSON) and the bytes of its body. */
  static fingerprint(how: unknown, body: Buffer): string {
    return createHash('sha256').update(JSON.stringify(how)).update('\u0000').update(body).digest('base64url');
  }

  /** The documents an earlier answer of this request paid for and did not deliver (taken: a second call gets none). */
  async paidFor(organisationId: string, fingerprint: string): Promise<RenderedDocument[]> {
    return (await this.store.take(organisationId, fingerprint, this.windowMs)).map(restored);
  }

  /** Remembers the documents an answer paid for, the answer having failed; nothing when it paid for nothing. */
  async undelivered(organisationId: string, fingerprint: string, documents: readonly RenderedDocument[]): Promise<void> {
    if (documents.length === 0) return;
    await this.store.remember(organisationId, fingerprint, documents.map(kept));
  }

  /**
   * One sync render under this rule, for every sync route: `render` gets what an earlier answer of the same request
   * paid for and did not deliver (to answer as it is, not render or charge again), and `answer` makes the answer
   * from the result. When either throws, the documents paid for so far are kept for the retry and the error goes
   * on; a failure to keep them goes to `keepFailed` and never replaces the answer's own error.
   */
  async renderOnce<R extends { rendered: readonly RenderedDocument[] }, A>(
    request: { organisationId: string; fingerprint: string },
    render: (paid: readonly RenderedDocument[]) => Promise<R>,
    answer: (result: R) => Promise<A>,
    keepFailed: (error: unknown, documents: number) => void,
  ): Promise<{ result: R; answer: A }> {
    const keep = async (documents: readonly RenderedDocument[]): Promise<void> => {
      await this.undelivered(request.organisationId, request.fingerprint, documents).catch((error: unknown) => keepFailed(error, documents.length));
    };
    const paid = await this.paidFor(request.organisationId, request.fingerprint);
    let result: R;
    try {
      result = await render(paid);
    } catch (error) {
      await keep(paid);
      throw error;
    }
    try {
      return { result, answer: await answer(result) };
    } catch (error) {
      // paid for, not answered: the client is told to retry, and its retry takes these
      await keep(result.rendered);
      throw error;
    }
  }
}
