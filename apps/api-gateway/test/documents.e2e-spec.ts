import { ErrorCode, Limits } from '@docrender/contracts';
import { ViewUrlSigner } from '@docrender/platform';
import { client, createDocument, createTemplate, createTenant, TINY_PDF, type ErrorBody, type Tenant } from './gateway-fixtures';
import { gatewayS3Resources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

const VIEW_URL_SECRET = 'e2e-view-url-secret-documents';
const PUBLIC_BASE_URL = 'https://render.example.com/api';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type StoredDocument = { id: string; viewUrl: string; isPdfDeleted: boolean } & Record<string, unknown>;

describe('documents, PDF download and viewUrl (e2e, gateway process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayS3Resources('documents-e2e'));
  let gateway: GatewayProcess;
  let a: Tenant;
  let b: Tenant;
  let ids: { kept: string; purged: string; foreign: string; blobGone: string };
  const signer = new ViewUrlSigner({ publicBaseUrl: PUBLIC_BASE_URL, secret: VIEW_URL_SECRET });

  beforeAll(async () => {
    const { db, blobs } = own.resources;
    a = await createTenant(db.database, 'Org A');
    b = await createTenant(db.database, 'Org B');
    const templateA = await createTemplate(db.database, a, { name: 'Invoice', versions: [{ publish: true }] });
    const templateB = await createTemplate(db.database, b, { name: 'Theirs', versions: [{ publish: true }] });
    const kept = await createDocument(db.database, blobs, a, {
      templateId: templateA.template.id,
      documentName: 'Invoice Ä/1 "final"',
      pageCount: 2,
      language: 'de',
      renderedAt: new Date('2026-11-01T10:00:00.000Z'),
    });
    const purged = await createDocument(db.database, blobs, a, { templateId: templateA.template.id, documentName: 'Old invoice', renderedAt: new Date('2026-01-01T10:00:00.000Z') });
    await blobs.delete(purged.pdfBlobKey);
    await db.database.documents.markPdfDeleted([purged.id]);
    const blobGone = await createDocument(db.database, blobs, a, { templateId: templateA.template.id, documentName: 'Being purged' });
    await blobs.delete(blobGone.pdfBlobKey);
    const foreign = await createDocument(db.database, blobs, b, { templateId: templateB.template.id, documentName: 'Foreign' });
    ids = { kept: kept.id, purged: purged.id, foreign: foreign.id, blobGone: blobGone.id };
    gateway = await own.startGateway({ VIEW_URL_SECRET, PUBLIC_BASE_URL });
  });

  const api = (key: string | null = a.testKey) => client(gateway.baseUrl, key);
  /** The viewUrl points at PUBLIC_BASE_URL; the test reaches the same path on the process directly. */
  const local = (viewUrl: string) => viewUrl.replace(PUBLIC_BASE_URL, gateway.baseUrl);
  const expectError = async (answer: Promise<{ status: number; json<T>(): T }>, status: number, code: ErrorCode) => {
    const response = await answer;
    expect({ status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({ status, code });
  };

  describe('4.13 list documents', () => {
    it('4.13: the organisation’s documents only, with the fields of 2.4', async () => {
      const response = await api().get('/v1/documents?sortBy=documentName');
      expect(response.status).toBe(200);
      const page = response.json<{ items: StoredDocument[]; total: number; skip: number; take: number }>();
      expect(page).toMatchObject({ total: 3, skip: 0, take: 25 });
      expect(page.items.map((d) => d.documentName)).toEqual(['Being purged', 'Invoice Ä/1 "final"', 'Old invoice']);
      expect(page.items[1]).toEqual({
        id: ids.kept,
        documentName: 'Invoice Ä/1 "final"',
        templateId: expect.any(String),
        versionNumber: 1,
        environment: 'test',
        fileSizeBytes: TINY_PDF.length,
        pageCount: 2,
        renderedAt: '2026-11-01T10:00:00.000Z',
        renderDuration: 120,
        viewUrl: expect.stringMatching(new RegExp(`^${PUBLIC_BASE_URL}/v1/documents/${ids.kept}/file\\?expires=\\d+&signature=[\\w-]+$`)),
        documentType: 'Template',
        isPdfDeleted: false,
        language: 'de',
        conformance: { pdfA: null, pdfUA: null, checks: 'none', rules: [], eInvoice: null },
      });
    });

    it('2.4: viewUrl is the empty string when the PDF was purged', async () => {
      const page = (await api().get('/v1/documents')).json<{ items: StoredDocument[] }>();
      expect(page.items.find((d) => d.id === ids.purged)).toMatchObject({ isPdfDeleted: true, viewUrl: '' });
    });
  });

  describe('4.14 get a document', () => {
    it('4.14: metadata with a viewUrl valid 7 days from the response', async () => {
      const before = Math.floor(Date.now() / 1000);
      const document = (await api().get(`/v1/documents/${ids.kept}`)).json<StoredDocument>();
      const after = Math.ceil(Date.now() / 1000);
      const expires = Number(new URL(document.viewUrl).searchParams.get('expires'));
      expect(expires).toBeGreaterThanOrEqual(before + Limits.viewUrlTtlSeconds);
      expect(expires).toBeLessThanOrEqual(after + Limits.viewUrlTtlSeconds);
    });

    it('1.8: another organisation’s, an unknown or a malformed id is 404 DocumentNotFound', async () => {
      for (const id of [ids.foreign, UNKNOWN, '12345']) await expectError(api().get(`/v1/documents/${id}`), 404, ErrorCode.DocumentNotFound);
    });
  });

  describe('4.15 download the PDF', () => {
    it('4.15: with the bearer key: 200 application/pdf with the bytes', async () => {
      const response = await api(a.prodKey).get(`/v1/documents/${ids.kept}/file`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(
        `inline; filename="Invoice _/1 _final_.pdf"; filename*=UTF-8''${encodeURIComponent('Invoice Ä/1 "final".pdf')}`,
      );
      expect(response.body.equals(TINY_PDF)).toBe(true);
      expect(response.headers.get('x-ratelimit-limit')).toBe('600');
    });

    it('1.8: another organisation’s document is 404 DocumentNotFound', async () => {
      await expectError(api().get(`/v1/documents/${ids.foreign}/file`), 404, ErrorCode.DocumentNotFound);
      await expectError(api().get(`/v1/documents/${UNKNOWN}/file`), 404, ErrorCode.DocumentNotFound);
    });

    it('3.3: a purged PDF is 410 PdfDeleted (also while the purge is between deleting the file and marking the row)', async () => {
      await expectError(api().get(`/v1/documents/${ids.purged}/file`), 410, ErrorCode.PdfDeleted);
      await expectError(api().get(`/v1/documents/${ids.blobGone}/file`), 410, ErrorCode.PdfDeleted);
    });

    it('5.3: without a key and without a signature it is 401; a deleted organisation’s key is 401 NotAuthenticated', async () => {
      await expectError(api(null).get(`/v1/documents/${ids.kept}/file`), 401, ErrorCode.Unauthorized);
      await expectError(api('service_prod_unknownunknownunknown').get(`/v1/documents/${ids.kept}/file`), 401, ErrorCode.Unauthorized);
      const gone = await createTenant(own.db.database, 'Gone');
      await own.db.database.organisations.markDeleted(gone.organisationId);
      for (const path of ['/v1/documents', `/v1/documents/${ids.kept}`, `/v1/documents/${ids.kept}/file`]) {
        await expectError(api(gone.testKey).get(path), 401, ErrorCode.NotAuthenticated);
        await expectError(api(null).get(path), 401, ErrorCode.Unauthorized);
      }
    });
  });

  describe('2.4 viewUrl', () => {
    it('2.4: the viewUrl downloads the PDF without the bearer key', async () => {
      const { viewUrl } = (await api().get(`/v1/documents/${ids.kept}`)).json<StoredDocument>();
      const response = await api(null).get(local(viewUrl));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.body.equals(TINY_PDF)).toBe(true);
    });

    it('2.4: a tampered viewUrl fails with 401 (signature, expiry, or another document’s id)', async () => {
      const { viewUrl } = (await api().get(`/v1/documents/${ids.kept}`)).json<StoredDocument>();
      const url = new URL(local(viewUrl));
      const signature = url.searchParams.get('signature') ?? '';
      const variants = [
        (u: URL) => u.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1)),
        (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 1)),
        (u: URL) => (u.pathname = u.pathname.replace(ids.kept, ids.foreign)),
        (u: URL) => u.searchParams.delete('signature'),
      ];
      for (const tamper of variants) {
        const tampered = new URL(url.toString());
        tamper(tampered);
        await expectError(api(null).get(tampered.toString()), 401, ErrorCode.Unauthorized);
      }
    });

    it('2.4: a viewUrl generated more than 7 days ago no longer works', async () => {
      const old = signer.sign(ids.kept, new Date(Date.now() - Limits.viewUrlTtlSeconds * 1000 - 2000));
      await expectError(api(null).get(local(old)), 401, ErrorCode.Unauthorized);
      const fresh = signer.sign(ids.kept, new Date(Date.now() - Limits.viewUrlTtlSeconds * 1000 + 60_000));
      expect((await api(null).get(local(fresh))).status).toBe(200);
    });

    it('2.4 (issue 17): a link signed with the key but expiring more than 7 days from now is 401, the verifier caps it', async () => {
      const inThirtyDays = signer.sign(ids.kept, new Date(Date.now() + 23 * 24 * 3600 * 1000));
      await expectError(api(null).get(local(inThirtyDays)), 401, ErrorCode.Unauthorized);
    });

    it('3.3: a link handed out before the purge answers 410 PdfDeleted', async () => {
      await expectError(api(null).get(local(signer.sign(ids.purged))), 410, ErrorCode.PdfDeleted);
    });

    it('7.2 404 OrganizationNotFound: a viewUrl of a deleted organisation’s document no longer downloads it', async () => {
      const gone = await createTenant(own.db.database, 'Deleted later');
      const template = await createTemplate(own.db.database, gone, { name: 'Invoice', versions: [{ publish: true }] });
      const document = await createDocument(own.db.database, own.resources.blobs, gone, { templateId: template.template.id });
      const link = local(signer.sign(document.id));
      expect((await api(null).get(link)).status).toBe(200);
      await own.db.database.organisations.markDeleted(gone.organisationId);
      await expectError(api(null).get(link), 404, ErrorCode.OrganizationNotFound);
    });

    it('8: a signed download counts against the owning organisation’s read limit', async () => {
      const response = await api(null).get(local(signer.sign(ids.foreign)));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('600');
    });
  });
});
