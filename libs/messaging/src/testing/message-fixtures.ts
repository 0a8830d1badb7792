import {
  Environment,
  WebhookEvent,
  type DeliverWebhookCommand,
  type RenderDocumentCommand,
  type RenderDocumentResult,
  type RunJobCommand,
} from '@docrender/contracts';
import { JsonLogger, type LogSink } from '@docrender/observability';

export function runJob(jobId: string): RunJobCommand {
  return { jobId };
}

export function deliverWebhook(deliveryId: string, attempt = 1): DeliverWebhookCommand {
  return {
    deliveryId,
    jobId: 'job-1',
    organisationId: 'org-1',
    event: WebhookEvent.Progress,
    callbackUrl: 'https://receiver.example/callback',
    body: '{"jobId":"job-1"}',
    attempt,
  };
}

export function renderDocument(requestId: string): RenderDocumentCommand {
  return {
    requestId,
    organisationId: 'org-1',
    environment: Environment.Test,
    template: { pages: [] },
    data: { inline: { n: 1 } },
    translations: null,
    language: null,
    documentNameTemplate: null,
    fallbackDocumentName: 'document',
    customFonts: [],
    outputBlobKey: `organisations/org-1/documents/${requestId}.pdf`,
    deadline: Date.now() + 60_000,
  };
}

export function renderedResult(documentName: string): RenderDocumentResult {
  return {
    outcome: 'rendered',
    issues: [],
    documentName,
    pdf: { blobKey: `pdfs/${documentName}.pdf`, pageCount: 1, fileSizeBytes: 1234 },
    renderDurationMs: 5,
    failure: null,
  };
}

/** A JSON logger whose lines the test can read (and that keeps test output quiet). */
export function capturingLogger(): { logger: JsonLogger; lines: string[]; messages(): string[] } {
  const lines: string[] = [];
  const sink: LogSink = (line) => lines.push(line);
  return {
    logger: new JsonLogger('messaging-test', 'debug', {}, sink),
    lines,
    messages: () => lines.map((line) => (JSON.parse(line) as { message: string }).message),
  };
}

/** Resolves when `condition` holds, polling every 10 ms; rejects after `timeoutMs` with `what` in the message. */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export type Deferred<T> = { promise: Promise<T>; resolve(value: T): void };

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
