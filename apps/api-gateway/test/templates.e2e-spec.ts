import { Environment, ErrorCode } from '@docrender/contracts';
import { SignedUrlSigner } from '@docrender/platform';
import { previewImageLink } from '../src/templates/preview-image-link';
import { client, createTemplate, createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { gatewayS3Resources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

const VIEW_URL_SECRET = 'e2e-view-url-secret-templates';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('templates, versions, preview images, organisation stats (e2e, gateway process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayS3Resources('gateway-e2e'));
  let gateway: GatewayProcess;
  let a: Tenant;
  let b: Tenant;
  let ids: {
    project: string;
    otherProject: string;
    published: string;
    empty: string;
    draftOnly: string;
    foreign: string;
    broken: string;
  };

  beforeAll(async () => {
    const { db, blobs } = own.resources;
    a = await createTenant(db.database, 'Org A', { includedPagesPerMonth: 500 });
    b = await createTenant(db.database, 'Org B');
    const project = await db.database.projects.create({ organisationId: a.organisationId, name: 'Invoices' });
    const otherProject = await db.database.projects.create({ organisationId: b.organisationId, name: 'Theirs' });
    const published = await createTemplate(db.database, a, {
      name: 'Invoice',
      projectId: project.id,
      versions: [{ publish: true, documentNameTemplate: 'Invoice {{number}}' }, { publish: false }],
    });
    const empty = await createTemplate(db.database, a, { name: 'Empty' });
    const draftOnly = await createTemplate(db.database, a, { name: 'Draft only', versions: [{ publish: false }] });
    const foreign = await createTemplate(db.database, b, { name: 'Foreign', projectId: otherProject.id, versions: [{ publish: true }] });
    const broken = await db.database.templates.create({ organisationId: a.organisationId, projectId: null, name: 'Broken', documentNameTemplate: null, updatedBy: 'user-1' });
    await db.database.templateVersions.addVersion(
      broken.id,
      { templateJson: '{"pages": [', sampleData: '{}', translations: null, documentNameTemplate: null },
      { author: 'user-1', publish: false },
    );
    await blobs.put('previews/invoice-v1.png', PNG, 'image/png');
    await db.database.templateVersions.setPreviewImage(published.template.id, 1, 'previews/invoice-v1.png');
    ids = {
      project: project.id,
      otherProject: otherProject.id,
      published: published.template.id,
      empty: empty.template.id,
      draftOnly: draftOnly.template.id,
      foreign: foreign.template.id,
      broken: broken.id,
    };
    gateway = await own.startGateway({ VIEW_URL_SECRET });
  });

  const api = (key: string | null = a.testKey) => client(gateway.baseUrl, key);
  const expectError = async (answer: Promise<{ status: number; json<T>(): T }>, status: number, code: ErrorCode) => {
    const response = await answer;
    expect({ status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({ status, code });
    return response.json<ErrorBody>().error.message;
  };

  describe('4.7 list templates', () => {
    it('4.7: lists only the organisation’s templates with the fields of 2.2', async () => {
      const response = await api().get('/v1/templates?sortBy=name');
      expect(response.status).toBe(200);
      const page = response.json<{ items: Record<string, unknown>[]; total: number; skip: number; take: number }>();
      expect(page).toMatchObject({ total: 4, skip: 0, take: 25 });
      expect(page.items.map((t) => t.name)).toEqual(['Broken', 'Draft only', 'Empty', 'Invoice']);
      expect(page.items[3]).toEqual({
        id: ids.published,
        name: 'Invoice',
        documentNameTemplate: null,
        projectId: ids.project,
        projectName: 'Invoices',
        latestVersionNumber: 1,
        versionCount: 2,
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updatedBy: 'user-1',
        masterTemplateId: null,
        masterTemplateName: null,
      });
      expect(page.items[2]).toMatchObject({ latestVersionNumber: null, versionCount: 0, projectId: null, projectName: null });
    });

    it('4.7: /v1/projects/{projectId}/templates restricts to that project', async () => {
      const page = (await api().get(`/v1/projects/${ids.project}/templates`)).json<{ items: { id: string }[]; total: number }>();
      expect(page.items.map((t) => t.id)).toEqual([ids.published]);
      expect(page.total).toBe(1);
    });

    it('1.8: a project of another organisation, or an unknown one, is 404 EntityNotFound', async () => {
      await expectError(api().get(`/v1/projects/${ids.otherProject}/templates`), 404, ErrorCode.EntityNotFound);
      await expectError(api().get(`/v1/projects/${UNKNOWN}/templates`), 404, ErrorCode.EntityNotFound);
      await expectError(api().get('/v1/projects/not-a-uuid/templates'), 404, ErrorCode.EntityNotFound);
    });

    it('7.2: a filter on a field the endpoint cannot filter is 400 ValidationError naming it', async () => {
      const message = await expectError(api().get('/v1/templates?filters[0].field=projectId&filters[0].value=x'), 400, ErrorCode.ValidationError);
      expect(message).toContain('projectId');
    });

    it('8: template reads count against the read limit (600 per window)', async () => {
      expect((await api().get('/v1/templates')).headers.get('x-ratelimit-limit')).toBe('600');
    });
  });

  describe('4.8 get a template', () => {
    it('4.8: returns one template', async () => {
      const response = await api().get(`/v1/templates/${ids.published}`);
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({ id: ids.published, name: 'Invoice', latestVersionNumber: 1, versionCount: 2 });
    });

    it('1.8: a template of another organisation, an unknown or a malformed id is 404 TemplateNotFound', async () => {
      for (const id of [ids.foreign, UNKNOWN, 'nope']) await expectError(api().get(`/v1/templates/${id}`), 404, ErrorCode.TemplateNotFound);
    });
  });

  describe('4.9 list versions', () => {
    it('4.9: version summaries without templateJson and sampleData', async () => {
      const page = (await api().get(`/v1/templates/${ids.published}/versions`)).json<{ items: Record<string, unknown>[]; total: number }>();
      expect(page.total).toBe(2);
      expect(page.items.map((v) => v.versionNumber)).toEqual([1, 2]);
      expect(Object.keys(page.items[0]).sort()).toEqual(
        ['documentNameTemplate', 'id', 'publishedAt', 'publishedBy', 'templateId', 'translations', 'updatedAt', 'versionNumber'].sort(),
      );
      expect(page.items[0]).toMatchObject({ templateId: ids.published, documentNameTemplate: 'Invoice {{number}}', publishedBy: 'user-1' });
      expect(page.items[1]).toMatchObject({ publishedAt: null, publishedBy: null });
      expect(page.items[0].id).not.toBe(ids.published);
    });

    it('4.9: 404 TemplateNotFound for an unknown template or one of another organisation', async () => {
      await expectError(api().get(`/v1/templates/${UNKNOWN}/versions`), 404, ErrorCode.TemplateNotFound);
      await expectError(api().get(`/v1/templates/${ids.foreign}/versions`), 404, ErrorCode.TemplateNotFound);
    });
  });

  describe('4.10 get a version', () => {
    it('4.10: latest is the newest published version, with templateJson and sampleData', async () => {
      const version = (await api().get(`/v1/templates/${ids.published}/versions/latest`)).json<Record<string, unknown>>();
      expect(version).toMatchObject({ versionNumber: 1, templateId: ids.published });
      expect(JSON.parse(version.templateJson as string)).toHaveProperty('pages');
      expect(JSON.parse(version.sampleData as string)).toEqual({ data: { number: 'INV-1' }, i18n: {} });
    });

    it('4.10: a draft is addressed by its number', async () => {
      const response = await api().get(`/v1/templates/${ids.published}/versions/2`);
      expect(response.status).toBe(200);
      expect(response.json()).toMatchObject({ versionNumber: 2, publishedAt: null });
    });

    it('4.10: 404 NoPublishedVersion for latest when nothing is published', async () => {
      await expectError(api().get(`/v1/templates/${ids.draftOnly}/versions/latest`), 404, ErrorCode.NoPublishedVersion);
      await expectError(api().get(`/v1/templates/${ids.empty}/versions/latest`), 404, ErrorCode.NoPublishedVersion);
    });

    it('4.10: 404 VersionNotFound for a missing version; TemplateNotFound for a foreign template', async () => {
      await expectError(api().get(`/v1/templates/${ids.published}/versions/3`), 404, ErrorCode.VersionNotFound);
      await expectError(api().get(`/v1/templates/${ids.published}/versions/x1`), 404, ErrorCode.VersionNotFound);
      await expectError(api().get(`/v1/templates/${ids.foreign}/versions/1`), 404, ErrorCode.TemplateNotFound);
      await expectError(api().get(`/v1/templates/${ids.foreign}/versions/latest`), 404, ErrorCode.TemplateNotFound);
    });
  });

  describe('4.11 update the document-name template', () => {
    const path = (templateId: string, version: number | string) => `/v1/templates/${templateId}/versions/${version}/document-name-template`;

    it('4.11: sets the pattern and returns the updated version; null clears it', async () => {
      const set = await api().patch(path(ids.published, 2), JSON.stringify({ documentNameTemplate: 'Draft {{number}}' }));
      expect(set.status).toBe(200);
      expect(set.json()).toMatchObject({ versionNumber: 2, documentNameTemplate: 'Draft {{number}}', templateJson: expect.any(String) });
      expect((await api().get(`/v1/templates/${ids.published}/versions/2`)).json()).toMatchObject({ documentNameTemplate: 'Draft {{number}}' });
      const cleared = await api().patch(path(ids.published, 2), JSON.stringify({ documentNameTemplate: null }));
      expect(cleared.json()).toMatchObject({ documentNameTemplate: null });
    });

    it('4.11: counts against the write limit (120 per window)', async () => {
      const response = await api().patch(path(ids.published, 1), JSON.stringify({ documentNameTemplate: 'Invoice {{number}}' }));
      expect(response.headers.get('x-ratelimit-limit')).toBe('120');
    });

    it.each([
      ['a missing field', '{}'],
      ['a number', '{"documentNameTemplate": 5}'],
      ['an object', '{"documentNameTemplate": {"x": 1}}'],
    ])('7.2: %s is 422 BindingError naming documentNameTemplate', async (_case, body) => {
      const message = await expectError(api().patch(path(ids.published, 1), body), 422, ErrorCode.BindingError);
      expect(message).toContain('documentNameTemplate');
    });

    it.each([
      ['malformed JSON', '{"documentNameTemplate": '],
      ['a JSON array', '[1, 2]'],
      ['a JSON string', '"x"'],
    ])('7.2: %s is 422 BindingError', async (_case, body) => {
      await expectError(api().patch(path(ids.published, 1), body), 422, ErrorCode.BindingError);
    });

    it('4.11: 404 VersionNotFound or TemplateNotFound (also for another organisation’s template)', async () => {
      const body = JSON.stringify({ documentNameTemplate: 'x' });
      await expectError(api().patch(path(ids.published, 7), body), 404, ErrorCode.VersionNotFound);
      await expectError(api().patch(path(UNKNOWN, 1), body), 404, ErrorCode.TemplateNotFound);
      await expectError(api().patch(path(ids.foreign, 1), body), 404, ErrorCode.TemplateNotFound);
      expect((await api(b.testKey).get(`/v1/templates/${ids.foreign}/versions/1`)).json()).toMatchObject({ documentNameTemplate: null });
    });
  });

  describe('4.12 preview image', () => {
    const path = (templateId: string, version: number | string) => `/v1/templates/${templateId}/versions/${version}/preview-image`;

    it('4.12: a stored preview gives a time-limited link that downloads the PNG without the key', async () => {
      const response = await api().get(path(ids.published, 1));
      expect(response.status).toBe(200);
      const { url } = response.json<{ url: string }>();
      expect(url).toMatch(new RegExp(`^http://localhost:${gateway.port}/v1/templates/${ids.published}/versions/1/preview-image/file\\?expires=\\d+&signature=`));
      const expires = Number(new URL(url).searchParams.get('expires'));
      expect(expires - Date.now() / 1000).toBeGreaterThan(3500);
      expect(expires - Date.now() / 1000).toBeLessThanOrEqual(3600);
      const image = await client(gateway.baseUrl, null).get(url.replace(`http://localhost:${gateway.port}`, gateway.baseUrl));
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.body.equals(PNG)).toBe(true);
    });

    it('4.12: a tampered preview link is 401', async () => {
      const { url } = (await api().get(path(ids.published, 1))).json<{ url: string }>();
      const local = new URL(url.replace(`http://localhost:${gateway.port}`, gateway.baseUrl));
      local.pathname = local.pathname.replace('/versions/1/', '/versions/2/');
      await expectError(client(gateway.baseUrl, null).get(local.toString()), 401, ErrorCode.Unauthorized);
      await expectError(client(gateway.baseUrl, null).get(`/v1/templates/${ids.published}/versions/1/preview-image/file`), 401, ErrorCode.Unauthorized);
    });

    it('4.12: a version whose preview cannot be produced is 404 ImageNotFound, never a null url', async () => {
      await expectError(api().get(path(ids.broken, 1)), 404, ErrorCode.ImageNotFound);
      expect((await own.db.database.templateVersions.findByNumber(ids.broken, 1))?.previewImageBlobKey).toBeNull();
    });

    it('4.12: a signed link to a version without a stored image is 404 ImageNotFound', async () => {
      const signer = new SignedUrlSigner({ publicBaseUrl: gateway.baseUrl, secret: VIEW_URL_SECRET }, previewImageLink);
      await expectError(client(gateway.baseUrl, null).get(signer.sign({ templateId: ids.published, versionNumber: 2 })), 404, ErrorCode.ImageNotFound);
    });

    it('7.2 404 OrganizationNotFound: a signed preview link of a deleted organisation’s template no longer downloads it', async () => {
      const gone = await createTenant(own.db.database, 'Deleted later');
      const template = await createTemplate(own.db.database, gone, { name: 'Letter', versions: [{ publish: true }] });
      await own.resources.blobs.put('previews/deleted-later-v1.png', PNG, 'image/png');
      await own.db.database.templateVersions.setPreviewImage(template.template.id, 1, 'previews/deleted-later-v1.png');
      const link = new SignedUrlSigner({ publicBaseUrl: gateway.baseUrl, secret: VIEW_URL_SECRET }, previewImageLink).sign({ templateId: template.template.id, versionNumber: 1 });
      expect((await client(gateway.baseUrl, null).get(link)).status).toBe(200);
      await own.db.database.organisations.markDeleted(gone.organisationId);
      await expectError(client(gateway.baseUrl, null).get(link), 404, ErrorCode.OrganizationNotFound);
    });

    it('4.12: 404 TemplateNotFound and VersionNotFound; another organisation’s template is TemplateNotFound', async () => {
      await expectError(api().get(path(UNKNOWN, 1)), 404, ErrorCode.TemplateNotFound);
      await expectError(api().get(path(ids.foreign, 1)), 404, ErrorCode.TemplateNotFound);
      await expectError(api().get(path(ids.published, 9)), 404, ErrorCode.VersionNotFound);
    });
  });

  describe('4.16 organisation stats', () => {
    it('4.16: the organisation of the key with its period, allowance and use', async () => {
      await own.db.database.usage.setPagesUsed(a.organisationId, 120);
      const response = await api(a.prodKey).get('/v1/organisation/stats');
      expect(response.status).toBe(200);
      const stats = response.json<Record<string, unknown>>();
      expect(stats).toEqual({
        organisationName: 'Org A',
        periodStart: expect.any(String),
        periodEnd: expect.any(String),
        tier: 'pro',
        includedRendersPerMonth: 500,
        pagesUsedThisPeriod: 120,
        pagesAvailable: 380,
        includedTokensPerMonth: 5000,
        tokensUsedThisPeriod: 0,
        tokensAvailable: 5000,
        userCount: 3,
      });
      expect(Date.parse(stats.periodStart as string)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(stats.periodEnd as string)).toBeGreaterThan(Date.now());
    });

    it('2.12: pagesAvailable is floored at 0', async () => {
      await own.db.database.usage.setPagesUsed(a.organisationId, 900);
      expect((await api().get('/v1/organisation/stats')).json()).toMatchObject({ pagesUsedThisPeriod: 900, pagesAvailable: 0 });
    });

    it('8: stats have no rate-limit policy', async () => {
      const response = await api().get('/v1/organisation/stats');
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    });
  });

  describe('5 authentication on every endpoint of this area', () => {
    const routes = (): [string, string, string?][] => [
      ['GET', '/v1/templates'],
      ['GET', `/v1/projects/${ids.project}/templates`],
      ['GET', `/v1/templates/${ids.published}`],
      ['GET', `/v1/templates/${ids.published}/versions`],
      ['GET', `/v1/templates/${ids.published}/versions/latest`],
      ['GET', `/v1/templates/${ids.published}/versions/1`],
      ['PATCH', `/v1/templates/${ids.published}/versions/1/document-name-template`, '{"documentNameTemplate":"x"}'],
      ['GET', `/v1/templates/${ids.published}/versions/1/preview-image`],
      ['GET', '/v1/organisation/stats'],
    ];

    it('5.3: a missing, malformed, unknown or revoked key is 401 Unauthorized', async () => {
      const revoked = await own.db.database.apiKeys.create(a.organisationId, Environment.Test);
      await own.db.database.apiKeys.revoke(revoked.record.id);
      const headers: (Record<string, string> | undefined)[] = [
        undefined,
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: 'Bearer' },
        { authorization: 'Bearer not_a_service_key_at_all' },
        { authorization: `Bearer ${a.testKey.slice(0, -1)}${a.testKey.endsWith('A') ? 'B' : 'A'}` },
        { authorization: `Bearer ${revoked.plaintextKey}` },
      ];
      for (const [method, path, body] of routes()) {
        for (const header of headers) {
          const response = await client(gateway.baseUrl, null).send(method, path, { body, headers: header });
          expect({ method, path, header, status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({
            method,
            path,
            header,
            status: 401,
            code: ErrorCode.Unauthorized,
          });
        }
      }
    });

    it('5.3: a valid key whose organisation is gone is 401 NotAuthenticated', async () => {
      const gone = await createTenant(own.db.database, 'Gone Ltd');
      await own.db.database.organisations.markDeleted(gone.organisationId);
      for (const [method, path, body] of routes()) {
        const response = await client(gateway.baseUrl, gone.prodKey).send(method, path, { body });
        expect({ path, status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({ path, status: 401, code: ErrorCode.NotAuthenticated });
      }
    });
  });
});
