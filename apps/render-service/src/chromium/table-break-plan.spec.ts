import { evenTable } from '../../test/measured-table';
import { breaksOf, type MeasuredTable, planTablePages } from './table-break-plan';

/** `n` rows of `height` px from the top, every break `carried`/`brought` high. */
function table(n: number, height: number, extra: Partial<MeasuredTable> = {}): MeasuredTable {
  return { ...evenTable(n, height, { carried: 15, brought: 12, head: 20, totals: 10 }), ...extra };
}

describe('issue 32 item 1: page-aware table breaks placed by arithmetic on measured heights', () => {
  it('each page takes the rows that fit with its carried rows; later pages have the header and brought-forward rows above', () => {
    // page 1: 8 rows + 15 carried = 95 of 100; later pages: 100 - 20 - 12 = 68 → 5 rows + 15 = 65
    const pages = planTablePages(table(20, 10), 100, 100);
    expect(pages.map(({ first, last }) => [first, last])).toEqual([[0, 7], [8, 12], [13, 17], [18, 19]]);
    expect(pages.every((page) => page.fits)).toBe(true);
    expect(pages.map((page) => page.used)).toEqual([95, 97, 97, 62]);
    expect(breaksOf(pages)).toEqual([7, 12, 17]);
  });

  it('a row that ends exactly at the foot of the page fits there', () => {
    expect(planTablePages(table(20, 10), 95, 100)[0].last).toBe(7);
    expect(planTablePages(table(20, 10), 94.984375, 100)[0].last).toBe(6);
  });

  it('the last row stays with the totals row: when the totals do not fit, the table breaks before the last row', () => {
    // 6 rows fit page 1 with carried rows (75 of 80) and all 7 alone (70), but not 7 with the totals (80 + 10 > 85)
    const pages = planTablePages(table(7, 10, { totals: 16 }), 85, 100);
    expect(pages.map(({ first, last }) => [first, last])).toEqual([[0, 5], [6, 6]]);
    expect(planTablePages(table(7, 10, { totals: 15 }), 85, 100).map(({ first, last }) => [first, last])).toEqual([[0, 6]]);
  });

  it('rows kept together (orphans, widows) are not broken apart', () => {
    const breakable = Array.from({ length: 20 }, (_, i) => !(i >= 5 && i < 9));
    const pages = planTablePages(table(20, 10, { breakable }), 100, 100);
    expect(pages[0]).toMatchObject({ first: 0, last: 4 });
  });

  it('a page where not one row fits with its carried rows gets that row, and says it does not fit', () => {
    const pages = planTablePages(table(10, 10, { carried: Array.from({ length: 10 }, () => 95) }), 100, 100);
    expect(pages[0]).toMatchObject({ first: 0, last: 0, fits: false });
  });

  it('breaks already confirmed are kept, the rest is planned with the room given', () => {
    // later pages: 70 - 20 - 12 = 38 → 2 rows + 15 carried = 35
    const pages = planTablePages(table(20, 10), 100, 70, [3]);
    expect(pages.map(({ first, last }) => [first, last])).toEqual([[0, 3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13], [14, 15], [16, 17], [18, 19]]);
  });
});
