import { freePort } from '@docrender/testing';
import {
  ApiError,
  ConnectionError,
  DocrenderClient,
  ErrorCode,
  PermissionDeniedError,
  RateLimitError,
  ResponseDecodeError,
  ServerError,
  TimeoutError,
  type RetryNotice,
} from '../src';
import { json, startStubServer, type StubServer } from './stub-server';

const KEY = 'service_test_stubStubStubStubStub';
const TEMPLATE = '6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f';
const PAGE = { items: [], total: 0, skip: 0, take: 25 };
const JOB = (state: string) => ({ jobId: 'j-1', state, status: null, renderedCount: 0, requestedCount: 1, missingCount: 1, issues: [], startedAt: '', completedAt: null, failureReason: null });

/** Fast retries so the tests do not wait for the production backoff. */
function client(baseUrl: string, retries: RetryNotice[] = [], extra: Partial<ConstructorParameters<typeof DocrenderClient>[0]> = {}): DocrenderClient {
  return new DocrenderClient({ baseUrl, apiKey: KEY, retry: { baseDelayMs: 5, maxDelayMs: 20, onRetry: (r) => retries.push(r) }, ...extra });
}

describe('client transport against local HTTP servers (failures the service cannot produce on demand)', () => {
  let stub: StubServer | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it('7.5: a read answered 503, 502, 504 is retried with backoff and then succeeds', async () => {
    stub = await startStubServer((_req, res, n) => (n < 3 ? json(res, [503, 502, 504][n], { error: { code: 'QueueFull', message: 'busy' } }) : json(res, 200, PAGE)));
    const retries: RetryNotice[] = [];
    await expect(client(stub.url, retries).templates.list()).resolves.toEqual(PAGE);
    expect(stub.requests).toHaveLength(4);
    expect(retries.map((r) => [r.attempt, (r.error as ApiError).status])).toEqual([
      [1, 503],
      [2, 502],
      [3, 504],
    ]);
    expect(retries.every((r) => r.delayMs >= 2 && r.request === 'GET /v1/templates')).toBe(true);
  });

  it('7.5: gives up after maxRetries and throws the last failure as ServerError with status and code', async () => {
    stub = await startStubServer((_req, res) => json(res, 503, { error: { code: 'QueueFull', message: 'busy' } }));
    const error = await client(stub.url).documents.get('d').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect((error as ServerError).code).toBe(ErrorCode.QueueFull);
    expect(stub.requests).toHaveLength(4);
  });

  it('7.5: writes are never retried: a render answered 503 or 429 is thrown after one request', async () => {
    stub = await startStubServer((_req, res, n) =>
      n === 0 ? json(res, 503, { error: { code: 'QueueFull', message: 'full' } }) : json(res, 429, { error: { code: 'TooManyRequests', message: 'slow down' } }, { 'Retry-After': '1' }),
    );
    const retries: RetryNotice[] = [];
    const api = client(stub.url, retries);
    await expect(api.jobs.enqueue(TEMPLATE, [{}], { callbackUrl: 'https://example.com/hook' })).rejects.toBeInstanceOf(ServerError);
    const limited = await api.renders.render(TEMPLATE, [{}]).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterSeconds).toBe(1);
    expect(stub.requests).toHaveLength(2);
    expect(retries).toEqual([]);
  });

  it('7.5: a read answered 429 waits Retry-After before retrying', async () => {
    stub = await startStubServer((_req, res, n) => (n === 0 ? json(res, 429, { error: { code: 'TooManyRequests', message: 'x' } }, { 'Retry-After': '1' }) : json(res, 200, PAGE)));
    const retries: RetryNotice[] = [];
    const started = Date.now();
    await client(stub.url, retries).fonts.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(retries).toHaveLength(1);
    expect(retries[0].error).toBeInstanceOf(RateLimitError);
    expect(retries[0].delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('7.5: a server that accepts and never answers gives TimeoutError after timeoutMs (not retried)', async () => {
    stub = await startStubServer(() => undefined);
    const retries: RetryNotice[] = [];
    const started = Date.now();
    const error = await client(stub.url, retries).organisation.stats({ timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(300);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(retries).toEqual([]);
  });

  it('7.5: an answer whose body stalls after the headers also times out', async () => {
    stub = await startStubServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': '1000' });
      res.write('%PDF-1.7\n');
    });
    await expect(client(stub.url).documents.download('d', { timeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('7.5: a closed port gives ConnectionError; a read is retried first, a write is not', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const retries: RetryNotice[] = [];
    const api = client(closed, retries);
    const error = await api.templates.get(TEMPLATE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
    retries.length = 0;
    await expect(api.renders.render(TEMPLATE, [{}])).rejects.toBeInstanceOf(ConnectionError);
    expect(retries).toEqual([]);
  });

  it('7.5: a connection dropped in the middle of the answer is a ConnectionError', async () => {
    stub = await startStubServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
      res.write('{"items": [');
      setTimeout(() => req.socket.destroy(), 20);
    });
    await expect(client(stub.url, [], { retry: { maxRetries: 0 } }).templates.list()).rejects.toBeInstanceOf(ConnectionError);
  });

  it('a file-system failure of downloadToFile is Node’s own error: not a ConnectionError, not retried', async () => {
    stub = await startStubServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.7\n%%EOF\n'));
    const retries: RetryNotice[] = [];
    const error = await client(stub.url, retries).documents.downloadToFile('d', '/nonexistent-dir-of-this-test/x.pdf').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'ENOENT' });
    expect(retries).toEqual([]);
    expect(stub.requests).toHaveLength(1);
  });

  it('7.5: a 2xx body that is not JSON, lacks a field, or is not the PDF asked for is a ResponseDecodeError', async () => {
    stub = await startStubServer((req, res, n) => {
      if (n === 0) res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>proxy login</html>');
      else if (n === 1) json(res, 200, { items: 'not a list', total: 1, skip: 0, take: 25 });
      else if (n === 2) json(res, 200, { status: 'ok', message: '' });
      else json(res, 200, { documents: [] });
    });
    const api = client(stub.url);
    const notJson = await api.templates.list().catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(ResponseDecodeError);
    expect((notJson as ResponseDecodeError).message).toContain('not JSON');
    expect((notJson as ResponseDecodeError).contentType).toBe('text/html');
    await expect(api.documents.list()).rejects.toThrow(/field items is not array/);
    await expect(api.renders.render(TEMPLATE, [{}])).rejects.toThrow(/field requestedCount is not number/);
    const notPdf = await api.renders.renderPdf(TEMPLATE, {}).catch((e: unknown) => e);
    expect(notPdf).toBeInstanceOf(ResponseDecodeError);
    expect((notPdf as Error).message).toContain('expected application/pdf');
  });

  it('7.5: 403 Forbidden is a PermissionDeniedError with status and code (no endpoint of this service answers 403 yet)', async () => {
    stub = await startStubServer((_req, res) => json(res, 403, { error: { code: 'Forbidden', message: 'organisation may not do this' } }));
    const error = await client(stub.url).organisation.stats().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: ErrorCode.Forbidden, serviceMessage: 'organisation may not do this', request: 'GET /v1/organisation/stats' });
  });

  it('7.5: a 500 keeps the errorId; an error answer that is not an envelope keeps its text and has no code', async () => {
    stub = await startStubServer((_req, res, n) =>
      n === 0 ? json(res, 500, { error: { code: 'InternalError', message: 'internal error', errorId: 'e-42' } }) : res.writeHead(418, { 'Content-Type': 'text/plain' }).end('I am a teapot'),
    );
    const api = client(stub.url);
    await expect(api.renders.render(TEMPLATE, [{}])).rejects.toMatchObject({ status: 500, code: 'InternalError', errorId: 'e-42' });
    const other = await api.renders.render(TEMPLATE, [{}]).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ApiError);
    expect(other).toMatchObject({ status: 418, code: null, serviceMessage: 'I am a teapot' });
  });

  it('9.4: the waiter treats a job state it does not know as terminal', async () => {
    stub = await startStubServer((_req, res, n) => json(res, 200, JOB(n < 2 ? 'pending' : 'archived')));
    const status = await client(stub.url).jobs.wait('j-1', { pollIntervalMs: 10 });
    expect(status.state).toBe('archived');
    expect(stub.requests.map((r) => r.url)).toEqual(['/v1/render/jobs/j-1', '/v1/render/jobs/j-1', '/v1/render/jobs/j-1']);
  });

  it('a caller’s abort rejects with its reason and stops retrying', async () => {
    stub = await startStubServer(() => undefined);
    const controller = new AbortController();
    const pending = client(stub.url).templates.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('5: sends the bearer key, Accept and a User-Agent; the probes go without a key', async () => {
    stub = await startStubServer((req, res) => (req.url === '/v1/meta/version' ? json(res, 200, { version: '1.2.3' }) : json(res, 200, PAGE)));
    const api = client(`${stub.url}/v1/`);
    await api.templates.list({ search: 'a b' });
    await api.meta.version();
    const [list, probe] = stub.requests;
    expect(list.url).toBe('/v1/templates?search=a+b');
    expect(list.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(list.headers.accept).toBe('application/json');
    expect(list.headers['user-agent']).toMatch(/^docrender-client\/\d+\.\d+\.\d+ node\//);
    expect(probe.headers.authorization).toBeUndefined();
  });
});
