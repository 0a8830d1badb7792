import { ErrorCode } from '@docrender/contracts';
import { client, createTemplate, createTenant, type ErrorBody, type Tenant } from './gateway-fixtures';
import { gatewayResources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

/**
 * RATE_LIMIT_SCALE 0.01: read 6, write 1 per window. The window is shortened to 10 s to watch it end: long enough
 * that each test's requests (up to 27 one after another) fall inside one window on a slow, loaded machine (with 4 s,
 * a test's first permit once left the window before its last request, which then passed), short enough to wait out
 * Retry-After.
 */
const READ_LIMIT = 6;
const WINDOW_SECONDS = 10;

describe('8 rate limits shared by two gateway processes through PostgreSQL (e2e)', () => {
  const own = gatewaysOnOwnResources(() => gatewayResources('rate-limit'));
  let gateways: GatewayProcess[] = [];
  let a: Tenant;
  let b: Tenant;
  let templateId: string;

  beforeAll(async () => {
    const settings = {
      DB_POOL_SIZE: '4',
      RATE_LIMIT_SCALE: '0.01',
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    };
    gateways = await Promise.all([own.startGateway(settings), own.startGateway(settings)]);
  });

  /** Each test has organisations of its own, so it starts with full budgets without waiting for another's to refill. */
  let tests = 0;
  beforeEach(async () => {
    tests++;
    a = await createTenant(own.db.database, `Busy Org ${tests}`);
    b = await createTenant(own.db.database, `Quiet Org ${tests}`);
    templateId = (await createTemplate(own.db.database, a, { name: 'T', versions: [{ publish: true }] })).template.id;
  });

  const via = (i: number, key: string) => client(gateways[i % 2].baseUrl, key);

  it('8: one budget per organisation and category across both replicas, exact under concurrency', async () => {
    const answers = await Promise.all(Array.from({ length: 2 * READ_LIMIT }, (_, i) => via(i, a.testKey).get('/v1/templates')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(READ_LIMIT).fill(200), ...Array(READ_LIMIT).fill(429)]);
    // Both replicas refuse once the shared budget is spent.
    for (const i of [0, 1]) expect((await via(i, a.testKey).get('/v1/templates')).status).toBe(429);
  });

  it('8: 429 TooManyRequests carries an integer Retry-After after which a request succeeds', async () => {
    for (let i = 0; i < READ_LIMIT; i++) expect((await via(i, a.testKey).get(`/v1/templates/${templateId}`)).status).toBe(200);
    const refused = await via(0, a.testKey).get(`/v1/templates/${templateId}`);
    expect(refused.status).toBe(429);
    expect(refused.json<ErrorBody>().error.code).toBe(ErrorCode.TooManyRequests);
    const retryAfter = refused.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    await new Promise((r) => setTimeout(r, Number(retryAfter) * 1000));
    expect((await via(1, a.testKey).get(`/v1/templates/${templateId}`)).status).toBe(200);
  });

  it('8: the budget is the organisation’s (both its keys share it), not the route’s, and other organisations keep theirs', async () => {
    const routes = ['/v1/templates', `/v1/templates/${templateId}`, `/v1/templates/${templateId}/versions`, '/v1/documents', `/v1/templates/${templateId}/versions/latest`, '/v1/templates'];
    for (const [i, route] of routes.entries()) expect((await via(i, i % 2 === 0 ? a.testKey : a.prodKey).get(route)).status).toBe(200);
    expect((await via(0, a.prodKey).get('/v1/documents')).status).toBe(429);
    expect((await via(1, b.testKey).get('/v1/documents')).status).toBe(200);
  });

  it('8: categories are separate: the write limit is its own, and stats and probes are never limited', async () => {
    for (let i = 0; i < READ_LIMIT; i++) await via(i, a.testKey).get('/v1/documents');
    expect((await via(0, a.testKey).get('/v1/documents')).status).toBe(429);
    const patch = (i: number) =>
      via(i, a.testKey).patch(`/v1/templates/${templateId}/versions/1/document-name-template`, JSON.stringify({ documentNameTemplate: 'x' }));
    expect((await patch(0)).status).toBe(200);
    const secondWrite = await patch(1);
    expect(secondWrite.status).toBe(429);
    expect(secondWrite.headers.get('x-ratelimit-limit')).toBe('1');
    for (let i = 0; i < 10; i++) {
      expect((await via(i, a.testKey).get('/v1/organisation/stats')).status).toBe(200);
      expect((await fetch(`${gateways[i % 2].baseUrl}/v1/meta/status`)).status).toBe(200);
    }
  });

  it('8: a refused request costs nothing: hammering does not push the recovery back', async () => {
    for (let i = 0; i < READ_LIMIT; i++) await via(i, a.testKey).get('/v1/documents');
    const first = await via(0, a.testKey).get('/v1/documents');
    for (let i = 0; i < 20; i++) expect((await via(i, a.testKey).get('/v1/documents')).status).toBe(429);
    await new Promise((r) => setTimeout(r, Number(first.headers.get('retry-after')) * 1000));
    expect((await via(1, a.testKey).get('/v1/documents')).status).toBe(200);
  });
});
