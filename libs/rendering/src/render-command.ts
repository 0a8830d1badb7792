import {
  explainMissingDocument,
  type DataRef,
  type RenderDocumentCommand,
  type RenderDocumentResult,
  type RenderIssue,
} from '@docrender/contracts';
import type { RenderTarget } from './render-target';

/** One document to render with a target: its data, where its PDF goes, and the id that correlates the logs. */
export type DocumentToRender = {
  requestId: string;
  data: DataRef;
  outputBlobKey: string;
  /** Ask for the PDF inside the reply when it is at most this many bytes (a caller that answers with the bytes). */
  inlinePdfMaxBytes?: number;
};

/**
 * The render budget of spec 8 (60 s per document by default): the render service abandons a document past its
 * deadline; the sender waits that long and a grace period of its own for the reply.
 */
export class RenderBudget {
  constructor(readonly budgetMs: number) {}

  /** The deadline of a document sent now. */
  deadline(now: number = Date.now()): number {
    return now + this.budgetMs;
  }

  /** How long a sender waits for the reply: the budget and `graceMs` past it. */
  replyTimeoutMs(graceMs: number): number {
    return this.budgetMs + graceMs;
  }
}

/** The render.document command of one document (spec 8's budget counted from now). */
export function renderCommand(target: RenderTarget, document: DocumentToRender, budget: RenderBudget): RenderDocumentCommand {
  return {
    requestId: document.requestId,
    organisationId: target.organisationId,
    environment: target.environment,
    template: target.template,
    data: document.data,
    translations: target.translations,
    language: target.language,
    documentNameTemplate: target.documentNameTemplate,
    fallbackDocumentName: target.fallbackDocumentName,
    customFonts: target.customFonts,
    outputBlobKey: document.outputBlobKey,
    ...(document.inlinePdfMaxBytes !== undefined && document.inlinePdfMaxBytes > 0 ? { inlinePdfMaxBytes: document.inlinePdfMaxBytes } : {}),
    deadline: budget.deadline(),
  };
}

export type RenderedPdf = NonNullable<RenderDocumentResult['pdf']>;

/** What a render reply means for its document: a PDF, or an outcome without one and the issues that explain it. */
export type DocumentOutcome =
  | { outcome: 'rendered'; pdf: RenderedPdf; issues: RenderIssue[] }
  | { outcome: 'blocked' | 'failed'; pdf: null; issues: RenderIssue[] };

/**
 * Spec 3.1 rule 2: a document that ends without a PDF always carries an Error issue (a reply "rendered" without a PDF
 * counts as failed); a blocked document's issues already say why.
 */
export function documentOutcomeOf(reply: RenderDocumentResult): DocumentOutcome {
  if (reply.outcome === 'rendered' && reply.pdf !== null) return { outcome: 'rendered', pdf: reply.pdf, issues: reply.issues };
  if (reply.outcome === 'blocked') return { outcome: 'blocked', pdf: null, issues: reply.issues };
  return { outcome: 'failed', pdf: null, issues: explainMissingDocument(reply.issues, reply.failure) };
}
