import { ErrorCode } from '@docrender/contracts';
import { MinioBlobStore } from '@docrender/storage';
import { createRabbitVhost, createTestDatabase, startS3Server, TEST_API_KEY_PEPPER, type RabbitVhost, type S3TestServer, type TestDatabase } from '@docrender/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { client, createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { ensureBuilt, freePort, startGateway, type GatewayProcess } from './gateway-process';

const ROOT = path.resolve(__dirname, '../../..');
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/** The render service as its own process on the same RabbitMQ vhost and bucket, ready when its probe answers. */
async function startRenderService(settings: Record<string, string>): Promise<{ stop(): Promise<void>; output(): string }> {
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', RENDER_BROWSERS: '1', ...settings, RENDER_SERVICE_PORT: String(port) };
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist/apps/render-service/src/main.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the render service exited at start:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/meta/status`)).status === 200) return { stop, output: () => output };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the render service did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('4.12 preview images made by the render service on first request (e2e: gateway, render service, RabbitMQ, s3rver, Chromium)', () => {
  let db: TestDatabase;
  let s3: S3TestServer;
  let vhost: RabbitVhost;
  let renderService: { stop(): Promise<void>; output(): string };
  let gateway: GatewayProcess;
  let tenant: Tenant;
  let invoiceId: string;
  let invalidId: string;
  let blobs: MinioBlobStore;

  beforeAll(async () => {
    await ensureBuilt();
    [db, s3, vhost] = await Promise.all([createTestDatabase(), startS3Server(), createRabbitVhost('gateway-preview')]);
    const storage = { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: 'preview-e2e' };
    blobs = new MinioBlobStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'preview-e2e', region: 'us-east-1' });
    await blobs.ensureBucket();
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
    renderService = await startRenderService({ AMQP_URL: vhost.url, ...storage });
    gateway = await startGateway({ DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, AMQP_URL: vhost.url, DB_POOL_SIZE: '4', ...storage });
  });

  afterAll(async () => {
    await gateway?.stop();
    await renderService?.stop();
    await db?.drop();
    await s3?.stop();
    await vhost?.delete();
  });

  it('4.12: the first request renders the first page to a PNG, stores it, and answers a signed url that downloads it', async () => {
    const first = await client(gateway.baseUrl, tenant.testKey).get(`/v1/templates/${invoiceId}/versions/1/preview-image`);
    expect(first.status).toBe(200);
    const { url } = first.json<{ url: string }>();
    expect(url).toContain(`/v1/templates/${invoiceId}/versions/1/preview-image/file?expires=`);
    const stored = (await db.database.templateVersions.findByNumber(invoiceId, 1))?.previewImageBlobKey;
    expect(stored).toMatch(new RegExp(`^organisations/${tenant.organisationId}/previews/${invoiceId}/1-[0-9a-f-]+\\.png$`));
    const image = await client(gateway.baseUrl, null).get(url.replace(`http://localhost:${gateway.port}`, gateway.baseUrl));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(image.body.equals(await blobs.get(stored ?? ''))).toBe(true);
  });

  it('4.12: later requests reuse the stored image', async () => {
    const before = (await db.database.templateVersions.findByNumber(invoiceId, 1))?.previewImageBlobKey;
    const again = await client(gateway.baseUrl, tenant.prodKey).get(`/v1/templates/${invoiceId}/versions/1/preview-image`);
    expect(again.status).toBe(200);
    expect((await db.database.templateVersions.findByNumber(invoiceId, 1))?.previewImageBlobKey).toBe(before);
  });

  it('4.12: a version the render service cannot preview is 404 ImageNotFound, never a null url', async () => {
    const response = await client(gateway.baseUrl, tenant.testKey).get(`/v1/templates/${invalidId}/versions/1/preview-image`);
    expect({ status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({ status: 404, code: ErrorCode.ImageNotFound });
    expect((await db.database.templateVersions.findByNumber(invalidId, 1))?.previewImageBlobKey).toBeNull();
  });
});
