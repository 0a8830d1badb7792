import { randomUUID } from 'node:crypto';
import { Environment } from '@docrender/contracts';
import { provisionOrganisation } from '@docrender/persistence';
import { gatewayResources, gatewaysOnOwnResources, type GatewayProcess } from './gateway-process';

jest.setTimeout(120_000);

/** Spec 5.4 / 7.2: 403 Forbidden — the key is valid but the organisation may not perform the action. */
describe('403 Forbidden for a suspended organisation (gateway as a process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayResources('suspended'));
  let gateway: GatewayProcess;
  let organisationId: string;
  let key: string;

  beforeAll(async () => {
    const { db } = own.resources;
    ({ organisation: { id: organisationId } } = await provisionOrganisation(db.database, {
      name: 'Suspended Ltd',
      tier: 't',
      includedPagesPerMonth: 10,
      includedTokensPerMonth: 0,
      retentionDays: null,
      userCount: 1,
    }));
    key = (await db.database.apiKeys.create(organisationId, Environment.Production)).plaintextKey;
    gateway = await own.startGateway();
    await db.database.organisations.setSuspended(organisationId, true);
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
    await own.db.database.organisations.setSuspended(organisationId, false);
    const res = await call('POST', `/v1/render/${randomUUID()}`, { documents: [{}] });
    expect(res.status).toBe(404);
  });
});
