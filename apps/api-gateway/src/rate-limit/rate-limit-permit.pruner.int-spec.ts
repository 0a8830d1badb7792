import { RateLimitCategory } from '@docrender/contracts';
import { provisionOrganisation } from '@docrender/persistence';
import { createLogger } from '@docrender/observability';
import { createTestDatabase, type TestDatabase } from '@docrender/testing';
import { RateLimitPermitPruner } from './rate-limit-permit.pruner';
import { RateLimitPolicy } from './rate-limit.policy';

describe('rate-limit permits are pruned once they leave the window', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('8: permits older than the window are deleted and the ones inside it still count', async () => {
    const { organisation: org } = await provisionOrganisation(db.database, { name: 'Prune Ltd', tier: 't', includedPagesPerMonth: 1, includedTokensPerMonth: 0, retentionDays: 1, userCount: 1 });
    const t0 = new Date('2026-11-21T10:00:00Z');
    for (let i = 0; i < 3; i++) await db.database.rateLimits.tryAcquire(org.id, RateLimitCategory.Read, { limit: 10, windowSeconds: 60, now: new Date(t0.getTime() + i * 1000) });
    await db.database.rateLimits.tryAcquire(org.id, RateLimitCategory.Read, { limit: 10, windowSeconds: 60, now: new Date(t0.getTime() + 90_000) });
    const policy = new RateLimitPolicy({ enabled: true, scale: 1, windowSeconds: 60 });
    const pruner = new RateLimitPermitPruner(db.database.rateLimits, policy, createLogger('test', 'error'));
    expect(await pruner.prune(60_000, new Date(t0.getTime() + 100_000))).toBe(3);
    const decision = await db.database.rateLimits.tryAcquire(org.id, RateLimitCategory.Read, { limit: 2, windowSeconds: 60, now: new Date(t0.getTime() + 100_000) });
    expect(decision).toMatchObject({ allowed: true, remaining: 0 });
  });
});
