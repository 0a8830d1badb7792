import type { DocumentConformance } from '../documents/document.dto';
import { Environment } from '../environment';
import { RenderIssue } from '../issues/render-issue';
import { WebhookEvent } from '../callbacks/webhook-event';

/**
 * The closed set of messages the apps exchange over the message bus (RabbitMQ, or the in-process transport
 * in one-process mode). Each name has one payload type (MessagePayloads) and, for request/reply messages,
 * one reply type (MessageReplies). Each name is subscribed to by one app (SUBSCRIPTIONS in libs/messaging), and an app
 * refuses to start when a message it subscribes to has no handler (checkHandlers, called for every app by the shared
 * bootstrap's SubscriptionGate in libs/platform before the app takes a message).
 */
export enum MessageName {
  /** gateway / job-worker → render-service, request/reply: compile and print one document. */
  RenderDocument = 'render.document',
  /** gateway → render-service, request/reply: PNG of the first page of a version with its sample data. */
  RenderPreview = 'render.preview',
  /** outbox relay (gateway side) → job-worker: run one async job. */
  RunJob = 'job.run',
  /** job-worker → webhook-dispatcher: deliver one callback (retried durably by the dispatcher). */
  DeliverWebhook = 'webhook.deliver',
}

export type RequestMessageName = MessageName.RenderDocument | MessageName.RenderPreview;
export type EventMessageName = MessageName.RunJob | MessageName.DeliverWebhook;

/**
 * Document data: inline as a value, inline as the raw JSON text the client sent (so the gateway need not parse a large
 * document on its event loop), or through the blob store by key (UTF-8 JSON) when too large for a message.
 */
export type DataRef = { inline: unknown } | { json: string } | { blobKey: string };

/** A custom font file of the organisation, read by the render service from the blob store. */
export type CustomFontRef = {
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  blobKey: string;
  /** woff2, woff, ttf or otf */
  format: string;
};

export type RenderDocumentCommand = {
  /** Correlates logs across apps (the gateway's request id or `<jobId>:<documentIndex>`). */
  requestId: string;
  organisationId: string;
  /** test → watermark and only Error issues block; production → Warning and Error block. */
  environment: Environment;
  /** The template DSL (parsed JSON); a sender may give it as EncodedJson (its text made once per template version). */
  template: unknown;
  /**
   * The SHA-256 (base64) of the template's JSON text as sent, computed once per template version by the sender: a
   * render service that already holds that template takes its own copy without hashing the template again (decision
   * 0022). Absent from older senders: the render service hashes the template itself. The template is always sent.
   */
  templateDigest?: string;
  data: DataRef;
  /** The version's translations (parsed JSON), or null. */
  translations: unknown;
  language: string | null;
  documentNameTemplate: string | null;
  /** Used when there is no document-name template or it yields an empty name. */
  fallbackDocumentName: string;
  customFonts: CustomFontRef[];
  /** Where the render service stores the PDF (always, whether or not it also comes back inline). */
  outputBlobKey: string;
  /**
   * Set by a caller that needs the PDF's bytes (e.g. to answer with them): a PDF of at most this many bytes also comes
   * back inside the reply (RenderDocumentResult.pdf), saving the caller a read from the blob store.
   * Absent or 0: never. Large PDFs never travel inside messages: callers keep this modest (the gateway's
   * RENDER_API_INLINE_PDF_MAX_BYTES).
   */
  inlinePdfMaxBytes?: number;
  /**
   * With inlinePdfMaxBytes: the caller takes the inline PDF as raw bytes (pdf.inlineBytes, carried after the reply's
   * JSON: decision 0022) instead of base64 (pdf.inlineBase64). A render service older than this field ignores it and
   * answers base64, so a caller that sets it reads either; a render service answers raw bytes only when asked.
   */
  inlinePdfBinary?: boolean;
  /** Epoch milliseconds after which the render is abandoned with a RenderTimeout issue. */
  deadline: number;
  /**
   * Set by a caller holding a client's connection (the gateway's sync renders): once the blob store has failed for
   * this long without answering (unreachable, reset, 5xx), the document ends `failed` with ExternalServiceError
   * instead of waiting to its deadline, so the client gets its 500 with Retry-After when the outage outlasts a blip
   * (decision 0041). Absent (async jobs, older senders): an outage is waited out within the whole budget.
   */
  storageOutageWaitMs?: number;
};

export type RenderOutcome = 'rendered' | 'blocked' | 'failed';

export type RenderDocumentResult = {
  outcome: RenderOutcome;
  /** Every issue found, blocking or not; documentIndex is null (the caller knows the index). */
  issues: RenderIssue[];
  documentName: string;
  /**
   * Set when outcome is rendered. When the command asked for the PDF with inlinePdfMaxBytes and fileSizeBytes is
   * within it, the PDF is here as well: inlineBytes when the command set inlinePdfBinary (and the render service knows
   * the flag), inlineBase64 otherwise. Without either the PDF is read at blobKey.
   */
  pdf: {
    blobKey: string;
    pageCount: number;
    fileSizeBytes: number;
    inlineBase64?: string;
    inlineBytes?: Uint8Array;
    /** What the document asked to conform to and the result of the service's checks; absent from older render services. */
    conformance?: DocumentConformance;
  } | null;
  renderDurationMs: number;
  /** Set when outcome is failed: why (e.g. RenderTimeout, InternalError). */
  failure: { code: string; message: string } | null;
};

export type RenderPreviewCommand = {
  requestId: string;
  organisationId: string;
  template: unknown;
  /** The version's sample data: an object with `data` and `i18n`. */
  sampleData: unknown;
  translations: unknown;
  customFonts: CustomFontRef[];
  outputBlobKey: string;
  deadline: number;
};

export type RenderPreviewResult = {
  outcome: RenderOutcome;
  issues: RenderIssue[];
  png: { blobKey: string; fileSizeBytes: number } | null;
  failure: { code: string; message: string } | null;
};

export type RunJobCommand = { jobId: string };

export type DeliverWebhookCommand = {
  /** Stable across the retries of one logical delivery (X-Service-Delivery). */
  deliveryId: string;
  jobId: string;
  organisationId: string;
  event: WebhookEvent;
  callbackUrl: string;
  /** The exact raw JSON body to send; it is what gets signed. */
  body: string;
  /** 1 for the first attempt. */
  attempt: number;
};

export interface MessagePayloads {
  [MessageName.RenderDocument]: RenderDocumentCommand;
  [MessageName.RenderPreview]: RenderPreviewCommand;
  [MessageName.RunJob]: RunJobCommand;
  [MessageName.DeliverWebhook]: DeliverWebhookCommand;
}

export interface MessageReplies {
  [MessageName.RenderDocument]: RenderDocumentResult;
  [MessageName.RenderPreview]: RenderPreviewResult;
}
