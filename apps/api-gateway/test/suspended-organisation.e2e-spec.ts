import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Environment } from '@docrender/contracts';
import { provisionOrganisation } from '@docrender/persistence';
import { createTestDatabase, TEST_API_KEY_PEPPER, type TestDatabase } from '@docrender/testing';
import { ensureBuilt, startGateway, type GatewayProcess } from './gateway-process';

jest.setTimeout(120_000);

/** Spec 5.4 / 7.2: 403 Forbidden — the key is valid but the organisation may not perform the action. */
describe('403 Forbidden for a suspended organisation (gateway as a process)', () => {
  let db: TestDatabase;
  let gateway: GatewayProcess;
  let organisationId: string;
  let key: string;
  let blobDir: string;

  beforeAll(async () => {
    await ensureBuilt();
    db = await createTestDatabase();
    ({ organisation: { id: organisationId } } = await provisionOrganisation(db.database, {
      name: 'Suspended Ltd',
      tier: 't',
      includedPagesPerMonth: 10,
      includedTokensPerMonth: 0,
      retentionDays: null,
      userCount: 1,
    }));
    key = (await db.database.apiKeys.create(organisationId, Environment.Production)).plaintextKey;
    blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-suspended-'));
    gateway = await startGateway({ DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, BLOB_DIR: blobDir });
    await db.database.organisations.setSuspended(organisationId, true);
  });

  afterAll(async () => {
    await gateway?.stop();
    await db?.drop();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${gateway.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it.each([
    ['POST', `/v1/render/${randomUUID()}`, { documents: [{}] }],
    ['POST', '/v1/render', { template: {}, data: {} }],
    ['POST', `/v1/render/${randomUUID()}/validate`, { documents: [{}] }],
    ['POST', `/v1/render/${randomUUID()}/async`, { documents: [{}], callbackUrl: 'https://example.com/hook' }],
    ['PATCH', `/v1/templates/${randomUUID()}/versions/1/document-name-template`, { documentNameTemplate: null }],
  ])('7.2: %s %s is 403 Forbidden with the error envelope', async (method, path, body) => {
    const res = await call(method, path, body);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: 'Forbidden', message: expect.stringContaining('suspended') } });
  });

  it('5.4: reads still work, and resuming the organisation lifts the 403', async () => {
    expect((await call('GET', '/v1/templates')).status).toBe(200);
    expect((await call('GET', '/v1/organisation/stats')).status).toBe(200);
    await db.database.organisations.setSuspended(organisationId, false);
    const res = await call('POST', `/v1/render/${randomUUID()}`, { documents: [{}] });
    expect(res.status).toBe(404);
  });
});
