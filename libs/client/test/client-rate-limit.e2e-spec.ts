import { DocrenderClient, ErrorCode, RateLimitError, type RetryNotice } from '../src';
import { IDS, startService, type ServiceFixture } from './service-fixture';

jest.setTimeout(120_000);

/** RATE_LIMIT_SCALE 0.01: read 6, write 1, render 3 per window; the window shortened to 30 s. */
const READ_LIMIT = 6;
const RENDER_LIMIT = 3;
/**
 * Long enough that a test's few requests stay inside one window however slow a shared machine is (validations took
 * over 8 s on one), short enough that the two tests of a retried 429 wait at most this long.
 */
const WINDOW_SECONDS = 30;

describe('@docrender/client and the rate limits of the running gateway (spec 8, 7.5)', () => {
  let service: ServiceFixture;
  let retries: RetryNotice[];
  let client: DocrenderClient;

  beforeAll(async () => {
    service = await startService({ RATE_LIMIT_SCALE: '0.01', RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) }, 'apps/api-gateway/src/main.js');
  });

  afterAll(async () => {
    await service?.stop();
  });

  /** Each test starts with a full budget: the previous test's permits are forgotten. */
  beforeEach(async () => {
    await service.clearRateLimitPermits();
    retries = [];
    client = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.test, retry: { onRetry: (r) => retries.push(r) } });
  });

  it('7.5: a read over the limit waits the 429’s Retry-After, is retried, and succeeds', async () => {
    for (let i = 0; i < READ_LIMIT; i++) await client.templates.get(IDS.invoice);
    expect(retries).toEqual([]);
    const started = Date.now();
    expect((await client.templates.get(IDS.invoice)).id).toBe(IDS.invoice);
    expect(retries).toHaveLength(1);
    const [retry] = retries;
    expect(retry.error).toBeInstanceOf(RateLimitError);
    const retryAfter = (retry.error as RateLimitError).retryAfterSeconds as number;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(retry.delayMs).toBeGreaterThanOrEqual(retryAfter * 1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retryAfter * 1000);
  });

  it('7.5: with retries off, the read’s 429 is a RateLimitError with status, code and Retry-After', async () => {
    const once = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.keys.test, retry: { maxRetries: 0 } });
    for (let i = 0; i < READ_LIMIT; i++) await once.documents.list();
    const error = await once.documents.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: ErrorCode.TooManyRequests, request: 'GET /v1/documents' });
    expect((error as RateLimitError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('7.5: a write over the limit is a RateLimitError at once, never retried (PATCH, render)', async () => {
    await client.templates.updateDocumentNameTemplate(IDS.invoice, 2, 'Draft {{number}}');
    const patch = await client.templates.updateDocumentNameTemplate(IDS.invoice, 2, 'Draft {{number}}').catch((e: unknown) => e);
    expect(patch).toBeInstanceOf(RateLimitError);
    for (let i = 0; i < RENDER_LIMIT; i++) await client.renders.validate(IDS.invoice, [{}]);
    const render = await client.renders.render(IDS.invoice, [{}]).catch((e: unknown) => e);
    expect(render).toBeInstanceOf(RateLimitError);
    expect(retries).toEqual([]);
  });

  it('7.5: validation changes nothing, so its 429 is retried like a read', async () => {
    for (let i = 0; i < RENDER_LIMIT; i++) await client.renders.validate(IDS.invoice, [{}]);
    const { issues } = await client.renders.validate(IDS.invoice, [{}]);
    expect(issues.length).toBeGreaterThan(0);
    expect(retries.map((r) => [r.request, r.error.constructor.name])).toEqual([[`POST /v1/render/${IDS.invoice}/validate`, 'RateLimitError']]);
  });
});
