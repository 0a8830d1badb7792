import { ErrorCode } from '@docrender/contracts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { client, createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { gatewaysOnOwnResources, gatewayTestInfrastructure, type GatewayProcess } from './gateway-process';
import { startRenderService } from './render-stack';

const ROOT = path.resolve(__dirname, '../../..');
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

describe('4.12 preview images made by the render service on first request (e2e: gateway, render service, RabbitMQ, s3rver, Chromium)', () => {
  const own = gatewaysOnOwnResources(() => gatewayTestInfrastructure('gateway-preview'));
  let gateway: GatewayProcess;
  let tenant: Tenant;
  let invoiceId: string;
  let invalidId: string;

  beforeAll(async () => {
    const { db, settings } = own.resources;
    tenant = await createTenant(db.database, 'Preview Org');
    const [template, data] = await Promise.all([readFile(path.join(ROOT, 'examples/invoice/template.json'), 'utf8'), readFile(path.join(ROOT, 'examples/invoice/data.json'), 'utf8')]);
    const create = async (name: string, templateJson: string) => {
      const t = await db.database.templates.create({ organisationId: tenant.organisationId, projectId: null, name, documentNameTemplate: null, updatedBy: 'u' });
      await db.database.templateVersions.addVersion(
        t.id,
        { templateJson, sampleData: JSON.stringify({ data: JSON.parse(data) as unknown, i18n: {} }), translations: null, documentNameTemplate: null },
        { author: 'u', publish: true },
      );
      return t.id;
    };
    invoiceId = await create('Invoice', template);
    invalidId = await create('Not a template', JSON.stringify({ pages: 'none', elements: 7 }));
    // the render service asks for no database: DATABASE_URL in its settings is not read
    await own.stopsAfterAll(startRenderService({ ...settings, RENDER_BROWSERS: '1' }));
    gateway = await own.startGateway({ DB_POOL_SIZE: '4' });
  });

  it('4.12: the first request renders the first page to a PNG, stores it, and answers a signed url that downloads it', async () => {
    const first = await client(gateway.baseUrl, tenant.testKey).get(`/v1/templates/${invoiceId}/versions/1/preview-image`);
    expect(first.status).toBe(200);
    const { url } = first.json<{ url: string }>();
    expect(url).toContain(`/v1/templates/${invoiceId}/versions/1/preview-image/file?expires=`);
    const stored = (await own.db.database.templateVersions.findByNumber(invoiceId, 1))?.previewImageBlobKey;
    expect(stored).toMatch(new RegExp(`^organisations/${tenant.organisationId}/previews/${invoiceId}/1-[0-9a-f-]+\\.png$`));
    const image = await client(gateway.baseUrl, null).get(url.replace(`http://localhost:${gateway.port}`, gateway.baseUrl));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(image.body.equals(await own.resources.infra.blobStore.get(stored ?? ''))).toBe(true);
  });

  it('4.12: later requests reuse the stored image', async () => {
    const before = (await own.db.database.templateVersions.findByNumber(invoiceId, 1))?.previewImageBlobKey;
    const again = await client(gateway.baseUrl, tenant.prodKey).get(`/v1/templates/${invoiceId}/versions/1/preview-image`);
    expect(again.status).toBe(200);
    expect((await own.db.database.templateVersions.findByNumber(invoiceId, 1))?.previewImageBlobKey).toBe(before);
  });

  it('4.12: a version the render service cannot preview is 404 ImageNotFound, never a null url', async () => {
    const response = await client(gateway.baseUrl, tenant.testKey).get(`/v1/templates/${invalidId}/versions/1/preview-image`);
    expect({ status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({ status: 404, code: ErrorCode.ImageNotFound });
    expect((await own.db.database.templateVersions.findByNumber(invalidId, 1))?.previewImageBlobKey).toBeNull();
  });
});
