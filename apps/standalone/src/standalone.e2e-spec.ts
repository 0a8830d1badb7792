import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, freePort, REPO_ROOT, startAppProcess, type AppProcess } from '@docrender/testing';
import { DEMO_IDS, type DemoKeys } from './demo-organisation';

jest.setTimeout(240_000);

/**
 * The README's first command: `npm start` with no infrastructure configured starts the whole service in one process
 * on embedded PostgreSQL, the in-process bus and the filesystem blob store, seeds the demo organisation, and renders.
 */
describe('one-process mode (npm start) on embedded defaults', () => {
  let dir: string;
  let port: number;
  let app: AppProcess;

  beforeAll(async () => {
    await ensureBuilt();
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-standalone-'));
    // As root, the embedded PostgreSQL runs as `postgres`, which must pass through the data directory's parents.
    await chmod(dir, 0o755);
    port = await freePort();
    app = startAppProcess('apps/standalone/src/main.js', {
      PORT: String(port),
      EMBEDDED_PG_DATA_DIR: path.join(dir, 'postgres'),
      BLOB_DIR: path.join(dir, 'blobs'),
      DEMO_KEYS_FILE: path.join(dir, 'demo-keys.json'),
      LOG_LEVEL: 'warn',
    });
    await app.waitForOutput(/Document rendering service running at/, 180_000);
  });

  afterAll(async () => {
    await app?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the base URL, both demo keys and a curl that renders the sample invoice', async () => {
    const keys = JSON.parse(await readFile(path.join(dir, 'demo-keys.json'), 'utf8')) as DemoKeys;
    const out = app.output();
    expect(out).toContain(`http://localhost:${port}`);
    expect(out).toContain(keys.testKey);
    expect(out).toContain(keys.productionKey);
    expect(out).toContain(`curl -sS -X POST 'http://localhost:${port}/v1/render/${DEMO_IDS.invoice}'`);
  });

  it('issue 17: with the public development secrets it starts, but warns and names them', () => {
    expect(app.output()).toMatch(/running with the public development secrets.*VIEW_URL_SECRET, API_KEY_PEPPER/);
  });

  it('4.17: the status probe answers 200 on embedded PostgreSQL and the filesystem blob store', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/meta/status`);
    expect(res.status).toBe(200);
  });

  it('serves the API documentation: Swagger UI at /docs and the OpenAPI document at /docs-json', async () => {
    const ui = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
    const json = (await (await fetch(`http://127.0.0.1:${port}/docs-json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(json.openapi).toMatch(/^3\./);
    expect(Object.keys(json.paths)).toContain('/v1/render/{templateId}');
  });

  it('renders the sample invoice with the printed test key, exactly as the printed curl does', async () => {
    const keys = JSON.parse(await readFile(path.join(dir, 'demo-keys.json'), 'utf8')) as DemoKeys;
    const body = await readFile(path.join(REPO_ROOT, 'examples/invoice/request.json'), 'utf8');
    const res = await fetch(`http://127.0.0.1:${port}/v1/render/${DEMO_IDS.invoice}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${keys.testKey}`, Accept: 'application/pdf', 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const file = path.join(dir, 'invoice.pdf');
    await writeFile(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    const data = (JSON.parse(body) as { documents: Array<{ number?: unknown }> }).documents[0];
    expect(text).toContain(String(data.number));
    expect(Number(res.headers.get('x-service-page-count'))).toBeGreaterThanOrEqual(2);
  });

  it('stops cleanly on SIGTERM', async () => {
    const exit = await app.stop('SIGTERM', 30_000);
    expect(exit).toBe(0);
  });
});
