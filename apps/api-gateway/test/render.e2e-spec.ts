import { gzipSync } from 'node:zlib';
import {
  Environment,
  ErrorCode,
  Limits,
  RenderIssueType,
  RenderStatus,
  type RenderedDocumentDto,
  type RenderEnvelopeDto,
  type RenderIssueDto,
} from '@docrender/contracts';
import { expectAnswerMatchesContract } from '@docrender/testing';
import { createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { readPdf, startRenderStack, type Gateway, type RenderStack } from './render-stack';

/** A template whose data decides the pages: one 230 mm box per sheet, so N sheets print N pages (at least 1). */
const INVOICE_TEMPLATE = {
  body: [
    { type: 'text', id: 'title', text: 'Invoice {{ number }}' },
    { type: 'text', id: 'greeting', text: "{{ t('greeting') }}" },
    {
      type: 'repeater',
      id: 'sheets',
      source: 'sheets',
      as: 'sheet',
      elements: [{ type: 'box', id: 'sheet-box', height: '230mm', elements: [{ type: 'text', id: 'sheet-label', text: 'Sheet {{ sheet.n }}' }] }],
    },
  ],
};
const TRANSLATIONS = { defaultLanguage: 'en', languages: { en: { strings: { greeting: 'Hello' } }, de: { strings: { greeting: 'Hallo' } } } };

/** Clean data for the invoice: `pages` pages. */
const invoice = (number: string, pages = 1) => ({ number, sheets: Array.from({ length: pages }, (_, i) => ({ n: i + 1 })) });
/** One Warning (MissingBinding: no list of sheets): renders with a test key, blocked with a production key. */
const withWarning = () => ({ number: 'WARN' });
/** An Error (DangerousContent): blocked for every key. */
const withError = () => ({ number: '<script>alert(1)</script>', sheets: [] });

type Answer = { status: number; headers: Headers; body: Buffer; json<T>(): T };

describe('render, stateless render and validate over HTTP against the real stack (spec 4.2, 4.3, 4.4)', () => {
  let stack: RenderStack;
  let gateway: Gateway;
  let org: Tenant;
  let other: Tenant;
  let templateId: string;
  let draftOnlyId: string;
  let foreignId: string;
  let fontTemplateId: string;
  let logoTemplateId: string;

  beforeAll(async () => {
    stack = await startRenderStack();
    gateway = stack.gateway;
    const db = stack.db.database;
    org = await createTenant(db, 'Renderer', { includedPagesPerMonth: 1000 });
    other = await createTenant(db, 'Other');
    const content = (template: unknown, documentNameTemplate: string | null = 'Invoice {{ number }}') => ({
      templateJson: JSON.stringify(template),
      sampleData: JSON.stringify({ data: invoice('SAMPLE'), i18n: {} }),
      translations: JSON.stringify(TRANSLATIONS),
      documentNameTemplate,
    });
    const create = async (tenant: Tenant, name: string) =>
      (await db.templates.create({ organisationId: tenant.organisationId, projectId: null, name, documentNameTemplate: null, updatedBy: 'e2e' })).id;
    templateId = await create(org, 'Invoice');
    await db.templateVersions.addVersion(templateId, content(INVOICE_TEMPLATE), { author: 'e2e', publish: true });
    const draftTitle = { ...INVOICE_TEMPLATE, body: [{ type: 'text', id: 'title', text: 'Draft {{ number }}' }] };
    await db.templateVersions.addVersion(templateId, content(draftTitle), { author: 'e2e', publish: false });
    draftOnlyId = await create(org, 'Draft only');
    await db.templateVersions.addVersion(draftOnlyId, content(INVOICE_TEMPLATE), { author: 'e2e', publish: false });
    foreignId = await create(other, 'Foreign');
    await db.templateVersions.addVersion(foreignId, content(INVOICE_TEMPLATE), { author: 'e2e', publish: true });
    fontTemplateId = await create(org, 'Fancy');
    const fancy = { body: [{ type: 'text', id: 'title', text: 'Fancy {{ number }}', style: { fontFamily: 'Nonexistent Sans' } }] };
    await db.templateVersions.addVersion(fontTemplateId, content(fancy, null), { author: 'e2e', publish: true });
    logoTemplateId = await create(org, 'Logo');
    const logo = { body: [{ type: 'text', id: 'title', text: 'Logo {{ number }}' }, { type: 'image', id: 'logo', source: '{{ logo }}' }] };
    await db.templateVersions.addVersion(logoTemplateId, content(logo, null), { author: 'e2e', publish: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function post(path: string, body: string | Buffer, key: string | null, headers: Record<string, string> = {}, via: Gateway = gateway): Promise<Answer> {
    const response = await fetch(`${via.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    expectAnswerMatchesContract({ method: 'POST', url: response.url, status: response.status, headers: response.headers, body: bytes });
    return { status: response.status, headers: response.headers, body: bytes, json: <T>() => JSON.parse(bytes.toString('utf8')) as T };
  }

  const render = (documents: unknown[], key = org.testKey, options: { query?: string; accept?: string; includeDocument?: boolean; path?: string } = {}) =>
    post(
      `/v1/render/${options.path ?? templateId}${options.query ? `?${options.query}` : ''}`,
      JSON.stringify({ documents, ...(options.includeDocument === undefined ? {} : { includeDocument: options.includeDocument }) }),
      key,
      options.accept ? { accept: options.accept } : {},
    );

  const envelopeOf = (answer: Answer): RenderEnvelopeDto => {
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    return answer.json<RenderEnvelopeDto>();
  };
  const issueSummary = (issues: RenderIssueDto[]) => issues.map((i) => [i.documentIndex, i.type]);
  const documentsOf = async (tenant: Tenant) => (await stack.db.dataSource.query('SELECT id FROM documents WHERE organisation_id = $1', [tenant.organisationId])) as { id: string }[];
  const pagesUsed = async (tenant: Tenant) => (await stack.db.database.usage.getUsage(tenant.organisationId)).pagesUsed;

  describe('4.2 JSON envelope', () => {
    it('2.6: one document renders to status ok with a stored, signed, correlated document', async () => {
      const answer = await render([invoice('INV-1', 2)]);
      expect(answer.status).toBe(200);
      const envelope = envelopeOf(answer);
      expect(envelope).toMatchObject({ status: RenderStatus.Ok, requestedCount: 1, renderedCount: 1, missingCount: 0, issues: [] });
      const [document] = envelope.documents;
      expect(document).toMatchObject({
        documentIndex: 0,
        documentName: 'Invoice INV-1',
        templateId,
        versionNumber: 1,
        environment: Environment.Test,
        pageCount: 2,
        documentType: 'Template',
        language: null,
        documentBase64: null,
      });
      expect(document.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(document.viewUrl).toContain(`/v1/documents/${document.id}/file?expires=`);
      expect(document.renderDuration).toBeGreaterThan(0);
      expect(Date.parse(document.renderedAt)).not.toBeNaN();
      const [row] = (await stack.db.dataSource.query('SELECT pdf_blob_key, page_count, file_size_bytes FROM documents WHERE id = $1', [document.id])) as {
        pdf_blob_key: string;
        page_count: number;
        file_size_bytes: number;
      }[];
      expect(row).toEqual({ pdf_blob_key: `organisations/${org.organisationId}/documents/${document.id}.pdf`, page_count: 2, file_size_bytes: document.fileSizeBytes });
      const pdf = await readPdf(await stack.blobs.get(row.pdf_blob_key));
      expect(pdf.pages).toBe(2);
      expect(pdf.text).toContain('Invoice INV-1');
      expect(pdf.text).toContain('Sheet 2');
    });

    it('4.2 includeDocument: each rendered document carries its PDF in documentBase64', async () => {
      const envelope = envelopeOf(await render([invoice('INV-2')], org.testKey, { includeDocument: true }));
      const [document] = envelope.documents;
      expect(document.id).not.toBeNull();
      const pdf = await readPdf(Buffer.from(document.documentBase64 ?? '', 'base64'));
      expect(pdf).toMatchObject({ pages: 1 });
      expect(pdf.text).toContain('Invoice INV-2');
    });

    it('4.2 persist=false: id and viewUrl null, the PDF inline, nothing stored and nothing left in the blob store', async () => {
      const before = (await documentsOf(org)).length;
      const envelope = envelopeOf(await render([invoice('INV-3')], org.testKey, { query: 'persist=false' }));
      expect(envelope.status).toBe(RenderStatus.Ok);
      const [document] = envelope.documents;
      expect(document).toMatchObject({ id: null, viewUrl: null, documentIndex: 0 });
      expect((await readPdf(Buffer.from(document.documentBase64 ?? '', 'base64'))).text).toContain('Invoice INV-3');
      expect(await documentsOf(org)).toHaveLength(before);
      expect(await stack.listKeys(`organisations/${org.organisationId}/transient/`)).toEqual([]);
      expect(await stack.listKeys(`organisations/${org.organisationId}/render-inputs/`)).toEqual([]);
    });

    it('4.2 language: the version defines it, the document is rendered in it (matched case-insensitively)', async () => {
      const envelope = envelopeOf(await render([invoice('INV-4')], org.testKey, { query: 'language=DE', includeDocument: true }));
      expect(envelope.documents[0].language).toBe('de');
      expect((await readPdf(Buffer.from(envelope.documents[0].documentBase64 ?? '', 'base64'))).text).toContain('Hallo');
    });

    it('7.2 400 ValidationError: a language the version does not define', async () => {
      const answer = await render([invoice('INV-5')], org.testKey, { query: 'language=fr' });
      expect(answer.status).toBe(400);
      expect(answer.json<ErrorBody>().error).toMatchObject({ code: ErrorCode.ValidationError, message: expect.stringContaining('"fr"') });
    });

    it('2.6 documentIndex: blocked documents leave gaps; issues say why, by documentIndex; status partial', async () => {
      const envelope = envelopeOf(await render([invoice('A'), withError(), invoice('C'), withWarning()]));
      expect(envelope).toMatchObject({ status: RenderStatus.Partial, requestedCount: 4, renderedCount: 3, missingCount: 1 });
      expect(envelope.documents.map((d) => d.documentIndex)).toEqual([0, 2, 3]);
      expect(issueSummary(envelope.issues)).toEqual([
        [1, RenderIssueType.DangerousContent],
        [3, RenderIssueType.MissingBinding],
      ]);
    });

    it('1: a production key is blocked by Warning issues that a test key renders through', async () => {
      const test = envelopeOf(await render([withWarning()], org.testKey));
      expect(test.status).toBe(RenderStatus.Ok);
      const production = envelopeOf(await render([withWarning()], org.prodKey));
      expect(production).toMatchObject({ status: RenderStatus.Failed, renderedCount: 0, missingCount: 1, documents: [] });
      expect(issueSummary(production.issues)).toEqual([[0, RenderIssueType.MissingBinding]]);
    });

    it('3.2 status failed: nothing rendered, still HTTP 200', async () => {
      const answer = await render([withError(), withError()]);
      expect(answer.status).toBe(200);
      expect(envelopeOf(answer)).toMatchObject({ status: RenderStatus.Failed, requestedCount: 2, renderedCount: 0, missingCount: 2, documents: [] });
    });

    it('1: production renders take their pages of credit; test renders take none', async () => {
      const before = await pagesUsed(org);
      envelopeOf(await render([invoice('T', 3)], org.testKey));
      expect(await pagesUsed(org)).toBe(before);
      const envelope = envelopeOf(await render([invoice('P', 3), invoice('Q', 1)], org.prodKey));
      expect(envelope.status).toBe(RenderStatus.Ok);
      expect(envelope.documents.map((d) => d.environment)).toEqual([Environment.Production, Environment.Production]);
      expect(await pagesUsed(org)).toBe(before + 4);
    });

    it('8: a test key renders at most 10 documents per request (400 ValidationError); a production key has no such cap', async () => {
      const eleven = Array.from({ length: 11 }, (_, i) => invoice(`N${i}`));
      const refused = await render(eleven, org.testKey);
      expect(refused.status).toBe(400);
      expect(refused.json<ErrorBody>().error.code).toBe(ErrorCode.ValidationError);
      const accepted = envelopeOf(await render(eleven, org.prodKey, { query: 'persist=false' }));
      expect(accepted).toMatchObject({ status: RenderStatus.Ok, renderedCount: 11 });
      expect(accepted.documents.map((d) => d.documentIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it('4.2: a draft is rendered when addressed by number; 404 TemplateNotFound, VersionNotFound, NoPublishedVersion', async () => {
      const draft = envelopeOf(await render([invoice('D')], org.testKey, { path: `${templateId}/versions/2`, includeDocument: true }));
      expect(draft.documents[0].versionNumber).toBe(2);
      expect((await readPdf(Buffer.from(draft.documents[0].documentBase64 ?? '', 'base64'))).text).toContain('Draft D');
      const cases: [string, ErrorCode][] = [
        ['00000000-0000-4000-8000-000000000000', ErrorCode.TemplateNotFound],
        [foreignId, ErrorCode.TemplateNotFound],
        [`${templateId}/versions/99`, ErrorCode.VersionNotFound],
        [`${templateId}/versions/0`, ErrorCode.VersionNotFound],
        [draftOnlyId, ErrorCode.NoPublishedVersion],
      ];
      for (const [path, code] of cases) {
        const answer = await render([invoice('X')], org.testKey, { path });
        expect([path, answer.status, answer.json<ErrorBody>().error.code]).toEqual([path, 404, code]);
      }
      const foreignOwner = envelopeOf(await render([invoice('F')], other.testKey, { path: foreignId }));
      expect(foreignOwner.status).toBe(RenderStatus.Ok);
    });

    it('7.2 422 BindingError naming the field; 401 without a key', async () => {
      const cases: [string, string][] = [
        ['{"documents":', 'request body is not valid JSON'],
        ['{"documents":{}}', 'documents: must be an array'],
        ['{"documents":[]}', 'documents: must contain at least one document'],
        ['{"documents":[{},3]}', 'documents[1]: must be a JSON object'],
        ['{"documents":[{}],"includeDocument":"yes"}', 'includeDocument: must be a boolean'],
      ];
      for (const [body, message] of cases) {
        const answer = await post(`/v1/render/${templateId}`, body, org.testKey);
        expect([body, answer.status, answer.json<ErrorBody>().error.code]).toEqual([body, 422, ErrorCode.BindingError]);
        expect(answer.json<ErrorBody>().error.message).toContain(message);
      }
      const badQuery = await post(`/v1/render/${templateId}?persist=maybe`, JSON.stringify({ documents: [{}] }), org.testKey);
      expect([badQuery.status, badQuery.json<ErrorBody>().error.message]).toEqual([422, 'persist: must be true or false']);
      expect((await post(`/v1/render/${templateId}`, JSON.stringify({ documents: [{}] }), null)).status).toBe(401);
    });
  });

  describe('4.2 raw PDF', () => {
    it('4.2: Accept application/pdf answers the PDF with the metadata headers', async () => {
      const answer = await render([invoice('RAW-1', 2)], org.testKey, { accept: 'application/pdf' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/pdf');
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="Invoice RAW-1.pdf"; filename*=UTF-8''Invoice%20RAW-1.pdf`);
      const documentId = answer.headers.get('x-service-document-id') ?? '';
      expect(documentId).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers.get('x-service-page-count')).toBe('2');
      expect(Number(answer.headers.get('x-service-render-duration-ms'))).toBeGreaterThan(0);
      expect(answer.headers.get('x-service-view-url')).toContain(`/v1/documents/${documentId}/file?expires=`);
      expect(answer.headers.get('x-service-issue-count')).toBeNull();
      // issue 34 item 5: conformance on every response; a plain PDF asked for none
      expect(answer.headers.get('x-service-conformance')).toBe('none');
      const pdf = await readPdf(answer.body);
      expect(pdf.pages).toBe(2);
      expect(pdf.text).toContain('Invoice RAW-1');
    });

    it('4.2: X-Service-Issue-Count counts non-blocking issues; persist=false omits id and view url', async () => {
      const answer = await render([withWarning()], org.testKey, { accept: 'application/pdf', query: 'persist=false' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-service-issue-count')).toBe('1');
      expect(answer.headers.get('x-service-document-id')).toBeNull();
      expect(answer.headers.get('x-service-view-url')).toBeNull();
      expect((await readPdf(answer.body)).pages).toBe(1);
      expect(await stack.listKeys(`organisations/${org.organisationId}/transient/`)).toEqual([]);
    });

    it('4.2 RENDER_API_INLINE_PDF_MAX_BYTES: the PDF answered, inline or above the cap read back, is the stored one; persist=false leaves nothing', async () => {
      const smallCap = await stack.startGateway({ RENDER_API_INLINE_PDF_MAX_BYTES: '1000' });
      for (const via of [gateway, smallCap]) {
        const body = JSON.stringify({ documents: [invoice('CAP-1')] });
        const answer = await post(`/v1/render/${templateId}`, body, org.testKey, { accept: 'application/pdf' }, via);
        expect(answer.status).toBe(200);
        expect(answer.body.length).toBeGreaterThan(1000);
        const documentId = answer.headers.get('x-service-document-id') ?? '';
        expect(answer.body.equals(await stack.blobs.get(`organisations/${org.organisationId}/documents/${documentId}.pdf`))).toBe(true);
        expect((await readPdf(answer.body)).text).toContain('Invoice CAP-1');
        const transient = await post(`/v1/render/${templateId}?persist=false`, body, org.testKey, { accept: 'application/pdf' }, via);
        expect((await readPdf(transient.body)).text).toContain('Invoice CAP-1');
        expect(await stack.listKeys(`organisations/${org.organisationId}/transient/`)).toEqual([]);
      }
    });

    it('4.2: a wildcard Accept does not count: the JSON envelope', async () => {
      for (const accept of ['*/*', 'application/*']) {
        expect(envelopeOf(await render([invoice('W')], org.testKey, { accept, query: 'persist=false' })).status).toBe(RenderStatus.Ok);
      }
    });

    it('7.2 406 NotAcceptable: Accept application/pdf with more than one document', async () => {
      const answer = await render([invoice('A'), invoice('B')], org.testKey, { accept: 'application/pdf' });
      expect(answer.status).toBe(406);
      expect(answer.json<ErrorBody>().error.code).toBe(ErrorCode.NotAcceptable);
    });

    it('7.2 special case: a blocked raw-PDF render answers 422 with the render envelope, documents empty', async () => {
      const answer = await render([withWarning()], org.prodKey, { accept: 'application/pdf' });
      expect(answer.status).toBe(422);
      const envelope = envelopeOf(answer);
      expect(envelope).toMatchObject({ status: RenderStatus.Failed, requestedCount: 1, renderedCount: 0, missingCount: 1, documents: [] });
      expect(issueSummary(envelope.issues)).toEqual([[0, RenderIssueType.MissingBinding]]);
    });
  });

  describe('3.1 rule 3: credit', () => {
    /** A new tenant with `includedPagesPerMonth` pages a month and a published invoice template of its own (`id`). */
    const tenantWithInvoice = async (name: string, includedPagesPerMonth: number): Promise<{ tenant: Tenant; id: string }> => {
      const tenant = await createTenant(stack.db.database, name, { includedPagesPerMonth });
      const id = (await stack.db.database.templates.create({ organisationId: tenant.organisationId, projectId: null, name: 'Invoice', documentNameTemplate: null, updatedBy: 'e2e' })).id;
      await stack.db.database.templateVersions.addVersion(
        id,
        { templateJson: JSON.stringify(INVOICE_TEMPLATE), sampleData: '{}', translations: JSON.stringify(TRANSLATIONS), documentNameTemplate: null },
        { author: 'e2e', publish: true },
      );
      return { tenant, id };
    };

    it('a production batch that runs out stops: status insufficient_credit at HTTP 200, rendered documents kept', async () => {
      const { tenant: poor, id } = await tenantWithInvoice('Poor', 3);
      const answer = await render([invoice('1', 2), invoice('2', 2), invoice('3', 1), invoice('4', 1)], poor.prodKey, { path: id });
      expect(answer.status).toBe(200);
      const envelope = envelopeOf(answer);
      expect(envelope.status).toBe(RenderStatus.InsufficientCredit);
      expect(envelope.renderedCount + envelope.missingCount).toBe(4);
      expect(envelope.missingCount).toBeGreaterThanOrEqual(2);
      const pagesRendered = envelope.documents.reduce((sum, d) => sum + d.pageCount, 0);
      expect(pagesRendered).toBeLessThanOrEqual(3);
      expect(await pagesUsed(poor)).toBe(pagesRendered);
      expect((await documentsOf(poor)).map((d) => d.id).sort()).toEqual(envelope.documents.map((d) => d.id).sort());
      expect((await stack.listKeys(`organisations/${poor.organisationId}/documents/`)).length).toBe(envelope.documents.length);
      const again = envelopeOf(await render([invoice('5', 1)], poor.prodKey, { path: id }));
      expect(again).toMatchObject({ renderedCount: pagesRendered === 3 ? 0 : 1 });
    });

    it('parallel production renders at the boundary never overspend', async () => {
      const { tenant: boundary, id } = await tenantWithInvoice('Boundary', 5);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => render([invoice(`C${i}`, 1)], boundary.prodKey, { path: id })));
      const statuses = answers.map((a) => envelopeOf(a).status).sort();
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(statuses).toEqual([...Array(7).fill(RenderStatus.InsufficientCredit), ...Array(5).fill(RenderStatus.Ok)].sort());
      expect(await pagesUsed(boundary)).toBe(5);
      expect(await documentsOf(boundary)).toHaveLength(5);
      expect(await stack.listKeys(`organisations/${boundary.organisationId}/documents/`)).toHaveLength(5);
    });
  });

  describe('8 limits', () => {
    it('7.2 413 PayloadTooLarge: a document over 50 MB of JSON, plain or gzip-compressed (limited after decompression)', async () => {
      const head = Buffer.from('{"documents":[{"filler":"');
      const tail = Buffer.from('"}]}');
      const body = Buffer.concat([head, Buffer.alloc(Limits.maxDocumentBytes, 0x61), tail]);
      const plain = await post(`/v1/render/${templateId}`, body, org.testKey);
      expect(plain.status).toBe(413);
      expect(plain.json<ErrorBody>().error).toMatchObject({ code: ErrorCode.PayloadTooLarge, message: expect.stringContaining('documents[0]') });
      const compressed = gzipSync(body);
      expect(compressed.byteLength).toBeLessThan(1024 * 1024);
      const gzip = await post(`/v1/render/${templateId}`, compressed, org.testKey, { 'content-encoding': 'gzip' });
      expect(gzip.status).toBe(413);
      expect(gzip.json<ErrorBody>().error.code).toBe(ErrorCode.PayloadTooLarge);
    });

    it('8: a batch body may be larger than 50 MB in total while each document is within the limit', async () => {
      const document = (n: number) => `{"number":"${n}","filler":"${'b'.repeat(27 * 1024 * 1024)}"}`;
      const body = `{"documents":[${document(1)},${document(2)}]}`;
      expect(Buffer.byteLength(body)).toBeGreaterThan(Limits.maxDocumentBytes);
      const answer = await post(`/v1/render/${templateId}/validate`, body, org.testKey);
      expect(answer.status).toBe(200);
      expect(issueSummary(answer.json<{ issues: RenderIssueDto[] }>().issues)).toEqual([
        [0, RenderIssueType.MissingBinding],
        [1, RenderIssueType.MissingBinding],
      ]);
    });

    it('8: a 100,000-deep array is a DangerousContent issue at HTTP 200, and the gateway keeps serving', async () => {
      const depth = 100_000;
      const body = `{"documents":[${JSON.stringify(invoice('OK'))},{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}]}`;
      const answer = await post(`/v1/render/${templateId}?persist=false`, body, org.testKey);
      expect(answer.status).toBe(200);
      const envelope = envelopeOf(answer);
      expect(envelope).toMatchObject({ status: RenderStatus.Partial, renderedCount: 1 });
      expect(envelope.issues).toEqual([expect.objectContaining({ type: RenderIssueType.DangerousContent, severity: 'Error', documentIndex: 1 })]);
      expect((await fetch(`${gateway.baseUrl}/v1/meta/version`)).status).toBe(200);
    });
  });

  describe('4.3 stateless render', () => {
    const stateless = (body: unknown, key = org.testKey, query = '', via: Gateway = gateway) =>
      post(`/v1/render${query}`, JSON.stringify(body), key, {}, via);

    it('4.3: the template in the body, the PDF back (watermarked with a test key), nothing stored', async () => {
      const before = (await documentsOf(org)).length;
      const answer = await stateless({ template: INVOICE_TEMPLATE, data: invoice('SL-1', 2), translations: TRANSLATIONS }, org.testKey, '?language=de');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/pdf');
      expect(answer.headers.get('x-service-document-id')).toBeNull();
      const pdf = await readPdf(answer.body);
      expect(pdf.pages).toBe(2);
      expect(pdf.text).toContain('Invoice SL-1');
      expect(pdf.text).toContain('Hallo');
      expect(await documentsOf(org)).toHaveLength(before);
      expect(await stack.listKeys(`organisations/${org.organisationId}/transient/`)).toEqual([]);
    });

    it('issue 34 item 5: a stateless PDF/A-3b render answers X-Service-Conformance with the level and its checks', async () => {
      const answer = await stateless({ template: { ...INVOICE_TEMPLATE, pdfA: 'PDF/A-3b' }, data: invoice('SL-A', 1), translations: TRANSLATIONS });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-service-conformance')).toBe('PDF/A-3b; checks=passed');
      expect(answer.body.toString('latin1')).toContain('<pdfaid:part>3</pdfaid:part>');
    });

    it('1: a test key watermarks the stateless output; a production key does not, and pays', async () => {
      const body = { template: INVOICE_TEMPLATE, data: invoice('WM', 1), translations: TRANSLATIONS };
      const test = await readPdf((await stateless(body)).body);
      const before = await pagesUsed(org);
      const production = await stateless(body, org.prodKey);
      expect(production.status).toBe(200);
      const clean = await readPdf(production.body);
      expect(test.text).toContain('TEST');
      expect(clean.text).not.toContain('TEST');
      expect(await pagesUsed(org)).toBe(before + 1);
    });

    it('7.2 422 BindingError naming the JSON path of an invalid DSL', async () => {
      const answer = await stateless({ template: { body: [{ type: 'text', id: 'a', text: 'x' }, { type: 'nonsense', id: 'b' }] }, data: {} });
      expect(answer.status).toBe(422);
      const error = answer.json<ErrorBody>().error;
      expect(error.code).toBe(ErrorCode.BindingError);
      expect(error.message).toContain('template.body[1]');
      const missing = await stateless({ data: {} });
      expect([missing.status, missing.json<ErrorBody>().error.message]).toEqual([422, 'template: is required (the template DSL)']);
    });

    it('4.3: a blocked stateless render answers 422 with the render envelope', async () => {
      const answer = await stateless({ template: INVOICE_TEMPLATE, data: withWarning(), translations: TRANSLATIONS }, org.prodKey);
      expect(answer.status).toBe(422);
      expect(issueSummary(envelopeOf(answer).issues)).toEqual([[0, RenderIssueType.MissingBinding]]);
    });

    it('7.2 500 RenderTimeout: a render over the budget', async () => {
      const impatient = await stack.startGateway({ RENDER_BUDGET_MS: '1', RENDER_REPLY_GRACE_MS: '0' });
      const answer = await stateless({ template: INVOICE_TEMPLATE, data: invoice('SLOW') }, org.testKey, '', impatient);
      expect(answer.status).toBe(500);
      expect(answer.json<ErrorBody>().error.code).toBe(ErrorCode.RenderTimeout);
      const envelope = envelopeOf(await post(`/v1/render/${templateId}?persist=false`, JSON.stringify({ documents: [invoice('SLOW')] }), org.testKey, {}, impatient));
      expect(envelope).toMatchObject({ status: RenderStatus.Failed });
      expect(issueSummary(envelope.issues)).toEqual([[0, RenderIssueType.RenderTimeout]]);
    });
  });

  describe('4.4 validate', () => {
    it('4.4: flat issues with documentIndex; no credit used, nothing rendered or stored', async () => {
      const before = { pages: await pagesUsed(org), documents: (await documentsOf(org)).length };
      const deep = `{"deep":${'['.repeat(1000)}${']'.repeat(1000)}}`;
      const body = `{"documents":[${JSON.stringify(invoice('V1'))},${JSON.stringify(withWarning())},${deep},${JSON.stringify(withError())}]}`;
      const answer = await post(`/v1/render/${templateId}/validate`, body, org.prodKey);
      expect(answer.status).toBe(200);
      expect(issueSummary(answer.json<{ issues: RenderIssueDto[] }>().issues)).toEqual([
        [1, RenderIssueType.MissingBinding],
        [2, RenderIssueType.DangerousContent],
        [3, RenderIssueType.DangerousContent],
      ]);
      expect({ pages: await pagesUsed(org), documents: (await documentsOf(org)).length }).toEqual(before);
    });

    it('7.3 / issue 17: encoded attacks are DangerousContent and everyday text with angle brackets is clean, at HTTP 200', async () => {
      const attacks = ['&lt;script&gt;', '&#60;script&#62;', '&#106;avascript:alert(1)', '%3Cscript%3E', 'java\tscript:alert(1)', '<img/src/onerror=alert(1)>', 'TVqQAAMAAAAEAAAA__8AALgAAAAAAAAAQAAAAAAAAAAA'];
      const everyday = ['Total = <base price> + VAT', 'List<Object>', 'when x<y and online = true', 'Please return <Form W-9>', '<link to the handbook>', 'Sass tip: use @import'];
      const answer = await post(`/v1/render/${templateId}/validate`, JSON.stringify({ documents: [...attacks, ...everyday].map((text) => ({ ...invoice('V'), note: text })) }), org.prodKey);
      expect(answer.status).toBe(200);
      expect(issueSummary(answer.json<{ issues: RenderIssueDto[] }>().issues)).toEqual(attacks.map((_, i) => [i, RenderIssueType.DangerousContent]));
      const rendered = envelopeOf(await render([invoice('Total = <base price> + VAT')], org.testKey, { includeDocument: true, query: 'persist=false' }));
      expect(rendered).toMatchObject({ status: RenderStatus.Ok, renderedCount: 1, issues: [] });
      expect((await readPdf(Buffer.from(rendered.documents[0].documentBase64 ?? '', 'base64'))).text).toContain('Invoice Total = <base price> + VAT');
    });

    it('4.4: an empty list when every document is clean; a specific version', async () => {
      const answer = await post(`/v1/render/${templateId}/versions/2/validate`, JSON.stringify({ documents: [invoice('V2')] }), org.testKey);
      expect([answer.status, answer.json<{ issues: unknown[] }>().issues]).toEqual([200, []]);
    });

    it('4.4: an issue of the template itself is batch-wide, documentIndex null', async () => {
      const answer = await post(`/v1/render/${fontTemplateId}/validate`, JSON.stringify({ documents: [{ number: 1 }, {}] }), org.testKey);
      expect(issueSummary(answer.json<{ issues: RenderIssueDto[] }>().issues)).toEqual([
        [null, RenderIssueType.UnresolvedFont],
        [1, RenderIssueType.MissingBinding],
      ]);
    });

    it('4.4 / issue 31 item 4: an image URL the egress policy refuses by itself is the issue the production render gives, same type, element and text', async () => {
      const documents = [{ number: 'M-1', logo: 'https://169.254.169.254/latest/meta-data/logo.png' }];
      const validated = await post(`/v1/render/${logoTemplateId}/validate`, JSON.stringify({ documents }), org.prodKey);
      const issues = validated.json<{ issues: RenderIssueDto[] }>().issues;
      expect(issues).toEqual([expect.objectContaining({ documentIndex: 0, type: RenderIssueType.UnresolvedImage, severity: 'Warning', elementId: 'logo' })]);
      const rendered = envelopeOf(await render(documents, org.prodKey, { path: logoTemplateId, query: 'persist=false' }));
      const described = (list: RenderIssueDto[]) => list.map((i) => ({ documentIndex: i.documentIndex, type: i.type, severity: i.severity, elementId: i.elementId, description: i.description }));
      expect(described(rendered.issues)).toEqual(described(issues));
    });

    it('4.4: 404 for an unknown or foreign template, 422 BindingError for a body that cannot be bound', async () => {
      const foreign = await post(`/v1/render/${foreignId}/validate`, JSON.stringify({ documents: [{}] }), org.testKey);
      expect([foreign.status, foreign.json<ErrorBody>().error.code]).toEqual([404, ErrorCode.TemplateNotFound]);
      const unbound = await post(`/v1/render/${templateId}/validate`, JSON.stringify({ documents: 'x' }), org.testKey);
      expect([unbound.status, unbound.json<ErrorBody>().error.code]).toEqual([422, ErrorCode.BindingError]);
    });
  });

  it('2.5: documents of a batch are rendered in parallel and each keeps its own data', async () => {
    const numbers = Array.from({ length: 6 }, (_, i) => `PAR-${i}`);
    const envelope = envelopeOf(await render(numbers.map((n) => invoice(n)), org.testKey, { includeDocument: true, query: 'persist=false' }));
    const texts = await Promise.all(envelope.documents.map(async (d: RenderedDocumentDto) => (await readPdf(Buffer.from(d.documentBase64 ?? '', 'base64'))).text));
    texts.forEach((text, i) => expect(text).toContain(`Invoice ${numbers[i]}`));
  });
});
