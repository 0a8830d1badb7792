import { suiteDatabase } from '../../test/suite-database';
import { provisionTestOrganisation } from '../../test/suite-fixtures';

describe('UndeliveredRenderRepository: documents paid for whose answer was lost, kept for the same request (issue 31 item 6, decision 0041)', () => {
  const db = suiteDatabase();
  let organisationId: string;

  beforeAll(async () => {
    organisationId = await provisionTestOrganisation(db.database, 'Retry Ltd', { tier: 'growth', includedPagesPerMonth: 100, includedTokensPerMonth: 50 });
  });

  const HOUR = 3_600_000;

  it('what is remembered is taken once, by the same fingerprint only; two takes at once get it once', async () => {
    const repository = db.database.undeliveredRenders;
    await repository.remember(organisationId, 'fp-a', [{ documentIndex: 0, id: 'd-0' }]);
    expect(await repository.take(organisationId, 'fp-other', HOUR)).toEqual([]);
    const [first, second] = await Promise.all([repository.take(organisationId, 'fp-a', HOUR), repository.take(organisationId, 'fp-a', HOUR)]);
    expect([first, second].sort((a, b) => b.length - a.length)).toEqual([[{ documentIndex: 0, id: 'd-0' }], []]);
    expect(await repository.take(organisationId, 'fp-a', HOUR)).toEqual([]);
  });

  it('a later failed answer of the same request replaces what an earlier one kept', async () => {
    const repository = db.database.undeliveredRenders;
    await repository.remember(organisationId, 'fp-b', [{ documentIndex: 0 }]);
    await repository.remember(organisationId, 'fp-b', [{ documentIndex: 0 }, { documentIndex: 1 }]);
    expect(await repository.take(organisationId, 'fp-b', HOUR)).toEqual([{ documentIndex: 0 }, { documentIndex: 1 }]);
  });

  it('past its window a kept answer is not handed out, and it is deleted', async () => {
    const repository = db.database.undeliveredRenders;
    await repository.remember(organisationId, 'fp-old', [{ documentIndex: 0 }]);
    await db.dataSource.query(`UPDATE undelivered_renders SET created_at = now() - interval '2 hours' WHERE fingerprint = 'fp-old'`);
    expect(await repository.take(organisationId, 'fp-new', HOUR)).toEqual([]);
    const [{ kept }] = (await db.dataSource.query(`SELECT count(*)::int AS kept FROM undelivered_renders WHERE organisation_id = $1`, [organisationId])) as { kept: number }[];
    expect(kept).toBe(0);
  });
});
