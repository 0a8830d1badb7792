import { RateLimitCategory } from '@docrender/contracts';
import { suiteDatabase } from '../../test/suite-database';

describe('RateLimitRepository', () => {
  const db = suiteDatabase();
  const org = '00000000-0000-4000-8000-0000000000aa';

  it('8: concurrent requests never get more permits than the limit in the window', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const decisions = await Promise.all(
      Array.from({ length: 30 }, () => db.database.rateLimits.tryAcquire(org, RateLimitCategory.Write, { limit: 12, now })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(12);
    const refused = decisions.find((d) => !d.allowed);
    expect(refused).toEqual({ allowed: false, limit: 12, remaining: 0, retryAfterSeconds: 60 });
  });

  it('8: the window slides: a permit frees up 60 s after it was taken; categories count separately', async () => {
    const t0 = new Date('2026-11-21T13:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const acquire = (s: number, category = RateLimitCategory.Render) => db.database.rateLimits.tryAcquire(org, category, { limit: 2, now: at(s) });
    expect((await acquire(0)).allowed).toBe(true);
    expect(await acquire(30)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await acquire(45)).toMatchObject({ allowed: false, retryAfterSeconds: 15 });
    expect((await acquire(45, RateLimitCategory.Read)).allowed).toBe(true);
    expect((await acquire(60)).allowed).toBe(true);
    expect((await acquire(61)).allowed).toBe(false);
    expect(await db.database.rateLimits.pruneOlderThan(at(0))).toBeGreaterThan(0);
  });

  it('8: the default limits are the spec table', async () => {
    expect((await db.database.rateLimits.tryAcquire(org, RateLimitCategory.Read)).limit).toBe(600);
  });
});
