import { Environment } from '@docrender/contracts';
import { TEST_API_KEY_PEPPER } from '@docrender/testing';
import { suiteDatabase } from '../../test/suite-database';
import { hashApiKey } from '../api-keys/api-key-secret';
import { provisionOrganisation } from '../provisioning/organisation-provisioning';
import { ApiKeyRepository } from './api-key.repository';

describe('ApiKeyRepository', () => {
  const db = suiteDatabase();
  let organisationId: string;

  const newOrganisation = (name: string) =>
    db.database.transaction(async (r) =>
      (await provisionOrganisation(r, { name, tier: 'growth', includedPagesPerMonth: 10, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }))
        .organisation.id,
    );

  beforeAll(async () => {
    organisationId = await newOrganisation('Keys Ltd');
  });

  it('5.2: a created key authenticates to its organisation, in the environment of its prefix', async () => {
    const test = await db.database.apiKeys.create(organisationId, Environment.Test, { label: 'ci' });
    const prod = await db.database.apiKeys.create(organisationId, Environment.Production);
    expect(test.plaintextKey).toMatch(/^service_test_[A-Za-z0-9]{40}$/);
    expect(prod.plaintextKey).toMatch(/^service_prod_[A-Za-z0-9]{40}$/);
    expect(await db.database.apiKeys.authenticate(test.plaintextKey)).toEqual({
      apiKeyId: test.record.id,
      organisationId,
      environment: Environment.Test,
      organisationDeleted: false,
      organisationSuspended: false,
    });
    expect(await db.database.apiKeys.authenticate(prod.plaintextKey)).toMatchObject({ environment: Environment.Production });
  });

  it('stores only the HMAC digest and the 12-character lookup prefix, never the key', async () => {
    const { plaintextKey, record } = await db.database.apiKeys.create(organisationId, Environment.Test);
    const [row] = (await db.dataSource.query(`SELECT * FROM api_keys WHERE id = $1`, [record.id])) as Record<string, unknown>[];
    expect(Object.values(row).map(String)).not.toContain(plaintextKey);
    expect(row.key_hash).toBe(hashApiKey(plaintextKey, TEST_API_KEY_PEPPER));
    expect(row.lookup_prefix).toBe(plaintextKey.slice('service_test_'.length, 'service_test_'.length + 12));
  });

  it('5.3: a revoked key no longer authenticates (and revoking twice reports false)', async () => {
    const { plaintextKey, record } = await db.database.apiKeys.create(organisationId, Environment.Production);
    expect(await db.database.apiKeys.revoke(record.id)).toBe(true);
    expect(await db.database.apiKeys.revoke(record.id)).toBe(false);
    expect(await db.database.apiKeys.authenticate(plaintextKey)).toBeNull();
    expect((await db.database.apiKeys.findById(record.id))?.revokedAt).toBeInstanceOf(Date);
  });

  it('5.3: an unknown key, or a known key body with another lookup tail, does not authenticate', async () => {
    const { plaintextKey } = await db.database.apiKeys.create(organisationId, Environment.Test);
    expect(await db.database.apiKeys.authenticate('service_test_' + 'x'.repeat(40))).toBeNull();
    // Same lookup prefix, different secret part: found as a candidate, refused by the digest comparison.
    expect(await db.database.apiKeys.authenticate(plaintextKey.slice(0, -1) + (plaintextKey.endsWith('a') ? 'b' : 'a'))).toBeNull();
  });

  it('5.3: a key under the wrong prefix (other environment, unknown prefix, malformed) does not authenticate', async () => {
    const { plaintextKey } = await db.database.apiKeys.create(organisationId, Environment.Test);
    const body = plaintextKey.slice('service_test_'.length);
    expect(await db.database.apiKeys.authenticate(`service_prod_${body}`)).toBeNull();
    expect(await db.database.apiKeys.authenticate(`service_dev_${body}`)).toBeNull();
    expect(await db.database.apiKeys.authenticate(body)).toBeNull();
    expect(await db.database.apiKeys.authenticate('service_test_short')).toBeNull();
    expect(await db.database.apiKeys.authenticate('')).toBeNull();
  });

  it('5.3: a key of a deleted organisation still authenticates, flagged organisationDeleted (401 NotAuthenticated)', async () => {
    const deletedOrg = await newOrganisation('Gone Ltd');
    const { plaintextKey } = await db.database.apiKeys.create(deletedOrg, Environment.Test);
    expect(await db.database.organisations.markDeleted(deletedOrg)).toBe(true);
    expect(await db.database.organisations.markDeleted(deletedOrg)).toBe(false);
    expect(await db.database.apiKeys.authenticate(plaintextKey)).toMatchObject({ organisationId: deletedOrg, organisationDeleted: true });
  });

  it('a key stored under another pepper does not authenticate', async () => {
    const { plaintextKey } = await db.database.apiKeys.create(organisationId, Environment.Test);
    const otherPepper = new ApiKeyRepository(db.dataSource.manager, 'another-pepper');
    expect(await otherPepper.authenticate(plaintextKey)).toBeNull();
  });

  it('issue 35 item 4: recordUse stores the last use, writing at most once a minute per key', async () => {
    const { record } = await db.database.apiKeys.create(organisationId, Environment.Test, { label: 'used' });
    expect((await db.database.apiKeys.findById(record.id))?.lastUsedAt).toBeNull();
    const first = new Date('2026-01-01T10:00:00Z');
    expect(await db.database.apiKeys.recordUse(record.id, first)).toBe(true);
    expect(await db.database.apiKeys.recordUse(record.id, new Date('2026-01-01T10:00:59Z'))).toBe(false);
    expect((await db.database.apiKeys.findById(record.id))?.lastUsedAt).toEqual(first);
    const later = new Date('2026-01-01T10:01:00Z');
    expect(await db.database.apiKeys.recordUse(record.id, later)).toBe(true);
    expect((await db.database.apiKeys.listByOrganisation(organisationId)).find((k) => k.id === record.id)?.lastUsedAt).toEqual(later);
  });

  it('importKey is idempotent for one organisation and refuses a key of another', async () => {
    const key = 'service_test_imported-key-0123456789';
    const first = await db.database.apiKeys.importKey(organisationId, key);
    const again = await db.database.apiKeys.importKey(organisationId, key);
    expect(again.id).toBe(first.id);
    const other = await newOrganisation('Other Ltd');
    await expect(db.database.apiKeys.importKey(other, key)).rejects.toThrow(/another organisation/);
    expect((await db.database.apiKeys.listByOrganisation(organisationId)).map((k) => k.id)).toContain(first.id);
  });
});
