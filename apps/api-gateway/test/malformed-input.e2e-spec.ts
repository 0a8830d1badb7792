import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, ErrorCode } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { createServiceApp } from '@docrender/platform';
import { FilesystemBlobStore } from '@docrender/storage';
import { createTestDatabase, provisionTenant, startRenderStandIn, testLogger, type RenderStandIn, type TestDatabase } from '@docrender/testing';
import { apiGatewayService } from '../src/api-gateway.definition';

jest.setTimeout(300_000);

/** Pinned, so a failure found once is found again (issue 17: pinned seed). */
const FUZZ_SEED = 17;

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

/** Text that must never reach the database or a 5xx: NUL, lone surrogates, very long strings (issue 17 item 2). */
const hostileText = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\u202e', '\ufeff', "'; DROP TABLE templates; --", '%00', '\\u0000'),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** Numbers out of every range a parameter could have. */
const hostileNumber = fc.constantFrom('1e309', '-1e309', '99999999999999999999', '-0', '0x10', '1.5', 'NaN', 'Infinity', '9007199254740993', '-2147483649');

/** Path parameters: ids of the wrong shape, %-encodings (valid and broken), numbers out of range, unicode, NUL. */
const pathParam = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s) || 'x'),
  fc.constantFrom('%FF', '%', '%E0%A4%A', '..', '-1', '0', '99999999999999999999', '1e3', 'NaN', 'latest', '%00', 'null', '%ED%A0%80'),
  hostileNumber,
  fc.integer().map(String),
);

const QUERY_NAMES = ['skip', 'take', 'sortBy', 'sortDirection', 'search', 'persist', 'language', 'filters[0].field', 'filters[0].op', 'filters[0].value', 'filters[x].field', 'filters', 'includeDocument'];

/** Query strings, including the listing contract's parameters with bad values, NUL, surrogates and long values. */
const queryParam = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom(...QUERY_NAMES),
      fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('-1', '1e9', 'true', 'maybe', 'renderedAt', 'gt', 'documentName', '2026-13-45'), hostileText, hostileNumber),
    )
    .map((q) => new URLSearchParams(q).toString()),
  fc.string({ maxLength: 30 }).map((s) => encodeURIComponent(s)),
  fc.nat({ max: 120_000 }).map((n) => `search=${'q'.repeat(n)}`),
);

/** JSON nested `depth` levels deep, as text (arrays or objects). */
const deepJson = fc.tuple(fc.integer({ min: 30, max: 100_000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
);

/** Bodies: not JSON, truncated JSON, JSON of the wrong shape, random JSON values, nested garbage, hostile text. */
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ documents: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ documents: [v], includeDocument: v, callbackUrl: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ template: v, data: v, translations: v })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ documentNameTemplate: v })),
  fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(1, Math.floor(j.length / 2)))),
  hostileText.map((t) => JSON.stringify({ documentNameTemplate: t, callbackUrl: `https://hooks.example.com/${t}`, documents: [{ t }] })),
  deepJson.map((d) => `{"documents":[${d.startsWith('{') ? d : `{"d":${d}}`}],"callbackUrl":"https://hooks.example.com/","documentNameTemplate":${d},"extra":${d}}`),
  deepJson.map((d) => `{"template":{"x":${d}},"data":${d.startsWith('{') ? d : '{}'}}`),
  fc.constantFrom('{"documents":[{"n":1e309}],"callbackUrl":"https://hooks.example.com/"}', '{"documentNameTemplate":1e400}', '{"documents":[{}],"includeDocument":1e999}'),
);

const contentType = fc.constantFrom(undefined, 'application/json', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', '*/*');
const accept = fc.constantFrom(undefined, 'application/json', 'application/pdf', '*/*', 'text/html', 'application/pdf;q=0', 'application/*', 'garbage/??');
const encoding = fc.constantFrom(undefined, 'gzip', 'br', 'deflate', 'identity', 'bogus');

describe('issues 5 and 17: no bad input yields a 500 or a stack trace (fuzzed bodies, headers and parameters on every endpoint)', () => {
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
    app = await createServiceApp(apiGatewayService, { database: db.database, bus, blobStore, close: async () => undefined }, testLogger('api-gateway'));
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

  /** Answers by status over the whole fuzz run, printed at the end (issue 17: printed counts). */
  const statuses = new Map<number, number>();
  let requests = 0;
  afterAll(() => {
    const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    const fiveHundreds = [...statuses.entries()].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    console.log(`fuzz (seed ${FUZZ_SEED}): ${requests} requests over ${ENDPOINTS.length} endpoints; ${fiveHundreds} answered 5xx; by status: ${counts.join(', ')}`);
  });

  it.each(ENDPOINTS)('7.1 / 7.2 (issue 17 item 2): $method $path answers every malformed request below 500, with the error envelope', async ({ method, path: template }) => {
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
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const context = `${method} ${url.slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
          expect([context, res.status < 500]).toEqual([context, true]);
          expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
          if (res.status >= 400) {
            // Every rejection is the spec 7.1 envelope, except a blocked raw-PDF render (422 with a render envelope).
            expect([context, res.headers.get('content-type')?.startsWith('application/json')]).toEqual([context, true]);
            const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown }; status?: unknown };
            const envelope = typeof parsed.error?.code === 'string' && typeof parsed.error?.message === 'string';
            expect([context, envelope || typeof parsed.status === 'string']).toEqual([context, true]);
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: 25 },
    );
  });

  describe('issue 17 item 2: each bad input of the issue is a 4xx in the envelope naming what is wrong', () => {
    const call = async (method: string, path: string, body?: string): Promise<{ status: number; error: { code: string; message: string } }> => {
      const res = await fetch(`${baseUrl}${path.replace('{t}', templateId)}`, {
        method,
        headers: { Authorization: `Bearer ${keys[1]}`, 'Content-Type': 'application/json' },
        body,
      });
      return { status: res.status, error: ((await res.json()) as { error: { code: string; message: string } }).error };
    };

    it.each([
      ['GET', '/v1/templates?search=%00', 'query parameter "search": must not contain the NUL character (U+0000)'],
      ['GET', '/v1/documents?filters[0].field=documentName&filters[0].op=eq&filters[0].value=%00', 'query parameter "filters[0].value": must not contain the NUL character'],
      ['POST', '/v1/render/{t}?language=%00', 'query parameter "language": must not contain the NUL character'],
      ['POST', '/v1/render/{t}/async?language=%00', 'query parameter "language": must not contain the NUL character'],
      ['GET', `/v1/templates?search=${'q'.repeat(100 * 1024)}`, 'the query string is 102407 bytes long; the limit is 8192'],
      ['GET', '/v1/templates/%00', 'the path must not contain the NUL character'],
    ])('%s %s: 422 BindingError', async (method, path, message) => {
      const answer = await call(method, path, method === 'GET' ? undefined : '{"documents":[{}],"callbackUrl":"https://hooks.example.com/"}');
      expect(answer).toEqual({ status: 422, error: { code: ErrorCode.BindingError, message: expect.stringContaining(message) } });
    });

    it.each([
      ['PATCH', '/v1/templates/{t}/versions/1/document-name-template', '{"documentNameTemplate":"Invoice \\u0000"}', 'documentNameTemplate: must not contain the NUL character (U+0000)'],
      ['PATCH', '/v1/templates/{t}/versions/1/document-name-template', '{"documentNameTemplate":"\\udc00 lone"}', 'documentNameTemplate: must not contain a lone UTF-16 surrogate (\\uD800-\\uDFFF without its pair)'],
      ['POST', '/v1/render/{t}/async', '{"documents":[{}],"callbackUrl":"https://hooks.example.com/\\u0000"}', 'callbackUrl: must not contain the NUL character (U+0000)'],
    ])('%s %s with %s: 422 BindingError naming the field', async (method, path, body, message) => {
      expect(await call(method, path, body)).toEqual({ status: 422, error: { code: ErrorCode.BindingError, message } });
    });

    it('bytes that are not HTTP/1.1 get the envelope from the HTTP server itself (422 BindingError), then the connection closes', async () => {
      const port = new URL(baseUrl).port;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 422 Unprocessable Entity');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: ErrorCode.BindingError, message: 'the request is not valid HTTP/1.1' } });
    });

    it('a request line over 256 KiB gets the envelope from the HTTP server itself (422 BindingError), not a bare 431', async () => {
      const res = await fetch(`${baseUrl}/v1/templates?search=${'q'.repeat(300 * 1024)}`, { headers: { Authorization: `Bearer ${keys[1]}` } });
      expect([res.status, await res.json()]).toEqual([422, { error: { code: ErrorCode.BindingError, message: 'the request line and headers exceed 262144 bytes' } }]);
    });
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
