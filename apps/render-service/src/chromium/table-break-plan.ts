/**
 * Where a page-aware table breaks, worked out from the heights of its rows (docs/decisions/0029-page-aware-tables-in-two-prints.md).
 * Pure arithmetic on what page-aware-tables.ts measures in the page; Chromium's own rules for a table it fragments:
 * rows are not split (`tr{break-inside:avoid}`), the header repeats on every page, the totals row stays with the
 * last row (`break-before:avoid`), rows kept together (orphans/widows, `tbody.kr`) are not broken apart.
 */

/** One page-aware table as laid out for print (CSS pixels, break rows hidden unless said otherwise). */
export type MeasuredTable = {
  /** The table's index in the document (`data-r="<table>:<row>"`). */
  index: number;
  /** Top and bottom of every row, in document order. */
  rowTops: number[];
  rowBottoms: number[];
  /** The height of the rows shown at the foot of a page that breaks after row i (carried, "continued"); 0 for none. */
  carried: number[];
  /** The height of the rows shown at the head of the page after a break after row i (continued, brought forward). */
  brought: number[];
  /** Whether the table may break after row i (false when rows i and i + 1 are kept together). */
  breakable: boolean[];
  /** The header, repeated at the top of every page the table continues on; 0 without one. */
  head: number;
  /** The totals row, kept on the page of the last row; 0 without one. */
  totals: number;
};

/** One page of a table: its first and last row, and whether its rows and carried rows fit the page as planned. */
export type PlannedPage = { first: number; last: number; fits: boolean; used: number };

/**
 * The pages of a table: each page takes as many rows as fit with the rows shown at its foot, or, on the last page,
 * with the totals row. `firstSpace` is the room from the first row's top to the foot of the page it starts on,
 * `pageSpace` the height of a page's content area; `fixed` are breaks already confirmed by a print (rows after
 * which the table breaks), kept as they are. A page where not even one row fits with its carried rows gets that one
 * row (Chromium then moves the carried rows to a page of their own, as it would without planning); `fits` says so.
 */
export function planTablePages(table: MeasuredTable, firstSpace: number, pageSpace: number, fixed: number[] = []): PlannedPage[] {
  const n = table.rowTops.length;
  const pages: PlannedPage[] = [];
  let start = 0;
  let space = firstSpace;
  const roomAbove = (breakAfter: number): number => table.head + table.brought[breakAfter];
  for (const breakAfter of fixed) {
    const rows = table.rowBottoms[breakAfter] - table.rowTops[start];
    const used = (pages.length === 0 ? 0 : pageSpace - space) + rows + table.carried[breakAfter];
    pages.push({ first: start, last: breakAfter, fits: true, used });
    start = breakAfter + 1;
    space = pageSpace - roomAbove(breakAfter);
  }
  while (start < n) {
    let last = -1;
    let used = 0;
    const above = pages.length === 0 ? 0 : pageSpace - space;
    for (let row = start; row < n; row++) {
      const rows = table.rowBottoms[row] - table.rowTops[start];
      if (rows > space) break;
      const below = row === n - 1 ? table.totals : table.breakable[row] ? table.carried[row] : Number.POSITIVE_INFINITY;
      if (rows + below <= space) {
        last = row;
        used = above + rows + below;
      }
    }
    const fits = last >= 0;
    if (!fits) {
      last = start;
      used = above + table.rowBottoms[start] - table.rowTops[start] + (start === n - 1 ? table.totals : table.carried[start]);
    }
    pages.push({ first: start, last, fits, used });
    if (last === n - 1) break;
    start = last + 1;
    space = pageSpace - roomAbove(last);
  }
  return pages;
}

/** The rows after which a planned table breaks. */
export function breaksOf(pages: PlannedPage[]): number[] {
  return pages.slice(0, -1).map((page) => page.last);
}
