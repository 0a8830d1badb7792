import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contractCheckedFetch, REPO_ROOT } from '@docrender/testing';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  DocrenderClient,
  ErrorCode,
  isValid,
  JobWaitTimeoutError,
  MalformedCallbackError,
  NotFoundError,
  PayloadTooLargeError,
  pdfOf,
  readCallback,
  RenderBlockedError,
  RenderIssueType,
  TimeoutError,
  UnprocessableEntityError,
  WebhookSignatureError,
  WebhookSignatureFailure,
  type ClientWarning,
  type ReceivedCallback,
} from '../src';
import { IDS, startCallbackSink, startService, type CallbackSink, type ServiceFixture } from './service-fixture';

jest.setTimeout(240_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isPdf = (bytes: Buffer): boolean => bytes.subarray(0, 5).toString() === '%PDF-';

async function all<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('@docrender/client against the running service (one-process mode, real PostgreSQL and Chromium)', () => {
  let service: ServiceFixture;
  let client: DocrenderClient;
  let invoice: Record<string, unknown>;
  let letter: Record<string, unknown>;

  beforeAll(async () => {
    // A 1 MiB body limit lets a small request prove 413 PayloadTooLarge.
    service = await startService({ RENDER_API_MAX_BODY_BYTES: String(1024 * 1024) });
    // Every answer the SDK reads in these tests must match docs/openapi.json.
    client = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.test, fetch: contractCheckedFetch });
    invoice = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/invoice/data.json'), 'utf8')) as Record<string, unknown>;
    letter = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/letter/data.json'), 'utf8')) as Record<string, unknown>;
  });

  afterAll(async () => {
    await service?.stop();
  });

  describe('probes and stats', () => {
    it('4.17: meta.status is ready and meta.version names the build, without a key', async () => {
      const anonymous = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: 'service_test_notAKeyTheServiceKnows' });
      expect(await anonymous.meta.status()).toEqual({ ready: true });
      expect((await anonymous.meta.version()).version).toMatch(/^(\d+\.\d+\.\d+.*|unknown)$/);
    });

    it('4.16: organisation.stats reports the key’s organisation', async () => {
      const stats = await client.organisation.stats();
      expect(stats).toMatchObject({ organisationName: 'Client SDK Org', tier: 'growth', includedRendersPerMonth: 1000, includedTokensPerMonth: 5000, userCount: 2 });
      expect(stats.pagesAvailable).toBeLessThanOrEqual(1000);
    });
  });

  describe('templates and versions', () => {
    it('4.7: templates.list answers a paged result, of the organisation or of one project', async () => {
      const page = await client.templates.list({ sortBy: 'name' });
      expect(page).toMatchObject({ total: 3, skip: 0, take: 25 });
      expect(page.items.map((t) => t.name)).toEqual(['Draft only', 'Invoice', 'Letter']);
      const inProject = await client.templates.list({ projectId: IDS.project, search: 'voice' });
      expect(inProject.items.map((t) => t.id)).toEqual([IDS.invoice]);
      expect(inProject.items[0]).toMatchObject({ projectName: 'Examples', latestVersionNumber: 1, versionCount: 2 });
    });

    it('4.1: templates.listAll walks every page by the paging rule, also pinned', async () => {
      const names = (await all(client.templates.listAll({ take: 1, sortBy: 'name', sortDirection: 'desc' }))).map((t) => t.name);
      expect(names).toEqual(['Letter', 'Invoice', 'Draft only']);
      expect(await all(client.templates.listAll({ take: 2 }, { pin: true }))).toHaveLength(3);
      expect(await all(client.templates.listAll({}, { pin: new Date('2000-01-01T00:00:00Z') }))).toEqual([]);
    });

    it('4.8: templates.get answers one template; an unknown one is NotFoundError TemplateNotFound', async () => {
      expect(await client.templates.get(IDS.letter)).toMatchObject({ id: IDS.letter, name: 'Letter', documentNameTemplate: 'Letter to {{recipient.name}}' });
      const error = await client.templates.get('6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: ErrorCode.TemplateNotFound });
    });

    it('4.9: listVersions and listAllVersions give version summaries, drafts included', async () => {
      const page = await client.templates.listVersions(IDS.invoice, { sortDirection: 'desc' });
      expect(page.items.map((v) => [v.versionNumber, v.publishedAt === null])).toEqual([
        [2, true],
        [1, false],
      ]);
      expect(page.items[0]).not.toHaveProperty('templateJson');
      const published = await all(client.templates.listAllVersions(IDS.invoice, { take: 1, filters: [{ field: 'versionNumber', op: 'lte', value: 1 }] }));
      expect(published.map((v) => v.versionNumber)).toEqual([1]);
    });

    it('4.10: getVersion answers the latest published or a numbered version with its DSL and sample data; NoPublishedVersion', async () => {
      const latest = await client.templates.getVersion(IDS.invoice, 'latest');
      expect(latest).toMatchObject({ versionNumber: 1, templateId: IDS.invoice });
      expect(latest.id).not.toBe(IDS.invoice);
      expect((JSON.parse(latest.sampleData) as { data: unknown }).data).toEqual(invoice);
      expect(typeof JSON.parse(latest.templateJson)).toBe('object');
      expect((await client.templates.getVersion(IDS.invoice, 2)).publishedAt).toBeNull();
      await expect(client.templates.getVersion(IDS.draftOnly, 'latest')).rejects.toMatchObject({ status: 404, code: ErrorCode.NoPublishedVersion });
      await expect(client.templates.getVersion(IDS.invoice, 9)).rejects.toMatchObject({ code: ErrorCode.VersionNotFound });
    });

    it('4.11: updateDocumentNameTemplate sets and clears the pattern; a body that cannot be bound is UnprocessableEntityError BindingError', async () => {
      expect((await client.templates.updateDocumentNameTemplate(IDS.draftOnly, 1, 'Proforma {{number}}')).documentNameTemplate).toBe('Proforma {{number}}');
      expect((await client.templates.getVersion(IDS.draftOnly, 1)).documentNameTemplate).toBe('Proforma {{number}}');
      expect((await client.templates.updateDocumentNameTemplate(IDS.draftOnly, 1, null)).documentNameTemplate).toBeNull();
      const error = await client.templates.updateDocumentNameTemplate(IDS.draftOnly, 1, 42 as unknown as string).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect(error).toMatchObject({ status: 422, code: ErrorCode.BindingError });
    });

    it('4.12: getPreviewImage gives a signed link to a PNG of the first page', async () => {
      const { url } = await client.templates.getPreviewImage(IDS.invoice, 1);
      const png = await fetch(url);
      expect(png.status).toBe(200);
      expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    });

    it('4.18: fonts.list and listAll list the families templates may use', async () => {
      const page = await client.fonts.list({ filters: [{ field: 'source', value: 'builtin' }] });
      expect(page.items.map((f) => f.family)).toEqual(expect.arrayContaining(['Inter', 'Noto Serif', 'Roboto Mono']));
      expect((await all(client.fonts.listAll({ take: 1 }))).length).toBe((await client.fonts.list()).total);
    });
  });

  describe('rendering', () => {
    it('4.2: render answers the envelope for a partial batch; blocked documents leave gaps, correlated by documentIndex', async () => {
      const envelope = await client.renders.render(IDS.invoice, [{}, invoice], { includeDocument: true });
      expect(envelope).toMatchObject({ status: 'partial', requestedCount: 2, renderedCount: 1, missingCount: 1 });
      expect(envelope.documents).toHaveLength(1);
      const [document] = envelope.documents;
      expect(document).toMatchObject({ documentIndex: 1, documentName: `Invoice ${String(invoice.number)}`, environment: 'test', versionNumber: 1 });
      expect(document.id).toMatch(UUID);
      expect(isPdf(pdfOf(document) as Buffer)).toBe(true);
      expect(envelope.issues.filter((i) => i.type === RenderIssueType.SchemaInvalid).every((i) => i.documentIndex === 0)).toBe(true);
    });

    it('4.2: persist=false stores nothing: id and viewUrl are null and the PDF comes inline', async () => {
      const { documents } = await client.renders.render(IDS.invoice, [invoice], { persist: false });
      expect(documents[0]).toMatchObject({ id: null, viewUrl: null });
      expect(isPdf(pdfOf(documents[0]) as Buffer)).toBe(true);
    });

    it('4.2: a version by number (a draft) and a language variant; an unknown language is BadRequestError ValidationError', async () => {
      const draft = await client.renders.render(IDS.invoice, [invoice], { version: 2 });
      expect(draft.documents[0]).toMatchObject({ versionNumber: 2, documentName: `Draft ${String(invoice.number)}` });
      const german = await client.renders.render(IDS.letter, [letter], { language: 'de' });
      expect(german.documents[0]).toMatchObject({ language: 'de', documentName: expect.stringMatching(/^Letter to /) });
      const error = await client.renders.render(IDS.letter, [letter], { language: 'xx' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, code: ErrorCode.ValidationError });
    });

    it('1: a test key renders at most 10 documents per request: 11 is BadRequestError', async () => {
      await expect(client.renders.render(IDS.invoice, Array.from({ length: 11 }, () => invoice))).rejects.toMatchObject({ status: 400, code: ErrorCode.ValidationError });
    });

    it('4.2: renderPdf answers the PDF with the metadata of the response headers', async () => {
      const rendered = await client.renders.renderPdf(IDS.invoice, invoice);
      expect(isPdf(rendered.pdf)).toBe(true);
      expect(rendered).toMatchObject({ documentName: `Invoice ${String(invoice.number)}`, documentId: expect.stringMatching(UUID), viewUrl: expect.stringContaining('/file?') });
      expect(rendered.pageCount).toBeGreaterThanOrEqual(1);
      expect(rendered.renderDurationMs).toBeGreaterThanOrEqual(0);
    });

    it('4.2: renderPdf of a blocked document is RenderBlockedError (422) carrying the render envelope', async () => {
      const error = await client.renders.renderPdf(IDS.invoice, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderBlockedError);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      const blocked = error as RenderBlockedError;
      expect(blocked.status).toBe(422);
      expect(blocked.code).toBeNull();
      expect(blocked.envelope).toMatchObject({ status: 'failed', renderedCount: 0, documents: [] });
      expect(blocked.envelope.issues.map((i) => i.type)).toContain(RenderIssueType.SchemaInvalid);
    });

    it('4.3: renderStateless answers a PDF; an invalid DSL is UnprocessableEntityError BindingError', async () => {
      const template = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/invoice/template.json'), 'utf8')) as Record<string, unknown>;
      expect(isPdf(await client.renders.renderStateless({ template, data: invoice }))).toBe(true);
      const error = await client.renders.renderStateless({ template: { not: 'a template' }, data: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnprocessableEntityError);
      expect(error).toMatchObject({ code: ErrorCode.BindingError });
    });

    it('4.4: validate reports issues per document without rendering; isValid applies the validity rule', async () => {
      const { issues } = await client.renders.validate(IDS.invoice, [invoice, {}]);
      expect(issues.length).toBeGreaterThan(0);
      expect(new Set(issues.map((i) => i.documentIndex))).toEqual(new Set([1]));
      expect(isValid(issues)).toBe(false);
      expect(isValid((await client.renders.validate(IDS.invoice, [invoice])).issues)).toBe(true);
      await expect(client.renders.validate(IDS.invoice, [invoice], { version: 7 })).rejects.toMatchObject({ code: ErrorCode.VersionNotFound });
    });

    it('8: a request body over the service’s limit is PayloadTooLargeError', async () => {
      const error = await client.renders.render(IDS.invoice, [{ ...invoice, padding: 'x'.repeat(1_200_000) }]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PayloadTooLargeError);
      expect(error).toMatchObject({ status: 413, code: ErrorCode.PayloadTooLarge });
    });

    it('7.5: a render that outlasts timeoutMs is a TimeoutError', async () => {
      const error = await client.renders.renderPdf(IDS.invoice, invoice, { timeoutMs: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeoutMs: 5, request: `POST /v1/render/${IDS.invoice}` });
    });
  });

  describe('environments', () => {
    it('1: switching the key switches environment; a production key in a NODE_ENV=test process warns once', async () => {
      expect(process.env.NODE_ENV).toBe('test');
      const warnings: ClientWarning[] = [];
      const onWarning = (warning: ClientWarning): number => warnings.push(warning);
      const switching = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.test, onWarning });
      expect(switching.environment).toBe('test');
      expect((await switching.renders.render(IDS.invoice, [invoice])).documents[0].environment).toBe('test');
      const pagesBefore = (await switching.organisation.stats()).pagesUsedThisPeriod;
      expect(warnings).toEqual([]);

      switching.useApiKey(service.keys.production);
      expect(switching.environment).toBe('production');
      expect(warnings.map((w) => w.code)).toEqual(['DOCRENDER_PRODUCTION_KEY_IN_TEST']);
      const production = await switching.renders.render(IDS.invoice, [invoice]);
      expect(production.documents[0].environment).toBe('production');
      expect((await switching.organisation.stats()).pagesUsedThisPeriod).toBe(pagesBefore + production.documents[0].pageCount);

      new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.production, onWarning });
      switching.useApiKey(service.keys.production);
      expect(warnings).toHaveLength(1);
    });
  });

  describe('jobs and callbacks', () => {
    let sink: CallbackSink;
    beforeAll(async () => {
      sink = await startCallbackSink();
    });
    afterAll(async () => {
      await sink?.close();
    });

    const verified = (rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ReceivedCallback =>
      readCallback({ rawBody, headers, secrets: [service.keys.webhookSecret] });

    it('4.5, 4.6, 6: enqueue, wait until terminal, and read the signed callbacks as progress and completion', async () => {
      const states: string[] = [];
      const accepted = await client.jobs.enqueue(IDS.invoice, [invoice, {}, invoice], { callbackUrl: sink.url });
      expect(accepted).toMatchObject({ jobId: expect.stringMatching(UUID), requestedCount: 3, state: 'queued' });
      const status = await client.jobs.wait(accepted.jobId, { pollIntervalMs: 300, onStatus: (s) => states.push(s.state) });
      expect(status).toMatchObject({ jobId: accepted.jobId, state: 'completed', status: 'partial', renderedCount: 2, requestedCount: 3, missingCount: 1 });
      expect(states[states.length - 1]).toBe('completed');
      expect(status.issues.some((i) => i.documentIndex === 1 && i.type === RenderIssueType.SchemaInvalid)).toBe(true);

      await sink.waitFor(3);
      const callbacks = sink.received.map((r) => verified(r.rawBody, r.headers)).filter((c) => c.body.jobId === accepted.jobId);
      const progress = callbacks.filter((c) => c.kind === 'progress');
      expect(progress.map((c) => (c.kind === 'progress' ? c.body.documentIndex : -1)).sort()).toEqual([0, 2]);
      expect(progress.every((c) => c.event === 'render.progress' && UUID.test(c.deliveryId))).toBe(true);
      const completion = callbacks.find((c) => c.kind === 'completion');
      expect(completion?.event).toBe('render.completed');
      expect(completion?.body).toMatchObject({ state: 'completed', status: 'partial', renderedCount: 2, missingCount: 1 });
    });

    it('6.4: a wrong secret, a changed body or a stale signature is WebhookSignatureError; a signed body of neither shape is MalformedCallbackError', async () => {
      await sink.waitFor(1);
      const { rawBody, headers } = sink.received[0];
      const reject = (input: Partial<Parameters<typeof readCallback>[0]>): unknown => {
        try {
          return readCallback({ rawBody, headers, secrets: [service.keys.webhookSecret], ...input });
        } catch (error) {
          return error;
        }
      };
      expect(reject({ secrets: ['whsec_someoneElsesSecret00'] })).toMatchObject({ reason: WebhookSignatureFailure.NoMatchingSignature });
      expect(reject({ rawBody: Buffer.concat([rawBody, Buffer.from(' ')]) })).toBeInstanceOf(WebhookSignatureError);
      expect(reject({ nowSeconds: Math.floor(Date.now() / 1000) + 3600 })).toMatchObject({ reason: WebhookSignatureFailure.TimestampOutsideTolerance });
      expect(reject({ headers: { ...headers, 'x-service-signature': undefined } })).toMatchObject({ reason: WebhookSignatureFailure.MissingHeader });
      // spec 6.2: every callback carries X-Service-Delivery; one without it cannot be deduplicated, so it is refused
      expect(reject({ headers: { ...headers, 'x-service-delivery': undefined } })).toBeInstanceOf(MalformedCallbackError);
      expect(reject({ secrets: ['whsec_previousSecret000000', service.keys.webhookSecret] })).toMatchObject({ signedAt: expect.any(Number) });

      const body = JSON.stringify({ jobId: 'j', processed: 1 });
      const t = Math.floor(Date.now() / 1000);
      const signature = `t=${t},v1=${createHmac('sha256', service.keys.webhookSecret).update(`${t}.${body}`).digest('hex')}`;
      expect(reject({ rawBody: Buffer.from(body), headers: { 'x-service-signature': signature } })).toBeInstanceOf(MalformedCallbackError);
      const progress = sink.received.find((r) => r.headers['x-service-event'] === 'render.progress');
      expect(progress).toBeDefined();
      const mislabelled = reject({ rawBody: progress?.rawBody, headers: { ...progress?.headers, 'x-service-event': 'render.completed' } });
      expect(mislabelled).toBeInstanceOf(MalformedCallbackError);
    });

    it('3.1 rule 4: a wait that times out or is aborted leaves the job running to completion', async () => {
      const accepted = await client.jobs.enqueue(IDS.invoice, [invoice, invoice], { callbackUrl: sink.url });
      const timedOut = await client.jobs.wait(accepted.jobId, { timeoutMs: 1 }).catch((e: unknown) => e);
      expect(timedOut).toBeInstanceOf(JobWaitTimeoutError);
      const controller = new AbortController();
      controller.abort(new Error('stop waiting'));
      await expect(client.jobs.wait(accepted.jobId, { signal: controller.signal })).rejects.toThrow('stop waiting');
      expect(await client.jobs.wait(accepted.jobId, { pollIntervalMs: 300 })).toMatchObject({ state: 'completed', status: 'ok', renderedCount: 2 });
    });

    it('4.6: an unknown job is NotFoundError EntityNotFound', async () => {
      await expect(client.jobs.get('6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f')).rejects.toMatchObject({ status: 404, code: ErrorCode.EntityNotFound });
    });
  });

  describe('documents', () => {
    it('4.13: documents.list filters by template and environment; listAll pins the set against new renders', async () => {
      const filters = [
        { field: 'template.guid', value: IDS.invoice },
        { field: 'environment', value: 'test' },
      ] as const;
      const page = await client.documents.list({ filters, sortBy: 'renderedAt', sortDirection: 'desc', take: 2 });
      expect(page.total).toBeGreaterThanOrEqual(5);
      expect(page.items.every((d) => d.templateId === IDS.invoice && d.environment === 'test')).toBe(true);
      const pinAt = new Date();
      await new Promise((r) => setTimeout(r, 5));
      await client.renders.render(IDS.invoice, [invoice]);
      const pinned = await all(client.documents.listAll({ filters, take: 3 }, { pin: pinAt }));
      const everything = await all(client.documents.listAll({ filters, take: 3 }));
      expect(pinned).toHaveLength(page.total);
      expect(everything).toHaveLength(page.total + 1);
      expect(new Set(everything.map((d) => d.id)).size).toBe(everything.length);
    });

    it('4.14, 4.15: get, download, downloadToFile and downloadStream give the metadata and the same PDF bytes', async () => {
      const rendered = await client.renders.renderPdf(IDS.invoice, invoice);
      const id = rendered.documentId as string;
      expect(await client.documents.get(id)).toMatchObject({ id, documentName: rendered.documentName, isPdfDeleted: false, fileSizeBytes: rendered.pdf.length });
      const bytes = await client.documents.download(id);
      expect(bytes.equals(rendered.pdf)).toBe(true);
      const dir = await mkdtemp(path.join(tmpdir(), 'client-download-'));
      try {
        const file = await client.documents.downloadToFile(id, path.join(dir, 'invoice.pdf'));
        expect(file.bytes).toBe(bytes.length);
        expect((await readFile(file.path)).equals(bytes)).toBe(true);
        const download = await client.documents.downloadStream(id);
        expect(download.fileName).toBe(`${rendered.documentName}.pdf`);
        const chunks: Buffer[] = [];
        for await (const chunk of download.stream) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      await expect(client.documents.get('6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f')).rejects.toMatchObject({ status: 404, code: ErrorCode.DocumentNotFound });
    });

    it('3.3: a purged PDF keeps its metadata, and its download is ApiError 410 PdfDeleted', async () => {
      const other = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.purgedOrganisationTest });
      const { documentId } = await other.renders.renderPdf(IDS.purgedInvoice, invoice);
      await service.admin(['purge-pdfs', '--older-than', new Date(Date.now() + 1000).toISOString(), '--org', IDS.purgedOrganisation]);
      expect(await other.documents.get(documentId as string)).toMatchObject({ isPdfDeleted: true, viewUrl: '' });
      const error = await other.documents.download(documentId as string).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 410, code: ErrorCode.PdfDeleted });
      await expect(client.documents.get(documentId as string)).rejects.toMatchObject({ code: ErrorCode.DocumentNotFound });
    });
  });

  describe('authentication', () => {
    it('5: an unknown key is AuthenticationError Unauthorized; a key whose organisation was deleted is NotAuthenticated', async () => {
      const unknown = await new DocrenderClient({ baseUrl: service.baseUrl, apiKey: 'service_test_notAKeyTheServiceKnows' }).templates.list().catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(AuthenticationError);
      expect(unknown).toMatchObject({ status: 401, code: ErrorCode.Unauthorized });
      const orphan = await new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.deletedOrganisationTest }).organisation.stats().catch((e: unknown) => e);
      expect(orphan).toBeInstanceOf(AuthenticationError);
      expect(orphan).toMatchObject({ status: 401, code: ErrorCode.NotAuthenticated });
    });
  });
});
