import { createHash } from 'node:crypto';
import {
  EncodedJson,
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
  /** A caller holding a client's connection: how long a blob store outage is waited out (SYNC_STORAGE_OUTAGE_WAIT_MS). */
  storageOutageWaitMs?: number;
};

/**
 * How long the render service waits for a blob store that stopped answering while a client's connection is held (a
 * sync render): an outage that lasts longer is answered then, 500 ExternalServiceError with Retry-After, rather than
 * at the end of the 60 s budget. Long enough to ride out a store restarting or failing over; an async job, which
 * holds no connection, waits within its whole budget (decision 0041).
 */
export const SYNC_STORAGE_OUTAGE_WAIT_MS = 5_000;

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

/** A template as render commands carry it: its JSON text and that text's digest. */
type CommandTemplate = { template: EncodedJson; templateDigest: string };

/**
 * Each template's CommandTemplate, made once per template object: RenderTargetResolver hands every render of a
 * version the same parsed object, so a version is serialised and hashed once, not for every document (decision
 * 0022). Templates are never modified once parsed (ParsedJsonCache), so the text stays the object's.
 */
const commandTemplates = new WeakMap<object, CommandTemplate>();

function commandTemplate(template: unknown): Pick<RenderDocumentCommand, 'template' | 'templateDigest'> {
  if (typeof template !== 'object' || template === null) return { template };
  let known = commandTemplates.get(template);
  if (known === undefined) {
    const encoded = EncodedJson.of(template);
    known = { template: encoded, templateDigest: createHash('sha256').update(encoded.text).digest('base64') };
    commandTemplates.set(template, known);
  }
  return known;
}

/** The render.document command of one document (spec 8's budget counted from now). */
export function renderCommand(target: RenderTarget, document: DocumentToRender, budget: RenderBudget): RenderDocumentCommand {
  return {
    requestId: document.requestId,
    organisationId: target.organisationId,
    environment: target.environment,
    ...commandTemplate(target.template),
    data: document.data,
    translations: target.translations,
    language: target.language,
    documentNameTemplate: target.documentNameTemplate,
    fallbackDocumentName: target.fallbackDocumentName,
    customFonts: target.customFonts,
    outputBlobKey: document.outputBlobKey,
    // the bytes, when asked for, are taken raw (decision 0022): a render service that does not know so answers base64
    ...(document.inlinePdfMaxBytes !== undefined && document.inlinePdfMaxBytes > 0 ? { inlinePdfMaxBytes: document.inlinePdfMaxBytes, inlinePdfBinary: true } : {}),
    deadline: budget.deadline(),
    ...(document.storageOutageWaitMs !== undefined ? { storageOutageWaitMs: document.storageOutageWaitMs } : {}),
  };
}

export type RenderedPdf = NonNullable<RenderDocumentResult['pdf']>;

/**
 * A PDF that came back inside its render reply: raw bytes from a render service that knows inlinePdfBinary, base64
 * from one older than it (a rolling upgrade; decision 0022). Each is used as it came: bytes for a raw PDF answer are
 * not encoded, base64 for an envelope's documentBase64 not decoded.
 */
export type InlinePdf = { bytes: Buffer } | { base64: string };

/** The PDF the reply carried inline, or null when it is to be read at its blob key. */
export function inlinePdfOf(pdf: RenderedPdf): InlinePdf | null {
  const bytes = pdf.inlineBytes;
  if (bytes !== undefined) return { bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  if (pdf.inlineBase64 !== undefined) return { base64: pdf.inlineBase64 };
  return null;
}

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
