import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, ErrorCode } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { createServiceApp } from '@docrender/platform';
import { FilesystemBlobStore } from '@docrender/storage';
import { createTestDatabase, provisionTenant, startRenderStandIn, TEST_API_KEY_PEPPER, testLogger, type RenderStandIn, type TestDatabase } from '@docrender/testing';
import { apiGatewayService } from '../src/api-gateway.service';

jest.setTimeout(300_000);

/** Every endpoint of the contract, with `{id}` where a path parameter goes. */
const ENDPOINTS: Array<{ method: string; path: string }> = [
  { method: 'POST', path: '/v1/render/{id}' },
  { method: 'POST', path: '/v1/render/{id}/versions/{n}' },
  { method: 'POST', path: '/v1/render' },
  { method: 'POST', path: '/v1/render/{id}/validate' },
  { method: 'POST', path: '/v1/render/{id}/versions/{n}/validate' },
  { method: 'POST', path: '/v1/render/{id}/async' },
  { method: 'POST', path: '/v1/render/{id}/versions/{n}/async' },
  { method: 'GET', path: '/v1/render/jobs/{id}' },
  { method: 'GET', path: '/v1/templates' },
  { method: 'GET', path: '/v1/projects/{id}/templates' },
  { method: 'GET', path: '/v1/templates/{id}' },
  { method: 'GET', path: '/v1/templates/{id}/versions' },
  { method: 'GET', path: '/v1/templates/{id}/versions/latest' },
  { method: 'GET', path: '/v1/templates/{id}/versions/{n}' },
  { method: 'PATCH', path: '/v1/templates/{id}/versions/{n}/document-name-template' },
  { method: 'GET', path: '/v1/templates/{id}/versions/{n}/preview-image' },
  { method: 'GET', path: '/v1/templates/{id}/versions/{n}/preview-image/file' },
  { method: 'GET', path: '/v1/documents' },
  { method: 'GET', path: '/v1/documents/{id}' },
  { method: 'GET', path: '/v1/documents/{id}/file' },
  { method: 'GET', path: '/v1/organisation/stats' },
  { method: 'GET', path: '/v1/fonts' },
];

/** Path parameters: ids of the wrong shape, %-encodings (valid and broken), numbers out of range, unicode. */
const pathParam = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s) || 'x'),
  fc.constantFrom('%FF', '%', '%E0%A4%A', '..', '-1', '0', '99999999999999999999', '1e3', 'NaN', 'latest', '%00', 'null'),
  fc.integer().map(String),
);

/** Query strings, including the listing contract's parameters with bad values. */
const queryParam = fc.oneof(
  fc.constant(''),
  fc.dictionary(fc.constantFrom('skip', 'take', 'sortBy', 'sortDirection', 'search', 'persist', 'language', 'filters[0].field', 'filters[0].op', 'filters[0].value', 'filters[x].field', 'filters', 'includeDocument'), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('-1', '1e9', 'true', 'maybe', 'renderedAt', 'gt', 'documentName', '2026-13-45'))).map(
    (q) => new URLSearchParams(q).toString(),
  ),
  fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s)),
);

/** Bodies: not JSON, truncated JSON, JSON of the wrong shape, random JSON values, nested garbage. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ documents: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ documents: [v], includeDocument: v, callbackUrl: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ template: v, data: v, translations: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ documentNameTemplate: v })),
  fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(1, Math.floor(j.length / 2)))),
);

const contentType = fc.constantFrom(undefined, 'application/json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', '*/*');
const accept = fc.constantFrom(undefined, 'application/json', 'application/pdf', '*/*', 'text/html', 'application/pdf;q=0', 'application/*', 'garbage/??');
const encoding = fc.constantFrom(undefined, 'gzip', 'br', 'deflate', 'identity', 'bogus');

describe('issue 5: no bad input yields a 500 or a stack trace (fuzzed bodies, headers and parameters on every endpoint)', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let bus: InProcessMessageBus;
  let renderer: RenderStandIn;
  let blobDir: string;
  let baseUrl: string;
  let keys: string[];
  let templateId: string;

  beforeAll(async () => {
    process.env.RATE_LIMIT_ENABLED = 'false';
    db = await createTestDatabase();
    blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-fuzz-'));
    const blobStore = await FilesystemBlobStore.open(blobDir);
    bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), testLogger('fuzz-bus'));
    renderer = await startRenderStandIn(bus, blobStore);
    const tenant = await provisionTenant(db.database, { pages: 1_000_000 });
    templateId = tenant.templateId;
    keys = [
      (await db.database.apiKeys.create(tenant.organisationId, Environment.Test)).plaintextKey,
      (await db.database.apiKeys.create(tenant.organisationId, Environment.Production)).plaintextKey,
    ];
    app = await createServiceApp(apiGatewayService, { dataSource: db.dataSource, bus, blobStore, apiKeyPepper: TEST_API_KEY_PEPPER, close: async () => undefined }, testLogger('api-gateway'));
    await app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await renderer?.stop();
    await bus?.close();
    await db?.drop();
    await rm(blobDir, { recursive: true, force: true });
    delete process.env.RATE_LIMIT_ENABLED;
  });

  it.each(ENDPOINTS)('$method $path answers every malformed request below 500, with the error envelope', async ({ method, path: template }) => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ id: pathParam, n: pathParam, query: queryParam, body, contentType, accept, encoding, key: fc.oneof(fc.constantFrom(0, 1), fc.string({ maxLength: 30 })) }),
        async (c) => {
          const url = `${baseUrl}${template.replace('{id}', c.id).replace('{n}', c.n)}${c.query ? `?${c.query}` : ''}`;
          const headers: Record<string, string> = {
            Authorization: typeof c.key === 'number' ? `Bearer ${keys[c.key]}` : c.key.replace(/[^\x20-\x7e]/g, ''),
          };
          if (c.contentType) headers['Content-Type'] = c.contentType;
          if (c.accept) headers.Accept = c.accept;
          if (c.encoding) headers['Content-Encoding'] = c.encoding;
          const res = await fetch(url, { method, headers, body: method === 'GET' ? undefined : c.body });
          const text = await res.text();
          const context = `${method} ${url} → ${res.status} ${text.slice(0, 300)}`;
          expect([context, res.status < 500]).toEqual([context, true]);
          expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
          if (res.status >= 400 && res.headers.get('content-type')?.startsWith('application/json')) {
            const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown }; status?: unknown };
            // Every rejection is the spec 7.1 envelope, except a blocked raw-PDF render (422 with a render envelope).
            expect([context, typeof parsed.error?.code === 'string' || typeof parsed.status === 'string']).toEqual([context, true]);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
  describe('7.2 / 1.8: a path id or version that cannot name a resource is 404 with that resource\'s code, like an unknown one', () => {
    /** Ids that are not UUIDs: words, numbers, a UUID one character too long or short, unicode, %-encoded slashes. */
    const MALFORMED_IDS = ['not-a-uuid', '42', '6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f0', '6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6', '%E2%9C%93', 'null', '..%2F..%2Fetc'];
    /** Version segments that are not positive integers of at most 9 digits. */
    const MALFORMED_VERSIONS = ['abc', '0', '-1', '1.5', '1e3', '9999999999', 'latest%20'];
    const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

    /** Every endpoint with an id or version in its path: `{id}` is the parameter under test, `{t}` the tenant's template. */
    const ROWS: Array<{ method: string; path: string; code: ErrorCode; values: string[]; unknown: string | null }> = [
      { method: 'POST', path: '/v1/render/{id}', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'POST', path: '/v1/render/{id}/versions/1', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'POST', path: '/v1/render/{t}/versions/{id}', code: ErrorCode.VersionNotFound, values: MALFORMED_VERSIONS, unknown: '999' },
      { method: 'POST', path: '/v1/render/{id}/validate', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'POST', path: '/v1/render/{id}/versions/1/validate', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'POST', path: '/v1/render/{t}/versions/{id}/validate', code: ErrorCode.VersionNotFound, values: MALFORMED_VERSIONS, unknown: '999' },
      { method: 'POST', path: '/v1/render/{id}/async', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'POST', path: '/v1/render/{id}/versions/1/async', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'POST', path: '/v1/render/{t}/versions/{id}/async', code: ErrorCode.VersionNotFound, values: MALFORMED_VERSIONS, unknown: '999' },
      { method: 'GET', path: '/v1/render/jobs/{id}', code: ErrorCode.EntityNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/projects/{id}/templates', code: ErrorCode.EntityNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/templates/{id}', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/templates/{id}/versions', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/templates/{id}/versions/latest', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/templates/{id}/versions/1', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/templates/{t}/versions/{id}', code: ErrorCode.VersionNotFound, values: MALFORMED_VERSIONS, unknown: '999' },
      { method: 'PATCH', path: '/v1/templates/{id}/versions/1/document-name-template', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'PATCH', path: '/v1/templates/{t}/versions/{id}/document-name-template', code: ErrorCode.VersionNotFound, values: MALFORMED_VERSIONS, unknown: '999' },
      { method: 'GET', path: '/v1/templates/{id}/versions/1/preview-image', code: ErrorCode.TemplateNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/templates/{t}/versions/{id}/preview-image', code: ErrorCode.VersionNotFound, values: MALFORMED_VERSIONS, unknown: '999' },
      // The signed preview link carries no key and names the image. A well-formed unknown id fails its signature check
      // (401); a malformed one cannot have been signed and is answered before the signature is looked at.
      { method: 'GET', path: '/v1/templates/{id}/versions/1/preview-image/file?expires=1&signature=x', code: ErrorCode.ImageNotFound, values: MALFORMED_IDS, unknown: null },
      { method: 'GET', path: '/v1/templates/{t}/versions/{id}/preview-image/file?expires=1&signature=x', code: ErrorCode.ImageNotFound, values: MALFORMED_VERSIONS, unknown: null },
      { method: 'GET', path: '/v1/documents/{id}', code: ErrorCode.DocumentNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
      { method: 'GET', path: '/v1/documents/{id}/file', code: ErrorCode.DocumentNotFound, values: MALFORMED_IDS, unknown: UNKNOWN_ID },
    ];

    /** A body each endpoint accepts, so that only the path decides the answer. */
    const bodyOf = (method: string, path: string): string | undefined => {
      if (method === 'GET') return undefined;
      if (method === 'PATCH') return JSON.stringify({ documentNameTemplate: 'Invoice' });
      if (path.endsWith('/async')) return JSON.stringify({ documents: [{ number: 1 }], callbackUrl: 'https://hooks.example.com/render' });
      return JSON.stringify({ documents: [{ number: 1 }] });
    };

    const send = async (method: string, path: string): Promise<{ status: number; code: unknown }> => {
      const res = await fetch(`${baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${keys[0]}`, 'Content-Type': 'application/json' }, body: bodyOf(method, path) });
      const text = await res.text();
      return { status: res.status, code: (JSON.parse(text) as { error?: { code?: unknown } }).error?.code };
    };

    it.each(ROWS)('$method $path: every malformed value is 404 $code, the answer to an unknown one', async ({ method, path, code, values, unknown }) => {
      const at = (value: string) => path.replace('{t}', templateId).replace('{id}', value);
      if (unknown !== null) expect(await send(method, at(unknown))).toEqual({ status: 404, code });
      for (const value of values) expect([value, await send(method, at(value))]).toEqual([value, { status: 404, code }]);
    });
  });
});
