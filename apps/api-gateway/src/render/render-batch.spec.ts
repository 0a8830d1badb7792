import { loadSettings, messagingSettings, renderApiSettings, type RenderApiSettings } from '@docrender/config';
import {
  Environment,
  hasBlockingIssue,
  Limits,
  MessageName,
  renderIssue,
  RenderIssueType,
  type RenderDocumentCommand,
  type RenderDocumentResult,
} from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import type { NewStoredDocument } from '@docrender/persistence';
import { RenderBatch, RenderBudget, RenderServiceClient, type RenderedDocumentEntry, type RenderTarget } from '@docrender/rendering';
import { MemoryBlobStore } from '@docrender/storage';
import { renderTargetFixture } from '@docrender/testing';
import { scanJsonBody } from '../request-body/json-body.scanner';
import { bindRenderBody, DOCUMENTS_MEMBER } from '../request-body/render-body.binder';
import { SyncDocumentSender } from './sync-document.sender';

/** Allowance in pages; tryConsumePages is atomic here as in PostgreSQL (one synchronous check-and-add). */
class FakeUsage {
  constructor(public included: number, public used = 0) {}
  async tryConsumePages(_organisationId: string, pages: number): Promise<boolean> {
    await Promise.resolve();
    if (this.used + pages > this.included) return false;
    this.used += pages;
    return true;
  }
  async getUsage() {
    return { pagesUsed: this.used, includedPagesPerMonth: this.included };
  }
}

/** The ledger: pays and stores together (one transaction in PostgreSQL), or does neither. */
class FakeLedger {
  readonly created: NewStoredDocument[] = [];
  constructor(private readonly usage: FakeUsage) {}
  async record({ payment, document }: RenderedDocumentEntry): Promise<boolean> {
    if (payment !== null && !(await this.usage.tryConsumePages(payment.organisationId, payment.pages))) return false;
    if (document !== null) this.created.push(document);
    return true;
  }
}

type FakeData = { pages?: number; warn?: boolean; error?: boolean; slowMs?: number; filler?: string; failWith?: string };

const ORG = 'org-1';
const target = (environment: Environment): RenderTarget =>
  renderTargetFixture({ organisationId: ORG, environment, template: { pages: [] }, source: { templateId: 'template-1', versionNumber: 2 } });

/** The sync batch use case (libs/rendering RenderBatch) as the gateway drives it: through SyncDocumentSender (the one RenderServiceClient) and the body binder. */
describe('RenderBatch through the gateway', () => {
  let bus: InProcessMessageBus;
  let blobStore: MemoryBlobStore;
  let usage: FakeUsage;
  let storedDocuments: FakeLedger;
  let settings: RenderApiSettings;
  let budgetMs: number;
  let replyGraceMs: number;
  let commands: RenderDocumentCommand[];
  /** The stand-in plays a render service older than inlinePdfBinary (a rolling upgrade): the inline PDF comes back base64. */
  let olderRenderService: boolean;

  /** The render service's side: reads the data, blocks by environment, stores a "PDF" at outputBlobKey. */
  async function renderServiceStandIn(command: RenderDocumentCommand): Promise<RenderDocumentResult> {
    commands.push(command);
    const text = 'json' in command.data ? command.data.json : 'blobKey' in command.data ? (await blobStore.get(command.data.blobKey)).toString() : '';
    const data = JSON.parse(text) as FakeData;
    if (data.slowMs) await new Promise((resolve) => setTimeout(resolve, data.slowMs));
    const issues = [
      ...(data.warn ? [renderIssue(RenderIssueType.MissingBinding, 'no value for name', 'title')] : []),
      ...(data.error ? [renderIssue(RenderIssueType.SchemaInvalid, 'not the expected shape')] : []),
    ];
    if (data.failWith !== undefined) {
      // a failure the render service did not explain with an issue
      return { outcome: 'failed', issues, documentName: 'Invoice', pdf: null, renderDurationMs: 3, failure: { code: data.failWith, message: `failed with ${data.failWith}` } };
    }
    if (hasBlockingIssue(issues, command.environment)) {
      return { outcome: 'blocked', issues, documentName: 'Invoice', pdf: null, renderDurationMs: 3, failure: null };
    }
    const pdf = Buffer.from(`%PDF ${command.requestId}`);
    await blobStore.put(command.outputBlobKey, pdf, 'application/pdf');
    return {
      outcome: 'rendered',
      issues,
      documentName: 'Invoice',
      pdf: {
        blobKey: command.outputBlobKey,
        pageCount: data.pages ?? 1,
        fileSizeBytes: pdf.length,
        ...(pdf.length <= (command.inlinePdfMaxBytes ?? 0)
          ? command.inlinePdfBinary === true && !olderRenderService
            ? { inlineBytes: pdf }
            : { inlineBase64: pdf.toString('base64') }
          : {}),
      },
      renderDurationMs: 5,
      failure: null,
    };
  }

  beforeEach(async () => {
    bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined });
    blobStore = new MemoryBlobStore();
    usage = new FakeUsage(100);
    storedDocuments = new FakeLedger(usage);
    settings = { ...loadSettings(renderApiSettings, {}), batchConcurrency: 4 };
    budgetMs = Limits.renderBudgetMs;
    replyGraceMs = 10_000;
    commands = [];
    olderRenderService = false;
    await bus.consume(MessageName.RenderDocument, renderServiceStandIn, { prefetch: 8 });
  });
  afterEach(async () => {
    await bus.close();
  });


  function body(documents: unknown[]) {
    const raw = Buffer.from(JSON.stringify({ documents }));
    return bindRenderBody(raw, scanJsonBody(raw, [DOCUMENTS_MEMBER]));
  }

  async function render(environment: Environment, documents: unknown[], persist = true, wantsPdfBytes = false) {
    const { raw, documents: slices } = body(documents);
    const sender = new SyncDocumentSender(new RenderServiceClient(bus, new RenderBudget(budgetMs), replyGraceMs), blobStore, settings);
    const batch = new RenderBatch({ store: storedDocuments, credit: usage, pdfs: blobStore, concurrency: settings.batchConcurrency });
    const at = target(environment);
    return batch.render({ target: at, documents: slices, persist, render: sender.documentsOf(at, raw, wantsPdfBytes), requestId: 'request-1' });
  }

  it('2.6: documents correlate by documentIndex; blocked ones leave gaps and explain themselves in issues', async () => {
    const deep = JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as unknown;
    const result = await render(Environment.Production, [{ pages: 2 }, { warn: true }, deep, { error: true }, {}]);
    expect(result.rendered.map((d) => [d.documentIndex, d.pageCount])).toEqual([
      [0, 2],
      [4, 1],
    ]);
    expect(result.issues.map((i) => [i.documentIndex, i.type])).toEqual([
      [1, RenderIssueType.MissingBinding],
      [2, RenderIssueType.DangerousContent],
      [3, RenderIssueType.SchemaInvalid],
    ]);
    expect(result).toMatchObject({ requestedCount: 5, blockedCount: 3, failedCount: 0, creditStopped: false });
    expect(commands).toHaveLength(4);
  });

  it('8: a document nesting deeper than 32 levels is a DangerousContent issue and is never sent', async () => {
    const deep = JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown;
    const result = await render(Environment.Test, [{ deep }]);
    expect(result.issues).toEqual([
      { type: RenderIssueType.DangerousContent, severity: 'Error', description: 'The document data is nested 101 levels deep; the limit is 32.', elementId: null, documentIndex: 0 },
    ]);
    expect(commands).toHaveLength(0);
  });

  it('1: test keys render Warning documents and take no credit; production keys pay per page', async () => {
    usage.included = 3;
    const test = await render(Environment.Test, [{ pages: 2, warn: true }, { pages: 2 }]);
    expect(test.rendered).toHaveLength(2);
    expect(test.issues.map((i) => [i.documentIndex, i.type])).toEqual([[0, RenderIssueType.MissingBinding]]);
    expect(usage.used).toBe(0);
    const production = await render(Environment.Production, [{ pages: 2 }]);
    expect(production.rendered).toHaveLength(1);
    expect(usage.used).toBe(2);
  });

  it('3.1 rule 3: a production batch that runs out of credit stops, keeps what was rendered and deletes the PDF that did not fit', async () => {
    settings.batchConcurrency = 1;
    usage.included = 5;
    const result = await render(Environment.Production, [{ pages: 2 }, { pages: 2 }, { pages: 2 }, { pages: 1 }, { pages: 1 }]);
    expect(result.creditStopped).toBe(true);
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0, 1]);
    expect(usage.used).toBe(4);
    expect(commands).toHaveLength(3);
    expect(storedDocuments.created).toHaveLength(2);
    expect([...blobStore.blobs.keys()].sort()).toEqual(result.rendered.map((d) => d.pdfBlobKey).sort());
  });

  it('3.1 rule 3: concurrent documents never overspend the allowance', async () => {
    settings.batchConcurrency = 8;
    usage.included = 7;
    const result = await render(Environment.Production, Array.from({ length: 20 }, () => ({ pages: 2 })));
    expect(result.creditStopped).toBe(true);
    expect(result.rendered).toHaveLength(3);
    expect(usage.used).toBe(6);
    expect(blobStore.blobs.size).toBe(3);
  });

  it('3.1 rule 3: nothing is rendered when the period has no credit left', async () => {
    usage.used = usage.included;
    const result = await render(Environment.Production, [{}, {}]);
    expect(result).toMatchObject({ creditStopped: true, rendered: [] });
    expect(commands).toHaveLength(0);
  });

  it('3.1 rule 3: a single document without credit is rendered, not paid for, and its PDF deleted', async () => {
    usage.used = usage.included;
    const result = await render(Environment.Production, [{}]);
    expect(result).toMatchObject({ creditStopped: true, rendered: [] });
    expect(commands).toHaveLength(1);
    expect(blobStore.blobs.size).toBe(0);
    expect(storedDocuments.created).toHaveLength(0);
  });

  it('4.2: persist=true stores each document (metadata row, PDF under the document id)', async () => {
    const result = await render(Environment.Test, [{ pages: 3 }]);
    const [document] = result.rendered;
    expect(document.transient).toBe(false);
    expect(document.pdfBlobKey).toBe(`organisations/${ORG}/documents/${document.id}.pdf`);
    expect(storedDocuments.created).toEqual([
      expect.objectContaining({
        id: document.id,
        organisationId: ORG,
        templateId: 'template-1',
        versionNumber: 2,
        environment: Environment.Test,
        documentName: 'Invoice',
        pdfBlobKey: document.pdfBlobKey,
        pageCount: 3,
      }),
    ]);
  });

  it('4.2: persist=false stores nothing: no row, the PDF waits under a transient key', async () => {
    const result = await render(Environment.Test, [{}], false);
    expect(result.rendered[0]).toMatchObject({ id: null, transient: true, pdfBlobKey: `organisations/${ORG}/transient/request-1/0.pdf` });
    expect(storedDocuments.created).toHaveLength(0);
  });

  it('render.document inlinePdfMaxBytes: a caller that answers with the PDF asks for it inline up to RENDER_API_INLINE_PDF_MAX_BYTES, as raw bytes (0022)', async () => {
    settings.inlinePdfMaxBytes = 1000;
    const result = await render(Environment.Test, [{ pages: 2 }], true, true);
    const [document] = result.rendered;
    expect(commands[0]).toMatchObject({ inlinePdfMaxBytes: 1000, inlinePdfBinary: true });
    expect(document.inlinePdf).toEqual({ bytes: blobStore.blobs.get(document.pdfBlobKey) });
    expect(document.inlinePdf !== null && 'bytes' in document.inlinePdf && document.inlinePdf.bytes.toString()).toBe('%PDF request-1:0');
  });

  it('0022 rolling upgrade: a render service older than inlinePdfBinary answers base64, and the caller takes that', async () => {
    settings.inlinePdfMaxBytes = 1000;
    olderRenderService = true;
    const [document] = (await render(Environment.Test, [{}], true, true)).rendered;
    expect(document.inlinePdf).toEqual({ base64: Buffer.from('%PDF request-1:0').toString('base64') });
  });

  it('render.document inlinePdfMaxBytes: a PDF above the cap comes back by blob key only', async () => {
    settings.inlinePdfMaxBytes = 5;
    const result = await render(Environment.Test, [{}], true, true);
    expect(commands[0].inlinePdfMaxBytes).toBe(5);
    expect(result.rendered[0].inlinePdf).toBeNull();
    expect(blobStore.blobs.has(result.rendered[0].pdfBlobKey)).toBe(true);
  });

  it('render.document inlinePdfMaxBytes: a render answered without the PDF (stored, JSON envelope) does not ask for the bytes', async () => {
    const result = await render(Environment.Test, [{}], true, false);
    expect(commands[0]).not.toHaveProperty('inlinePdfMaxBytes');
    expect(commands[0]).not.toHaveProperty('inlinePdfBinary');
    expect(result.rendered[0].inlinePdf).toBeNull();
  });

  it('documents larger than RENDER_API_INLINE_DATA_MAX_BYTES reach the render service through the blob store', async () => {
    settings.inlineDataMaxBytes = 100;
    const result = await render(Environment.Test, [{ filler: 'x'.repeat(200) }, { filler: 'small' }]);
    expect(result.rendered).toHaveLength(2);
    const large = commands.find((c) => c.requestId === 'request-1:0');
    const small = commands.find((c) => c.requestId === 'request-1:1');
    expect(large?.data).toEqual({ blobKey: `organisations/${ORG}/render-inputs/request-1_0.json` });
    expect(small?.data).toEqual({ json: '{"filler":"small"}' });
    expect(blobStore.blobs.has(`organisations/${ORG}/render-inputs/request-1_0.json`)).toBe(false);
  });

  it('8: no reply within the render budget and grace is a RenderTimeout issue for that document', async () => {
    budgetMs = 50;
    replyGraceMs = 0;
    const result = await render(Environment.Test, [{ slowMs: 300 }, {}]);
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([1]);
    expect(result.failedCount).toBe(1);
    expect(result.firstFailure?.code).toBe('RenderTimeout');
    expect(result.issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, severity: 'Error', documentIndex: 0 })]);
    expect(commands[0].deadline).toBeLessThanOrEqual(Date.now());
  });

  it('3.1 rule 2: a failed document the render service did not explain still gets an Error issue with its documentIndex', async () => {
    const result = await render(Environment.Test, [{}, { failWith: 'InternalError', warn: true }]);
    expect(result.rendered.map((d) => d.documentIndex)).toEqual([0]);
    expect(result.issues.map((i) => [i.documentIndex, i.type, i.severity])).toEqual([
      [1, RenderIssueType.MissingBinding, 'Warning'],
      [1, RenderIssueType.RenderTimeout, 'Error'],
    ]);
  });

  it('7.2: nothing rendered because the blob store stayed down (ExternalServiceError) is a 500 ExternalServiceError, not an envelope', async () => {
    await expect(render(Environment.Test, [{ failWith: 'ExternalServiceError' }])).rejects.toMatchObject({ code: 'ExternalServiceError' });
    const partial = await render(Environment.Test, [{}, { failWith: 'ExternalServiceError' }]);
    expect(partial.issues).toEqual([expect.objectContaining({ type: RenderIssueType.RenderTimeout, documentIndex: 1 })]);
  });
});
