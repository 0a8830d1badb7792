import { suiteDatabase } from '../../test/suite-database';
import { provisionOrganisation } from '../provisioning/organisation-provisioning';

describe('UsageRepository', () => {
  const db = suiteDatabase();
  const now = new Date('2026-11-21T12:00:00Z');

  const organisationWith = async (includedPagesPerMonth: number, billingPeriodStart?: Date) =>
    (
      await db.database.transaction((r) =>
        provisionOrganisation(
          r,
          { name: 'Usage Ltd', tier: 'growth', includedPagesPerMonth, includedTokensPerMonth: 50, retentionDays: null, userCount: 2, billingPeriodStart },
          billingPeriodStart ?? now,
        ),
      )
    ).organisation.id;

  it('2.12: a new organisation starts the calendar month with nothing used', async () => {
    const id = await organisationWith(100);
    expect(await db.database.usage.getUsage(id, now)).toEqual({
      organisationId: id,
      periodStart: new Date('2026-11-01T00:00:00Z'),
      periodEnd: new Date('2026-12-01T00:00:00Z'),
      includedPagesPerMonth: 100,
      pagesUsed: 0,
      includedTokensPerMonth: 50,
      tokensUsed: 0,
    });
  });

  it('3.1 rule 3: pages are consumed while they fit, and refused whole when they do not', async () => {
    const id = await organisationWith(10);
    expect(await db.database.usage.tryConsumePages(id, 6, now)).toBe(true);
    expect(await db.database.usage.tryConsumePages(id, 5, now)).toBe(false);
    expect(await db.database.usage.tryConsumePages(id, 4, now)).toBe(true);
    expect(await db.database.usage.tryConsumePages(id, 1, now)).toBe(false);
    expect(await db.database.usage.tryConsumePages(id, 0, now)).toBe(true);
    expect((await db.database.usage.getUsage(id, now)).pagesUsed).toBe(10);
  });

  it("3.1 rule 3: inside a transaction (a job document's recording) pages are taken and refused alike, and a rollback returns them", async () => {
    const id = await organisationWith(10);
    expect(await db.database.transaction((r) => r.usage.tryConsumePages(id, 6, now))).toBe(true);
    expect(await db.database.transaction((r) => r.usage.tryConsumePages(id, 5, now))).toBe(false);
    await expect(
      db.database.transaction(async (r) => {
        expect(await r.usage.tryConsumePages(id, 4, now)).toBe(true);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await db.database.usage.getUsage(id, now)).pagesUsed).toBe(6);
  });

  it('3.1 rule 3: 20 concurrent consumers at the boundary never overspend', async () => {
    const id = await organisationWith(25);
    await db.database.usage.setPagesUsed(id, 15, now);
    // 20 callers want 1..3 pages each (40 in all) while 10 remain.
    const wants = Array.from({ length: 20 }, (_, i) => (i % 3) + 1);
    const granted = await Promise.all(wants.map((pages) => db.database.usage.tryConsumePages(id, pages, now)));
    const grantedPages = wants.filter((_, i) => granted[i]).reduce((a, b) => a + b, 0);
    const used = (await db.database.usage.getUsage(id, now)).pagesUsed;
    expect(used).toBe(15 + grantedPages);
    expect(used).toBeLessThanOrEqual(25);
    // Every refusal was justified: it would not have fitted in what was left at the end.
    wants.forEach((pages, i) => {
      if (!granted[i]) expect(used + pages).toBeGreaterThan(25);
    });
  });

  it('3.1 rule 3: 20 concurrent single-page consumers with 10 pages left get exactly 10', async () => {
    const id = await organisationWith(30);
    await db.database.usage.setPagesUsed(id, 20, now);
    const granted = await Promise.all(Array.from({ length: 20 }, () => db.database.usage.tryConsumePages(id, 1, now)));
    expect(granted.filter(Boolean)).toHaveLength(10);
    expect((await db.database.usage.getUsage(id, now)).pagesUsed).toBe(30);
  });

  it('rejects a negative or fractional page count', async () => {
    const id = await organisationWith(10);
    await expect(db.database.usage.tryConsumePages(id, -1, now)).rejects.toThrow(RangeError);
    await expect(db.database.usage.tryConsumePages(id, 1.5, now)).rejects.toThrow(RangeError);
  });

  it('the billing period rolls over by whole months and the new period starts empty', async () => {
    const id = await organisationWith(5, new Date('2026-08-15T00:00:00Z'));
    expect(await db.database.usage.tryConsumePages(id, 5, new Date('2026-08-20T00:00:00Z'))).toBe(true);
    expect(await db.database.usage.tryConsumePages(id, 1, new Date('2026-08-21T00:00:00Z'))).toBe(false);
    const later = new Date('2026-11-21T00:00:00Z');
    expect(await db.database.usage.tryConsumePages(id, 2, later)).toBe(true);
    expect(await db.database.usage.getUsage(id, later)).toMatchObject({
      periodStart: new Date('2026-11-15T00:00:00Z'),
      periodEnd: new Date('2026-12-15T00:00:00Z'),
      pagesUsed: 2,
    });
    const organisation = await db.database.organisations.findById(id);
    expect(organisation?.billingPeriodStart).toEqual(new Date('2026-11-15T00:00:00Z'));
  });

  it('pages taken after a period ended count in the new period, even when the old one had credit left', async () => {
    const id = await organisationWith(5, new Date('2026-08-15T00:00:00Z'));
    expect(await db.database.usage.tryConsumePages(id, 1, new Date('2026-08-20T00:00:00Z'))).toBe(true);
    const nextPeriod = new Date('2026-09-16T00:00:00Z');
    expect(await db.database.usage.tryConsumePages(id, 3, nextPeriod)).toBe(true);
    expect(await db.database.usage.getUsage(id, nextPeriod)).toMatchObject({ periodStart: new Date('2026-09-15T00:00:00Z'), pagesUsed: 3 });
  });

  it('2.12: usage read after the stored period ended shows the new, empty period (reading rolls the period over too)', async () => {
    const id = await organisationWith(5, new Date('2026-08-15T00:00:00Z'));
    expect(await db.database.usage.tryConsumePages(id, 4, new Date('2026-08-20T00:00:00Z'))).toBe(true);
    expect(await db.database.usage.getUsage(id, new Date('2026-09-14T23:59:59Z'))).toMatchObject({ periodStart: new Date('2026-08-15T00:00:00Z'), pagesUsed: 4 });
    expect(await db.database.usage.getUsage(id, new Date('2026-09-15T00:00:00Z'))).toMatchObject({
      periodStart: new Date('2026-09-15T00:00:00Z'),
      periodEnd: new Date('2026-10-15T00:00:00Z'),
      includedPagesPerMonth: 5,
      pagesUsed: 0,
    });
    expect((await db.database.organisations.findById(id))?.billingPeriodStart).toEqual(new Date('2026-09-15T00:00:00Z'));
  });
});
