import { suiteDatabase } from '../../test/suite-database';
import { provisionOrganisation } from '../provisioning/organisation-provisioning';

const HOUR = 60 * 60 * 1000;

describe('WebhookSecretRepository', () => {
  const db = suiteDatabase();
  let organisationId: string;
  let firstSecret: string;
  const t0 = new Date('2026-11-01T10:00:00Z');

  beforeAll(async () => {
    const created = await db.database.transaction((r) =>
      provisionOrganisation(r, { name: 'Hooks Ltd', tier: 'free', includedPagesPerMonth: 1, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }, t0),
    );
    organisationId = created.organisation.id;
    firstSecret = created.webhookSecret;
  });

  it('an organisation is provisioned with one random whsec_ secret and no previous one', async () => {
    expect(firstSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(await db.database.webhookSecrets.find(organisationId)).toEqual({
      organisationId,
      active: firstSecret,
      previous: null,
      rotatedAt: null,
      previousExpiresAt: null,
    });
    expect(await db.database.webhookSecrets.signingSecretsAt(organisationId, t0)).toEqual([firstSecret]);
  });

  it('6.4: rotation keeps the previous secret signing for 24 hours, active first, then drops it', async () => {
    const rotatedAt = new Date(t0.getTime() + HOUR);
    const rotated = await db.database.webhookSecrets.rotate(organisationId, rotatedAt);
    expect(rotated.active).toMatch(/^whsec_/);
    expect(rotated.active).not.toBe(firstSecret);
    expect(rotated.previous).toBe(firstSecret);
    expect(rotated.rotatedAt).toEqual(rotatedAt);
    expect(rotated.previousExpiresAt).toEqual(new Date(rotatedAt.getTime() + 24 * HOUR));

    const secrets = db.database.webhookSecrets;
    expect(await secrets.signingSecretsAt(organisationId, rotatedAt)).toEqual([rotated.active, firstSecret]);
    expect(await secrets.signingSecretsAt(organisationId, new Date(rotatedAt.getTime() + 24 * HOUR - 1))).toEqual([rotated.active, firstSecret]);
    expect(await secrets.signingSecretsAt(organisationId, new Date(rotatedAt.getTime() + 24 * HOUR))).toEqual([rotated.active]);
  });

  it('setActive with the current secret changes nothing; with another one it rotates', async () => {
    const before = await db.database.webhookSecrets.find(organisationId);
    expect(before).not.toBeNull();
    const same = await db.database.webhookSecrets.setActive(organisationId, before!.active, new Date());
    expect(same).toEqual(before);
    const at = new Date('2026-11-05T00:00:00Z');
    const changed = await db.database.webhookSecrets.setActive(organisationId, 'whsec_given-by-the-operator-123', at);
    expect(changed).toMatchObject({ active: 'whsec_given-by-the-operator-123', previous: before!.active, rotatedAt: at });
  });

  it('an organisation without a row has no signing secrets', async () => {
    expect(await db.database.webhookSecrets.signingSecretsAt('00000000-0000-4000-8000-00000000abcd')).toEqual([]);
  });
});
