import type { MeasuredTable } from '../src/chromium/table-break-plan';

/**
 * Table 0 as the measure reports it: `n` breakable rows of `height` px from `top`, every break's carried and
 * brought-forward rows `carried` and `brought` px high, a header of `head` and a totals row of `totals` px.
 */
export function evenTable(n: number, height: number, sizes: { top?: number; carried: number; brought: number; head: number; totals: number }): MeasuredTable {
  const rowTops = Array.from({ length: n }, (_, i) => (sizes.top ?? 0) + i * height);
  return {
    index: 0,
    rowTops,
    rowBottoms: rowTops.map((top) => top + height),
    carried: rowTops.map(() => sizes.carried),
    brought: rowTops.map(() => sizes.brought),
    breakable: rowTops.map(() => true),
    head: sizes.head,
    totals: sizes.totals,
  };
}
