import { evenTable } from '../../test/measured-table';
import { misplacedInBatch, type TablePlan } from './page-aware-tables';
import { planTablePages } from './table-break-plan';

/**
 * Issue 32 item 7, page-aware tables in a batch (decision 0015): the batch's print confirms each document's planned
 * breaks, its links' pages counted from the document's own first page; a document whose rows landed elsewhere is named.
 */
describe('misplacedInBatch', () => {
  // 120 rows of 20 px, 1,000 px pages: 3 pages by the plan, from the top of each document's first page
  const table = (index: number, document: number): { table: ReturnType<typeof evenTable> & { document: number }; plan: TablePlan } => {
    const measured = { ...evenTable(120, 20, { carried: 30, brought: 25, head: 22, totals: 20 }), index, document };
    return { table: measured, plan: { page: 1, firstSpace: 1000, pageSpace: 1000, pages: planTablePages(measured, 1000, 1000) } };
  };
  /** The links of the print where every page of `placed` landed as planned, its document starting on `firstPage`. */
  const linksAsPlanned = ({ table: t, plan }: ReturnType<typeof table>, firstPage: number): { key: string; page: number }[] =>
    plan.pages.flatMap((page, p) => [
      { key: `r:${t.index}:${page.first}`, page: firstPage + p },
      { key: `r:${t.index}:${page.last}`, page: firstPage + p },
      ...(p < plan.pages.length - 1 ? [{ key: `c:${t.index}:${page.last}`, page: firstPage + p }] : []),
    ]);

  it('names none when every document\'s rows are on its own pages as planned, wherever the document starts in the batch', () => {
    const placed = [table(0, 0), table(1, 1), table(2, 2)];
    expect(placed[0].plan.pages).toHaveLength(3);
    // documents on pages 1–3, 4–6 and 7–9 (and one past the end)
    const links = [...linksAsPlanned(placed[0], 1), ...linksAsPlanned(placed[1], 4), ...linksAsPlanned(placed[2], 7)];
    expect(misplacedInBatch(placed, links, [1, 4, 7, 10])).toEqual([]);
  });

  it('names the document whose page overflowed: its last row on the next page', () => {
    const placed = [table(0, 0), table(1, 1)];
    const links = [...linksAsPlanned(placed[0], 1), ...linksAsPlanned(placed[1], 4)].map((link) =>
      link.key === `r:1:${placed[1].plan.pages[0].last}` || link.key === `c:1:${placed[1].plan.pages[0].last}` ? { ...link, page: link.page + 1 } : link,
    );
    expect(misplacedInBatch(placed, links, [1, 4, 7])).toEqual([1]);
  });

  it('names a document whose rows are not in the print at all', () => {
    const placed = [table(0, 0), table(1, 1)];
    expect(misplacedInBatch(placed, linksAsPlanned(placed[0], 1), [1, 4, 7])).toEqual([1]);
  });
});
