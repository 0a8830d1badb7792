import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@docrender/testing';
import { json, startStubServer } from './stub-server';

const run = promisify(execFile);
jest.setTimeout(180_000);

const PACKAGE_DIR = path.join(REPO_ROOT, 'dist/packages/client');

/** Runs a script with Node in the consumer project; resolves with its stdout parsed as JSON. */
async function nodeJson(cwd: string, script: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['-e', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env } });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/**
 * The published package as a user gets it: built by libs/client/scripts/build-package.mjs, packed with `npm pack`,
 * installed into an empty project outside the repository (offline: it has no dependencies), then required, type-checked
 * and run as a command.
 */
describe('the @docrender/client package', () => {
  let dir: string;
  let consumer: string;

  beforeAll(async () => {
    // The documented command (`npm run client:package`): builds the package and its tarball, prints the tarball's path.
    const { stdout } = await run(process.execPath, [path.join(REPO_ROOT, 'libs/client/scripts/build-package.mjs'), '--pack', '--quiet'], { cwd: REPO_ROOT, timeout: 120_000 });
    const tarball = stdout.trim();
    expect(path.dirname(tarball)).toBe(path.dirname(PACKAGE_DIR));
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-client-package-'));
    consumer = path.join(dir, 'consumer');
    await mkdir(consumer);
    await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: consumer, timeout: 60_000 });
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('issue 37 item 4: the installed package is MIT-licensed, carries the licence text, and asks for Node.js 24 or newer', async () => {
    const installed = path.join(consumer, 'node_modules/@docrender/client');
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8')) as { license: string; engines: { node: string } };
    expect(manifest).toMatchObject({ license: 'MIT', engines: { node: '>=24' } });
    expect(await readFile(path.join(installed, 'LICENSE'), 'utf8')).toBe(await readFile(path.join(REPO_ROOT, 'LICENSE'), 'utf8'));
  });

  it('7.5: loads nothing but its own files and Node built-ins (no NestJS, class-validator or class-transformer)', async () => {
    const result = await nodeJson(
      consumer,
      `const sdk = require('@docrender/client');
       const client = new sdk.DocrenderClient({ baseUrl: 'http://localhost:3000/v1', apiKey: 'service_test_abcdefghijklmnop' });
       const files = Object.keys(require.cache);
       console.log(JSON.stringify({
         outside: files.filter((f) => !f.includes('/node_modules/@docrender/client/')),
         environment: client.environment,
         status: sdk.RenderStatus.InsufficientCredit,
         code: sdk.ErrorCode.QueueFull,
         severity: sdk.ISSUE_SEVERITY[sdk.RenderIssueType.MissingBinding],
         cap: sdk.Limits.testKeyBatchCap,
       }));`,
    );
    expect(result).toEqual({ outside: [], environment: 'test', status: 'insufficient_credit', code: 'QueueFull', severity: 'Warning', cap: 10 });
  });

  it('6.4: the packaged webhook reader verifies a signed callback and parses it, and rejects a bad signature', async () => {
    const result = await nodeJson(
      consumer,
      `const { createHmac } = require('node:crypto');
       const { readCallback, WebhookSignatureError } = require('@docrender/client');
       const secret = 'whsec_packagedTestSecret0000';
       const rawBody = JSON.stringify({ jobId: 'j-1', state: 'completed', status: 'partial', renderedCount: 1, requestedCount: 2,
         missingCount: 1, message: 'm', issues: [{ type: 'SchemaInvalid', severity: 'Error', description: 'd', elementId: null, documentIndex: 1 }] });
       const t = Math.floor(Date.now() / 1000);
       const headers = { 'x-service-signature': 't=' + t + ',v1=' + createHmac('sha256', secret).update(t + '.' + rawBody).digest('hex'),
         'x-service-event': 'render.completed', 'x-service-delivery': 'd-1' };
       const callback = readCallback({ rawBody, headers, secrets: secret });
       let rejected = null;
       try { readCallback({ rawBody, headers, secrets: 'whsec_wrongSecret000000000' }); } catch (e) { rejected = e instanceof WebhookSignatureError ? e.reason : String(e); }
       console.log(JSON.stringify({ kind: callback.kind, status: callback.body.status, deliveryId: callback.deliveryId, rejected }));`,
    );
    expect(result).toEqual({ kind: 'completion', status: 'partial', deliveryId: 'd-1', rejected: 'no-matching-signature' });
  });

  it('1: warns once per process through process.emitWarning when given a production key under NODE_ENV=test', async () => {
    const result = await nodeJson(
      consumer,
      `const { DocrenderClient } = require('@docrender/client');
       const seen = [];
       process.on('warning', (w) => seen.push(w.code));
       new DocrenderClient({ baseUrl: 'http://localhost:3000', apiKey: 'service_prod_abcdefghijklmnop' });
       const c = new DocrenderClient({ baseUrl: 'http://localhost:3000', apiKey: 'service_test_abcdefghijklmnop' });
       c.useApiKey('service_prod_abcdefghijklmnop');
       setImmediate(() => console.log(JSON.stringify({ seen })));`,
      { NODE_ENV: 'test' },
    );
    expect(result).toEqual({ seen: ['DOCRENDER_PRODUCTION_KEY_IN_TEST'] });
  });

  it('its declarations type-check on their own under strict settings, with the contracts’ wire types', async () => {
    await writeFile(
      path.join(consumer, 'consumer.ts'),
      `import { DocrenderClient, ErrorCode, NotFoundError, RenderIssueType, type ListParams, type RenderEnvelopeDto } from '@docrender/client';

export async function main(client: DocrenderClient): Promise<number> {
  const envelope: RenderEnvelopeDto = await client.renders.render('t', [{ number: 1 }], { language: 'de' });
  const missing = envelope.issues.filter((i) => i.type === RenderIssueType.MissingBinding).length;
  // @ts-expect-error status is a RenderStatus, not a number
  const wrong: number = envelope.status;
  const params: ListParams<'documents'> = { filters: [{ field: 'template.guid', op: 'eq', value: 't' }], sortDirection: 'desc' };
  // @ts-expect-error 'sideways' is not a sort direction
  const bad: ListParams<'documents'> = { sortDirection: 'sideways' };
  // @ts-expect-error issue 37 item 4: a misspelt filter field does not compile ('templte.guid')
  const misspeltFilter: ListParams<'documents'> = { filters: [{ field: 'templte.guid', value: 't' }] };
  // @ts-expect-error issue 37 item 4: a misspelt sort field does not compile (the service would fall back silently)
  const misspeltSort: ListParams<'documents'> = { sortBy: 'renderdAt' };
  for await (const document of client.documents.listAll(params, { pin: true })) console.log(document.documentName, document.isPdfDeleted);
  try {
    await client.templates.getVersion('t', 'latest');
  } catch (e) {
    if (e instanceof NotFoundError && e.code === ErrorCode.NoPublishedVersion) return -1;
  }
  return missing + wrong + (bad && misspeltFilter && misspeltSort ? 0 : 1);
}
`,
    );
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'commonjs', '--moduleResolution', 'node', '--types', 'node', '--typeRoots', path.join(REPO_ROOT, 'node_modules/@types'), 'consumer.ts'];
    const result = await run(process.execPath, [tsc, ...args], { cwd: consumer }).then(
      () => 'ok',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('ok');
  });

  it('imports with named exports from ES modules too', async () => {
    await writeFile(
      path.join(consumer, 'esm.mjs'),
      `import { DocrenderClient, readCallback, NotFoundError, RenderStatus, WebhookSignatureError } from '@docrender/client';
console.log(JSON.stringify([typeof DocrenderClient, typeof readCallback, typeof NotFoundError, RenderStatus.Partial, typeof WebhookSignatureError]));`,
    );
    const { stdout } = await run(process.execPath, ['esm.mjs'], { cwd: consumer });
    expect(JSON.parse(stdout)).toEqual(['function', 'function', 'function', 'partial', 'function']);
  });

  it('installs the docrender command: `docrender help` and `--help` print the usage', async () => {
    for (const argv of [['help'], ['--help']]) {
      const { stdout } = await run(path.join(consumer, 'node_modules/.bin/docrender'), argv, { cwd: consumer });
      expect(stdout).toMatch(/^Usage: docrender <command>/);
      expect(stdout).toContain('documents download');
    }
  });

  it('4.2: the README’s quick start runs from the installed tarball and renders through a service', async () => {
    const envelope = { status: 'ok', message: '1 of 1 rendered', requestedCount: 1, renderedCount: 1, missingCount: 0, issues: [], documents: [] };
    const service = await startStubServer((req, res) => json(res, 200, envelope));
    try {
      await writeFile(
        path.join(consumer, 'quick-start.js'),
        `const { DocrenderClient } = require('@docrender/client');
const client = new DocrenderClient({ baseUrl: process.env.DOCRENDER_URL, apiKey: process.env.SERVICE_API_KEY });
client.renders.render('6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f', [{ number: 'INV-1', customer: { name: 'Globex' } }])
  .then((envelope) => console.log(JSON.stringify([envelope.status, envelope.renderedCount, envelope.issues])));`,
      );
      const { stdout } = await run(process.execPath, ['quick-start.js'], {
        cwd: consumer,
        env: { PATH: process.env.PATH ?? '', DOCRENDER_URL: service.url, SERVICE_API_KEY: 'service_test_abcdefghijklmnop' },
      });
      expect(JSON.parse(stdout)).toEqual(['ok', 1, []]);
      expect(service.requests).toEqual([expect.objectContaining({ method: 'POST', url: '/v1/render/6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f' })]);
      expect(service.requests[0].headers.authorization).toBe('Bearer service_test_abcdefghijklmnop');
    } finally {
      await service.close();
    }
  });
});
