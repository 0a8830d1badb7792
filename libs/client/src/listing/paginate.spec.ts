import type { PagedResult } from '@docrender/contracts';
import { paginate, pinned } from './paginate';

/** A listing of `records` that clamps take like the service (1..200) and records each skip asked for. */
function fakeListing(records: number[], take: number) {
  const skips: number[] = [];
  const fetchPage = async (skip: number): Promise<PagedResult<number>> => {
    skips.push(skip);
    const applied = Math.min(200, Math.max(1, take));
    return { items: records.slice(skip, skip + applied), total: records.length, skip, take: applied };
  };
  return { skips, fetchPage };
}

async function all<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe('paging (spec 4.1)', () => {
  it('4.1: advances skip by the items returned until skip + items.length >= total', async () => {
    const records = Array.from({ length: 7 }, (_, i) => i);
    const listing = fakeListing(records, 3);
    expect(await all(paginate(listing.fetchPage))).toEqual(records);
    expect(listing.skips).toEqual([0, 3, 6]);
  });

  it('4.1: follows the clamped page size the service echoes, not the one asked for', async () => {
    const records = Array.from({ length: 450 }, (_, i) => i);
    const listing = fakeListing(records, 1000);
    expect((await all(paginate(listing.fetchPage))).length).toBe(450);
    expect(listing.skips).toEqual([0, 200, 400]);
  });

  it('asks once for an empty listing, and stops at an empty page even if total still claims more', async () => {
    const empty = fakeListing([], 25);
    expect(await all(paginate(empty.fetchPage))).toEqual([]);
    expect(empty.skips).toEqual([0]);
    const shrinking = async (skip: number): Promise<PagedResult<number>> => ({ items: skip === 0 ? [1, 2] : [], total: 10, skip, take: 2 });
    expect(await all(paginate(shrinking))).toEqual([1, 2]);
  });

  it('starts at the skip given', async () => {
    const listing = fakeListing([0, 1, 2, 3, 4], 2);
    expect(await all(paginate(listing.fetchPage, 3))).toEqual([3, 4]);
  });

  it('4.1: pinning adds an upper-bound filter on the listing’s ordered field, after the caller’s filters', () => {
    const at = new Date('2026-11-21T10:00:00Z');
    expect(pinned('documents', { filters: [{ field: 'environment', value: 'test' }] }, { pin: true }, () => at).filters).toEqual([
      { field: 'environment', value: 'test' },
      { field: 'renderedAt', op: 'lte', value: '2026-11-21T10:00:00.000Z' },
    ]);
    expect(pinned('templates', {}, { pin: '2026-01-01T00:00:00Z' }).filters).toEqual([{ field: 'createdAt', op: 'lte', value: '2026-01-01T00:00:00Z' }]);
    expect(pinned('documents', { search: 'x' }, {})).toEqual({ search: 'x' });
    expect(() => pinned('fonts', {}, { pin: true })).toThrow(TypeError);
  });
});
