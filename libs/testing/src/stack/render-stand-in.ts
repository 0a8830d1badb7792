import { PDFDocument } from '@cantoo/pdf-lib';
import {
  Environment,
  hasBlockingIssue,
  MessageName,
  renderIssue,
  RenderIssueType,
  type RenderDocumentCommand,
  type RenderDocumentResult,
  type RenderIssue,
} from '@docrender/contracts';
import type { MessageBus, Subscription } from '@docrender/messaging';
import type { BlobStore } from '@docrender/storage';

/**
 * What a test document asks the stand-in to do (its data):
 * - `ok`: render `pages` pages (default 1);
 * - `warning`: a MissingBinding issue (Warning): blocked in production, rendered in test (spec 7.4);
 * - `error`: a SchemaInvalid issue (Error): blocked in every environment;
 * - `timeout`: fails with a RenderTimeout issue;
 * - `ghost-pdf`: says it rendered but stores no PDF (a broken reply: the job cannot use it).
 */
export type StandInDocument = { scenario: 'ok' | 'warning' | 'error' | 'timeout' | 'ghost-pdf'; pages?: number; [key: string]: unknown };

export type RenderStandIn = {
  /** Renders made per requestId (`<jobId>:<documentIndex>`). */
  renders: Map<string, number>;
  stop(): Promise<void>;
};

const pdfCache = new Map<number, Buffer>();

async function pdfOf(pages: number): Promise<Buffer> {
  const cached = pdfCache.get(pages);
  if (cached) return cached;
  const document = await PDFDocument.create();
  for (let i = 0; i < pages; i++) document.addPage([595, 842]).drawText(`page ${i + 1}`, { x: 50, y: 780, size: 12 });
  const bytes = Buffer.from(await document.save());
  pdfCache.set(pages, bytes);
  return bytes;
}

async function dataOf(command: RenderDocumentCommand, blobs: BlobStore): Promise<StandInDocument> {
  const ref = command.data;
  if ('inline' in ref) return ref.inline as StandInDocument;
  if ('json' in ref) return JSON.parse(ref.json) as StandInDocument;
  return JSON.parse((await blobs.get(ref.blobKey)).toString('utf8')) as StandInDocument;
}

/**
 * A stand-in for the render service on the message bus (render.document request/reply), for tests of the job
 * worker and dispatcher that are not about rendering: it reads the document data the way the render service does
 * (inline, raw JSON or blob key), applies the blocking rule of spec 7.4 by environment, stores a real PDF with the
 * asked number of pages at outputBlobKey, and replies after `delayMs`.
 */
export async function startRenderStandIn(bus: MessageBus, blobs: BlobStore, options: { delayMs?: number; prefetch?: number } = {}): Promise<RenderStandIn> {
  const renders = new Map<string, number>();
  const subscription: Subscription = await bus.consume(
    MessageName.RenderDocument,
    async (command): Promise<RenderDocumentResult> => {
      renders.set(command.requestId, (renders.get(command.requestId) ?? 0) + 1);
      const started = Date.now();
      const data = await dataOf(command, blobs);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      const documentName = `Document ${command.requestId.split(':').pop() ?? ''}`.trim();
      const base = { documentName, renderDurationMs: Date.now() - started };
      const issues: RenderIssue[] = [];
      switch (data.scenario) {
        case 'warning':
          issues.push(renderIssue(RenderIssueType.MissingBinding, 'customer.name has no value', 'title'));
          break;
        case 'error':
          issues.push(renderIssue(RenderIssueType.SchemaInvalid, 'items must be an array', null));
          break;
        case 'timeout':
          return { ...base, outcome: 'failed', issues: [renderIssue(RenderIssueType.RenderTimeout, 'over the 60 s budget')], pdf: null, failure: { code: 'RenderTimeout', message: 'over the 60 s budget' } };
        case 'ghost-pdf':
          return { ...base, outcome: 'rendered', issues: [], pdf: { blobKey: command.outputBlobKey, pageCount: 1, fileSizeBytes: 10 }, failure: null };
        case 'ok':
          break;
      }
      if (hasBlockingIssue(issues, command.environment)) return { ...base, outcome: 'blocked', issues, pdf: null, failure: null };
      const pdf = await pdfOf(data.pages ?? 1);
      await blobs.put(command.outputBlobKey, command.environment === Environment.Test ? Buffer.concat([pdf, Buffer.from('\n% watermarked\n')]) : pdf, 'application/pdf');
      return { ...base, outcome: 'rendered', issues, pdf: { blobKey: command.outputBlobKey, pageCount: data.pages ?? 1, fileSizeBytes: pdf.byteLength }, failure: null };
    },
    { prefetch: options.prefetch ?? 8 },
  );
  return { renders, stop: () => subscription.cancel() };
}
