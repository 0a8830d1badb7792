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
}
