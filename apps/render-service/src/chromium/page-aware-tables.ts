import type { CDPSession } from 'puppeteer-core';
import { PDFDocument } from '@cantoo/pdf-lib';
import { counter } from '@docrender/observability';
import { BREAK_ROWS_CLASS, type BreakRowsData, expandBreakRows } from '@docrender/template-dsl';
import { evaluateInPage, loadEveryFont, valueInPage } from './in-page';
import { markerLinks, printedMarkerLinks } from './marker-links';
import { type PageBox, PrintLayout } from './print-layout';
import { breaksOf, type MeasuredTable, planTablePages, type PlannedPage } from './table-break-plan';

/** Prints the loaded document as it stands (untagged and without bands unless it is the real print) and returns the PDF. */
export type MeasuringPrint = () => Promise<Buffer>;

/** The host of the links that mark rows for the confirming print (taken out of the printed PDF). */
export const ROW_MARKER_HOST = 'row.docrender.invalid';
/** Rounds of printing and correcting before giving up; a table whose rows Chromium lays out as measured needs one. */
const MAX_ROUNDS = 8;
/** Rounds of showing a plan whose break rows measured otherwise than planned before measuring all of them (showPlan). */
const MAX_MEASURING_ROUNDS = 4;
/**
 * Showings of one table's plan (showPlan) before the last one shown stands, measured as it is, for the confirming
 * print to check: on a page whose break rows measured otherwise at every showing the rounds would not end.
 */
const MAX_SHOWINGS = MAX_MEASURING_ROUNDS + 2;
const PLACING = 'placing the rows at table page breaks';

const measuringPrints = counter(
  'docrender_render_measuring_prints_total',
  'Prints of a document made only to measure it (page-aware tables, placed elements), before the printed PDF.',
);

/** Counts measuring prints (the metric docrender_render_measuring_prints_total). */
export function countMeasuringPrints(prints: number): void {
  if (prints > 0) measuringPrints.inc(prints);
}

export type TableBreaksPlaced = {
  /** How many times the document was printed only to place the breaks. */
  measuringPrints: number;
  /**
   * The last print: laid out as the real print will be (its markers take no room), so it counts its pages. With
   * `printIsReal`, it is the real print, its marker links taken out.
   */
  printed: Buffer;
};

export type PlacingOptions = {
  /**
   * `measure` is the real print (bands included, tagged when the document is: the marker links are out of the
   * accessibility tree, so they enter no structure tree): the print that confirms the breaks is the document's PDF,
   * its marker links taken out, and only the prints before it count as measuring prints.
   */
  printIsReal?: boolean;
  /**
   * With `printIsReal`: the print made while a table is still to be found (it starts below content that breaks over
   * pages, where no forced page break tells where): a measuring print, untagged and without bands, where the real
   * print would cost more. The real print by default.
   */
  findingPrint?: MeasuringPrint;
  /**
   * An in-page expression run once the document is laid out for print, before the tables are measured (page
   * references' placeholders: SHOW_PLACEHOLDER_PAGES), so that one layout serves both.
   */
  beforeMeasuring?: string;
};

/** What the page tells of the page box and its page-aware tables (measureTables, run in the page). */
type Measured = {
  /** The top margin and the content area's height, CSS pixels. */
  contentTop: number;
  contentHeight: number;
  tables: (MeasuredTable & {
    /**
     * Where the first row starts below the top of the content area of page 1, when the layout shows it is on page 1;
     * in a batch, of its document's first page.
     */
    startOnFirstPage: number | null;
    /**
     * Alone, for a table not on page 1: where its first row starts below the top of the page that the last forced
     * page break before it opens, when the layout shows the row on that page (startBelowForcedBreak); else null.
     */
    startBelowBreak: number | null;
    /** In a batch, the document the table is in (its block's index among the body's children); else 0. */
    document: number;
    /** How far below a row's top its marker link is. */
    markerOffset: number;
  })[];
};

/** A table's planned pages, and where it starts: the page and the room left there under its first row's top. */
export type TablePlan = { page: number; firstSpace: number; pageSpace: number; pages: PlannedPage[] };

/**
 * Tables with lines at page breaks (the DSL's `pageBreaks`: "continued" lines, carried and brought-forward subtotals):
 * the compiled HTML holds, after each such table, the rows that would follow each of its rows at a page break, as
 * data (BreakRowsData). The table is laid out once for print in the page (print media, the page's content width) and
 * every row, header and totals row measured, and the break rows of its first row; the breaks are then placed by
 * arithmetic (planTablePages) — each page as many rows as fit with the carried rows at its foot and the header and
 * brought-forward rows at its head — and made explicit: the carried rows put after the last row of a page, the
 * brought-forward rows before the next one with a forced page break, and measured there (showPlan). One print with
 * a link at the first and last row of every page and after its carried rows (a PDF link annotation knows its page)
 * confirms the plan. A table found elsewhere than planned is corrected from there on: the page that overflowed tells
 * that a page holds less than its arithmetic said, the rest of the table is planned again with that, and printed
 * again to confirm. A table that starts below content that itself breaks over pages starts on the page its last
 * forced page break opens, where the layout shows it, when no other page-aware table lies between and it is less than
 * a page below that break: it is planned from there, and the print that confirms the plan tells the page's number (a
 * print that finds it elsewhere finds it). Otherwise it is found by a print first (`findingPrint`). The links are
 * removed before the real print. Costs one measuring print for a document whose page-aware tables each start on page
 * 1 or under a forced page break, one more for each table found by printing and for each that does not print as
 * planned (docs/decisions/0029); one fewer when the confirming print is the real one (`printIsReal`: its links are
 * then taken out of the PDF). Measures in `layout`, the caller's (PrintLayout), and leaves it entered: the caller
 * restores it after the real print.
 */
export async function placeTableBreakRows(devTools: CDPSession, measure: MeasuringPrint, layout: PrintLayout, options: PlacingOptions = {}): Promise<TableBreaksPlaced> {
  const { printIsReal = false, findingPrint = measure } = options;
  // every face the document declares is loaded before measuring (the print loads them too)
  await loadEveryFont(devTools);
  await evaluate(devTools, `(${clearBreaks.toString()})()`);
  const box = await layout.box();
  await layout.enter();
  if (options.beforeMeasuring !== undefined) await evaluate(devTools, options.beforeMeasuring);
  const { contentTop, contentHeight, tables } = await evaluateValue<Measured>(
    devTools,
    `(${measureTables.toString()})(${IN_PAGE_BREAK_ROWS}, ${JSON.stringify(ROW_MARKER_HOST)}, ${JSON.stringify(box)}, false)`,
  );
  // the rows whose break rows were measured, per table: the first row's, in the layout (every row taken as tall)
  const breaksMeasured = tables.map((table) => new Set<number>(table.rowTops.length > 1 ? [0] : []));
  // the room on a page, learnt lower when a page overflows
  const pageSpace = tables.map(() => contentHeight);
  const plan = (t: number, firstSpace: number, fixed: number[] = []): Promise<PlannedPage[]> =>
    showPlan(devTools, layout, tables[t], breaksMeasured[t], firstSpace, pageSpace[t], fixed);
  const plans: (AlonePlan | null)[] = tables.map(() => null);
  // where a table below a forced page break is taken to start before a print tells: where the layout shows its first
  // row on the page that break opens (the page's number read from the print that confirms it); the link's position
  // in a print is rounded to whole pixels, so the room is taken half a pixel short there too
  const guessed = (t: number): Found | null => {
    const below = tables[t].startBelowBreak;
    return below === null ? null : { page: null, firstSpace: contentHeight - below - 0.5 };
  };
  // where each table was found (page, room under its first row): table 0 from the layout when it starts on page 1
  const found: (Found | null)[] = tables.map((table, t) => (table.startOnFirstPage === null ? guessed(t) : { page: 1, firstSpace: contentHeight - table.startOnFirstPage }));
  let prints = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    for (let t = 0; t < tables.length; t++) {
      if (plans[t] !== null) continue;
      const at = found[t];
      if (at === null) break;
      plans[t] = { page: at.page, firstSpace: at.firstSpace, pageSpace: pageSpace[t], pages: await plan(t, at.firstSpace) };
    }
    // a print made while a table is still to be found only finds it: it cannot be the document's PDF
    const finding = plans.some((planned) => planned === null);
    await layout.beforePrint();
    const printed = await (finding ? findingPrint : measure)();
    prints++;
    const read = await printedMarkerLinks(printed, ROW_MARKER_HOST);
    const links = read.links;
    const pages = new Map<string, { page: number; top: number }>();
    for (const link of links) if (!pages.has(link.key)) pages.set(link.key, link);
    let settled = true;
    for (let t = 0; t < tables.length; t++) {
      const planned = plans[t];
      const table = tables[t];
      // its first row in this print (every table before it is placed and confirmed)
      const foundHere = (): { page: number; firstSpace: number } => {
        const first = pages.get(`r:${table.index}:0`);
        if (first === undefined) throw new Error(`placing the rows at table page breaks failed: table ${table.index} is not in the print`);
        const top = first.top - contentTop - table.markerOffset;
        // the link's position is rounded to whole pixels: the room is taken half a pixel short
        return { page: first.page, firstSpace: contentHeight - top - 0.5 };
      };
      if (planned === null) {
        // not found yet
        found[t] = foundHere();
        settled = false;
        break;
      }
      const guess = planned.page === null;
      const onPage: TablePlan = { ...planned, page: planned.page ?? foundHere().page };
      const misplaced = misplacedPages(table, onPage, pages);
      if (misplaced.length === 0) {
        plans[t] = onPage;
        continue;
      }
      settled = false;
      if (guess) {
        // not where the layout showed it under its page break: found in this print (its first row is where the
        // content above it put it, whatever breaks were shown below), planned again from there
        found[t] = foundHere();
        plans[t] = null;
        if (t + 1 < tables.length) await forgetLaterTables(devTools, tables, plans, found, guessed, t + 1);
        break;
      }
      const wrong = misplaced[0].page;
      if (wrong === 0 && pages.get(`r:${table.index}:0`)?.page !== onPage.page) {
        // the table starts elsewhere (content above it moved): found again from this print
        found[t] = null;
        plans[t] = null;
        await showBreaks(devTools, table, null);
        if (t + 1 < tables.length) await forgetLaterTables(devTools, tables, plans, found, guessed, t + 1);
        break;
      }
      // a page that overflowed held less than planned: the room of a page is taken below what it held, the pages
      // before the first wrong one stay, and the rest of the table is planned again
      let firstSpace = planned.firstSpace;
      for (const { page, overflowed } of misplaced) {
        if (!overflowed) continue;
        const held = planned.pages[page].used - 1 / 64;
        if (page === 0) firstSpace = Math.min(firstSpace, held);
        else pageSpace[t] = Math.min(pageSpace[t], held);
      }
      const pagesAgain = await plan(t, firstSpace, planned.pages.slice(0, wrong).map((page) => page.last));
      plans[t] = { page: onPage.page, firstSpace, pageSpace: pageSpace[t], pages: pagesAgain };
      if (t + 1 < tables.length) await forgetLaterTables(devTools, tables, plans, found, guessed, t + 1);
      break;
    }
    if (settled) {
      if (!printIsReal) {
        await evaluate(devTools, `(${removeMarkers.toString()})()`);
        return { measuringPrints: prints, printed };
      }
      // the document is printed no more (the next one replaces it): its links stay in the page
      return { measuringPrints: prints - 1, printed: await read.without() };
    }
  }
  throw new Error(`placing the rows at table page breaks failed: the breaks did not settle in ${MAX_ROUNDS} prints`);
}

/** Page-aware tables of a batch placed by placeBatchTableBreakRows, for the batch's print to confirm. */
export type BatchTablesPlaced = {
  /**
   * The documents (their indexes in the batch) some of whose table rows are not on the pages planned in `printed`,
   * the batch's print; `firstPages[i]` is document i's first page in it.
   */
  misplacedDocuments(printed: PDFDocument, firstPages: number[]): number[];
  /** The page as it was: its own media and its window in view (after the print). */
  restore(): Promise<void>;
};

/**
 * The page-aware tables of documents printed in one print (batch printing, decision 0015): the batch's document holds
 * each document in a block of the body that starts a page, their tables numbered apart. Each table is measured and
 * its breaks placed by arithmetic and shown as for a document printed alone (placeTableBreakRows), counting its pages
 * from its document's first page; the batch's one print confirms them (`misplacedDocuments`), so the batch needs no
 * measuring print. Alone, a plan that the print does not confirm is corrected by printing again; a batch with such a
 * document is refused instead, and each of its documents printed alone. Returns why, instead, when a table cannot be
 * placed before the print: it does not start on its document's first page, or it is not its document's first
 * page-aware table (alone, both are found by a print first). Leaves the print layout entered: call `restore` after
 * the print.
 */
export async function placeBatchTableBreakRows(devTools: CDPSession): Promise<BatchTablesPlaced | { notPlaced: string }> {
  const layout = new PrintLayout(devTools);
  const box = await layout.box();
  try {
    await layout.enter();
    const { contentHeight, tables } = await evaluateValue<Measured>(
      devTools,
      `(${measureTables.toString()})(${IN_PAGE_BREAK_ROWS}, ${JSON.stringify(ROW_MARKER_HOST)}, ${JSON.stringify(box)}, true)`,
    );
    const plans: TablePlan[] = [];
    for (const table of tables) {
      if (table.startOnFirstPage === null) {
        await layout.restore();
        return { notPlaced: `document ${table.document + 1} of the batch has a table with page breaks that is not its first or does not start on its first page` };
      }
      const firstSpace = contentHeight - table.startOnFirstPage;
      const measured = new Set<number>(table.rowTops.length > 1 ? [0] : []);
      plans.push({ page: 1, firstSpace, pageSpace: contentHeight, pages: await showPlan(devTools, layout, table, measured, firstSpace, contentHeight, []) });
    }
    await layout.beforePrint();
    return {
      misplacedDocuments: (printed, firstPages) => misplacedInBatch(tables.map((table, t) => ({ table, plan: plans[t] })), markerLinks(printed, ROW_MARKER_HOST), firstPages),
      restore: () => layout.restore(),
    };
  } catch (error) {
    await layout.restore();
    throw error;
  }
}

/**
 * The documents of a batch (their indexes) some of whose tables' rows are not on the pages planned, from the marker
 * links of the batch's print (`key` `r:<table>:<row>` or `c:<table>:<row>`, on batch page `page`): each link's page is
 * counted from the first page of the table's document (`firstPages[document]`), as its plan counts them.
 */
export function misplacedInBatch(placed: { table: MeasuredTable & { document: number }; plan: TablePlan }[], links: { key: string; page: number }[], firstPages: number[]): number[] {
  const documentOf = new Map(placed.map(({ table }) => [table.index, table.document]));
  const pages = new Map<string, { page: number }>();
  for (const link of links) {
    const document = documentOf.get(Number(link.key.split(':')[1]));
    if (document !== undefined && !pages.has(link.key)) pages.set(link.key, { page: link.page - firstPages[document] + 1 });
  }
  const misplaced = new Set<number>();
  for (const { table, plan } of placed) if (misplacedPages(table, plan, pages).length > 0) misplaced.add(table.document);
  return [...misplaced].sort((a, b) => a - b);
}

/**
 * Where a table was found: the page its first row is on (null: taken to start under a forced page break, its page
 * to be read from the print) and the room from that row's top to the foot of the page.
 */
type Found = { page: number | null; firstSpace: number };

/** A table's plan alone: its page null while it is taken to start under a forced page break (Found). */
type AlonePlan = Omit<TablePlan, 'page'> & { page: number | null };

/**
 * Later tables move when an earlier one changes: their breaks are taken out and they are found again, or taken to
 * start under their forced page break again (`guessed`: no page-aware table lies between that break and them).
 */
async function forgetLaterTables(
  devTools: CDPSession,
  tables: Measured['tables'],
  plans: (AlonePlan | null)[],
  found: (Found | null)[],
  guessed: (t: number) => Found | null,
  from: number,
): Promise<void> {
  for (let t = from; t < tables.length; t++) {
    if (plans[t] !== null) await showBreaks(devTools, tables[t], null);
    plans[t] = null;
    found[t] = guessed(t);
  }
}

/**
 * The planned pages whose rows are not where planned in the print, in order: a page is right when its first and last
 * row and its carried rows are on one page, the page after the one before (after its carried rows, when those did
 * not fit and Chromium put them on a page of their own). `overflowed`: the page's own rows or carried rows went onto
 * a further page, so it held less than planned.
 */
function misplacedPages(table: MeasuredTable, plan: TablePlan, pages: Map<string, { page: number }>): { page: number; overflowed: boolean }[] {
  const misplaced: { page: number; overflowed: boolean }[] = [];
  let expected = plan.page;
  for (let p = 0; p < plan.pages.length; p++) {
    const { first, last, fits } = plan.pages[p];
    const at = pages.get(`r:${table.index}:${first}`)?.page;
    const end = pages.get(`r:${table.index}:${last}`)?.page;
    const carried = table.carried[last] > 0 && p < plan.pages.length - 1 ? pages.get(`c:${table.index}:${last}`)?.page : end;
    if (at === undefined || end === undefined || carried === undefined) {
      misplaced.push({ page: p, overflowed: false });
      break;
    }
    if (fits ? at !== expected || end !== at || carried !== at : at !== expected || end !== at) {
      misplaced.push({ page: p, overflowed: fits && (end !== at || carried !== at) });
    }
    expected = carried + 1;
  }
  return misplaced;
}

/**
 * The in-page helpers the page functions below are handed (as source text): insertBreakRows, breakRowsCopy and
 * breakRowHeights, expandBreakRows and the class of the template elements holding the break rows.
 */
const IN_PAGE_BREAK_ROWS =
  `{ insert: ${insertBreakRows.toString()}, copy: ${breakRowsCopy.toString()}, heights: ${breakRowHeights.toString()}, ` +
  `expand: ${expandBreakRows.toString()}, dataClass: ${JSON.stringify(BREAK_ROWS_CLASS)} }`;

/**
 * A table's pages (planTablePages), shown (showBreaks): the break rows put in at the plan's breaks and measured there,
 * in the print layout. Rows whose break rows were not measured yet are taken as tall as the tallest measured (the
 * first row's, measured with the table). When the break rows at a break measure otherwise, the table is planned again
 * with those heights, and shown again if its breaks moved, until the break rows at every break shown are measured.
 * Break rows of one table usually measure alike, so the first plan usually stands; after MAX_MEASURING_ROUNDS every
 * row's break rows are measured (measureBreakRows). A row's heights change only when it is shown, once measured
 * where it is (the copy and the table lay its rows out alike), so the rounds end; after MAX_SHOWINGS the plan shown
 * stands as it is in any case, and the confirming print checks it. Measuring them where they are shown
 * lays the document out as the print then finds it: traced at 1,000 rows, Chromium's renderer does about as much
 * work for the whole document as for the same table without `pageBreaks`.
 */
async function showPlan(
  devTools: CDPSession,
  layout: PrintLayout,
  table: MeasuredTable,
  measured: Set<number>,
  firstSpace: number,
  pageSpace: number,
  fixed: number[],
): Promise<PlannedPage[]> {
  const last = table.rowTops.length - 1;
  await layout.enter();
  let pages = planTablePages(table, firstSpace, pageSpace, fixed);
  let shown = breaksOf(pages);
  let heights = await showBreaks(devTools, table, pages);
  for (let round = 1; ; round++) {
    let changed = false;
    shown.forEach((row, k) => {
      measured.add(row);
      if (heights[k][0] === table.carried[row] && heights[k][1] === table.brought[row]) return;
      [table.carried[row], table.brought[row]] = heights[k];
      changed = true;
    });
    if (!changed || round >= MAX_SHOWINGS) return pages;
    if (round >= MAX_MEASURING_ROUNDS) {
      const rows = table.rowTops.map((_, row) => row).filter((row) => row < last && !measured.has(row));
      const all = await evaluateValue<[number, number][]>(devTools, `(${measureBreakRows.toString()})(${IN_PAGE_BREAK_ROWS}, ${table.index}, ${JSON.stringify(rows)})`);
      rows.forEach((row, k) => {
        [table.carried[row], table.brought[row]] = all[k];
        measured.add(row);
      });
    }
    const tallest = [...measured].reduce(([carried, brought], row) => [Math.max(carried, table.carried[row]), Math.max(brought, table.brought[row])], [0, 0]);
    for (let row = 0; row < last; row++) if (!measured.has(row)) [table.carried[row], table.brought[row]] = tallest;
    pages = planTablePages(table, firstSpace, pageSpace, fixed);
    const breaks = breaksOf(pages);
    // the same breaks: the rows shown stand, measured
    if (breaks.length === shown.length && breaks.every((row, k) => row === shown[k])) return pages;
    shown = breaks;
    heights = await showBreaks(devTools, table, pages);
  }
}

/**
 * Shows the break rows of a plan's pages (none for null), puts the links the confirming print reads, and returns
 * the heights of the break rows at each break ([carried, brought], in the order of breaksOf).
 */
async function showBreaks(devTools: CDPSession, table: MeasuredTable, pages: PlannedPage[] | null): Promise<[number, number][]> {
  const breaks = pages === null ? [] : breaksOf(pages);
  const rows = pages === null ? [0] : [...new Set(pages.flatMap((page) => [page.first, page.last]))];
  return evaluateValue<[number, number][]>(
    devTools,
    `(${applyBreaks.toString()})(${IN_PAGE_BREAK_ROWS}, ${JSON.stringify(ROW_MARKER_HOST)}, ${table.index}, ${JSON.stringify(breaks)}, ${JSON.stringify(rows)})`,
  );
}

function evaluate(devTools: CDPSession, expression: string): Promise<void> {
  return evaluateInPage(devTools, expression, PLACING);
}

function evaluateValue<T>(devTools: CDPSession, expression: string): Promise<T> {
  return valueInPage<T>(devTools, expression, PLACING);
}

// The functions below run in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/** The in-page helpers (IN_PAGE_BREAK_ROWS). */
type BreakRowsInPage = {
  insert: typeof insertBreakRows;
  copy: typeof breakRowsCopy;
  heights: typeof breakRowHeights;
  expand: typeof expandBreakRows;
  dataClass: string;
};

/** Runs in the page: every break row of every page-aware table taken out again and the marker links too (a table placed anew). */
function clearBreaks(): void {
  for (const row of Array.from(document.querySelectorAll('tr[data-x]'))) row.remove();
  for (const link of Array.from(document.querySelectorAll('a.docrender-marker'))) link.remove();
}

/**
 * Runs in the page: the break rows of table `table` (from its `template.<dataClass>`, expandBreakRows) put after each
 * of the rows `after`, shown (class `xon`). Returns them by row.
 */
function insertBreakRows(expand: typeof expandBreakRows, dataClass: string, table: number, after: number[]): Map<number, HTMLTableRowElement[]> {
  const placed = new Map<number, HTMLTableRowElement[]>();
  if (after.length === 0) return placed;
  const holder = document.querySelector(`template.${dataClass}[data-t="${table}"]`);
  const data = JSON.parse((holder instanceof HTMLTemplateElement ? holder.content.textContent : null) ?? '{"s":[],"h":[],"r":[]}') as BreakRowsData;
  const wanted = new Set(after);
  const prefix = `${table}:`;
  for (const row of Array.from(document.querySelectorAll<HTMLTableRowElement>(`tr[data-r^="${prefix}"]`))) {
    const index = Number((row.getAttribute('data-r') ?? '').slice(prefix.length));
    if (!wanted.has(index)) continue;
    const rows: HTMLTableRowElement[] = [];
    row.insertAdjacentHTML('afterend', expand(data, table, index));
    for (let next = row.nextElementSibling; next instanceof HTMLTableRowElement && next.getAttribute('data-x') === `${prefix}${index}`; next = next.nextElementSibling) {
      next.classList.add('xon');
      rows.push(next);
    }
    placed.set(index, rows);
  }
  return placed;
}

/**
 * Runs in the page, laid out for print (PrintLayout): measures every page-aware table: its rows, its header and
 * totals row, and the break rows of its first row (in a copy of the table: breakRowsCopy; the others are measured
 * where a plan shows them: applyBreaks). Puts a link in every table's first row (how far below the row's top it is,
 * is measured too). The copies and links go in before anything is measured, so the document is laid out once. Leaves
 * the document as it was, but for those links.
 */
function measureTables(breakRows: BreakRowsInPage, host: string, box: PageBox, batch: boolean): Measured {
  const forced = new Set(['page', 'always', 'left', 'right', 'recto', 'verso']);
  const { top, bottom } = box;
  const contentHeight = box.height - top - bottom;

  const byTable = new Map<number, HTMLTableRowElement[]>();
  for (const row of Array.from(document.querySelectorAll<HTMLTableRowElement>('tr[data-r]'))) {
    const table = Number((row.getAttribute('data-r') ?? '').split(':')[0]);
    const rows = byTable.get(table) ?? [];
    rows.push(row);
    byTable.set(table, rows);
  }
  const copies = new Map<number, ReturnType<typeof breakRowsCopy>>();
  for (const [index, rows] of byTable) if (rows.length > 1) copies.set(index, breakRows.copy(breakRows, index, rows, [0]));
  const links = new Map<number, HTMLAnchorElement>();
  for (const [index, rows] of byTable) {
    const link = document.createElement('a');
    link.className = 'docrender-marker';
    // out of the accessibility tree: a tagged print writes its link annotation but no Link structure element
    link.setAttribute('aria-hidden', 'true');
    link.href = `https://${host}/r:${index}:0`;
    link.style.cssText = 'display:block;height:1px;margin-bottom:-1px';
    rows[0].firstElementChild?.insertBefore(link, rows[0].firstElementChild.firstChild);
    links.set(index, link);
  }
  // the elements that open a page with a forced break (before them, or after the element before them), in document
  // order: found through the style rules and style attributes that force one, so that only those are looked at
  const starters: Element[] = [];
  if (!batch) {
    const selectors = ['[style*="break-"]'];
    const collect = (rules: CSSRuleList): void => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule && (forced.has(rule.style.breakBefore) || forced.has(rule.style.breakAfter))) selectors.push(rule.selectorText);
        else if (rule instanceof CSSGroupingRule) collect(rule.cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) collect(sheet.cssRules);
    for (const element of Array.from(document.body.querySelectorAll(selectors.join(',')))) {
      const style = getComputedStyle(element);
      if (forced.has(style.breakBefore)) starters.push(element);
      if (!forced.has(style.breakAfter)) continue;
      let after: Element | null = element;
      while (after !== null && after.nextElementSibling === null) after = after.parentElement;
      if (after?.nextElementSibling) starters.push(after.nextElementSibling);
    }
    starters.sort((a, b) => (a === b ? 0 : a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }
  const firstRows = [...byTable.values()].map((rows) => rows[0]);
  const before = (a: Node, b: Node): boolean => a !== b && (a.contains(b) || (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
  /**
   * Where a table's first row `row` (its box `box`) starts below the top of the page the last forced break before it
   * opens: that break's element starts the page, its top margin kept (a forced break keeps the margins after it).
   * Null when there is no such break, another page-aware table lies between (its breaks move what follows), or the
   * row does not end within a page's content height of it (the content between breaks a page).
   */
  const startBelowForcedBreak = (row: HTMLTableRowElement, box: DOMRect): number | null => {
    let starter: Element | null = null;
    for (const element of starters) if (before(element, row) || element === row) starter = element;
    if (starter === null || firstRows.some((other) => other !== row && before(starter, other) && before(other, row))) return null;
    const pageTop = starter.getBoundingClientRect().top - (Number.parseFloat(getComputedStyle(starter).marginTop) || 0);
    const below = box.top - pageTop;
    return below >= 0 && box.bottom - pageTop <= contentHeight ? below : null;
  };
  const origin = document.documentElement.getBoundingClientRect().top;
  const tables: Measured['tables'] = [];
  // in a batch every document is a block of the body that starts a page: a table's first page is its document's
  const documents = batch ? Array.from(document.body.children) : [document.body];
  const seen = new Set<Element>();
  for (const [index, rows] of byTable) {
    const element = rows[0].closest('table') as HTMLTableElement;
    const link = links.get(index) as HTMLAnchorElement;
    const boxes = rows.map((row) => row.getBoundingClientRect());
    const rowTops = boxes.map((box) => box.top - origin);
    const container = documents.find((block) => block.contains(element)) ?? document.body;
    const top = container === document.body ? origin : container.getBoundingClientRect().top;
    let startOnFirstPage: number | null = null;
    if (!seen.has(container) && boxes[0].bottom - top <= contentHeight) {
      // on page 1 when nothing above it forces a page break (its own bottom is above the foot of page 1)
      let breaksAbove = false;
      for (const other of Array.from(container.querySelectorAll('*'))) {
        if (other === element) break;
        const style = getComputedStyle(other);
        if (!element.contains(other) && (forced.has(style.breakBefore) || forced.has(style.breakAfter))) breaksAbove = true;
      }
      if (!breaksAbove) startOnFirstPage = boxes[0].top - top;
    }
    seen.add(container);
    const startBelowBreak = batch || startOnFirstPage !== null ? null : startBelowForcedBreak(rows[0], boxes[0]);
    // the first row's break rows, taken for every row's until measured
    const [carried, brought] = copies.get(index)?.heights()[0] ?? [0, 0];
    tables.push({
      index,
      rowTops,
      rowBottoms: boxes.map((box) => box.bottom - origin),
      carried: rows.map((_, row) => (row < rows.length - 1 ? carried : 0)),
      brought: rows.map((_, row) => (row < rows.length - 1 ? brought : 0)),
      breakable: rows.map((row, i) => i + 1 >= rows.length || row.parentElement !== rows[i + 1].parentElement || !row.parentElement?.classList.contains('kr')),
      head: element.tHead?.getBoundingClientRect().height ?? 0,
      totals: element.querySelector(':scope > tbody.tot')?.getBoundingClientRect().height ?? 0,
      startOnFirstPage,
      startBelowBreak,
      document: documents.indexOf(container),
      markerOffset: link.getBoundingClientRect().top - boxes[0].top,
    });
  }
  for (const copy of copies.values()) copy.remove();
  return { contentTop: top, contentHeight, tables };
}

/**
 * Runs in the page: a copy of table `table` beside it, out of the flow and hidden, holding the break rows that would
 * follow each of the rows `after` (`rows`: the table's rows by index), for measuring them without laying the table
 * out again: the table's own attributes and column widths (its colgroup and header), its width, and for each row the
 * row itself, its break rows (carried and brought-forward rows shown at once, which changes no row's height in a
 * `table-layout:fixed` table) and the row after it, so each break row has the neighbours whose borders it shares in
 * the print. `heights()` gives the copy the table's width and measures them (breakRowHeights), by row of `after`;
 * `remove()` takes the copy out.
 */
function breakRowsCopy(breakRows: BreakRowsInPage, table: number, rows: HTMLTableRowElement[], after: number[]): { heights(): [number, number][]; remove(): void } {
  const original = rows[0]?.closest('table');
  if (!original || after.length === 0) return { heights: () => after.map(() => [0, 0]), remove: () => undefined };
  const holder = document.querySelector(`template.${breakRows.dataClass}[data-t="${table}"]`);
  const data = JSON.parse((holder instanceof HTMLTemplateElement ? holder.content.textContent : null) ?? '{"s":[],"h":[],"r":[]}') as BreakRowsData;
  const copy = original.cloneNode(false) as HTMLTableElement;
  for (const part of Array.from(original.children)) if (part.tagName === 'COLGROUP' || part.tagName === 'THEAD') copy.appendChild(part.cloneNode(true));
  copy.style.position = 'absolute';
  copy.style.visibility = 'hidden';
  const copied = (row: HTMLTableRowElement | undefined): string => {
    if (row === undefined) return '';
    const plain = row.cloneNode(true) as HTMLTableRowElement;
    plain.removeAttribute('data-r');
    plain.removeAttribute('id');
    return plain.outerHTML;
  };
  const body = document.createElement('tbody');
  body.innerHTML = after.map((row) => copied(rows[row]) + breakRows.expand(data, table, row) + copied(rows[row + 1])).join('');
  copy.appendChild(body);
  const shown = new Map<string, Element[]>();
  for (const row of Array.from(body.querySelectorAll('tr[data-x]'))) {
    row.classList.add('xon');
    const key = row.getAttribute('data-x') ?? '';
    shown.set(key, [...(shown.get(key) ?? []), row]);
  }
  original.after(copy);
  return {
    heights: () => {
      // the table's width is read when measuring, so that building the copy lays nothing out
      copy.style.width = `${original.getBoundingClientRect().width}px`;
      return after.map((row) => breakRows.heights(shown.get(`${table}:${row}`) ?? []));
    },
    remove: () => copy.remove(),
  };
}

/** Runs in the page: the height of the carried rows and of the brought-forward rows among one break's rows `shown`. */
function breakRowHeights(shown: Element[]): [number, number] {
  const span = (cls: string): number => {
    const of = shown.filter((row) => row.classList.contains(cls));
    return of.length === 0 ? 0 : of[of.length - 1].getBoundingClientRect().bottom - of[0].getBoundingClientRect().top;
  };
  return [span('xc'), span('xb')];
}

/**
 * Runs in the page, laid out for print (PrintLayout): the heights of the rows that would follow each of the rows
 * `after` of table `table` at a break, [at the foot, at the head of the next page], measured in a copy of the table
 * (breakRowsCopy).
 */
function measureBreakRows(breakRows: BreakRowsInPage, table: number, after: number[]): [number, number][] {
  const prefix = `${table}:`;
  const rows: HTMLTableRowElement[] = [];
  for (const row of Array.from(document.querySelectorAll<HTMLTableRowElement>(`tr[data-r^="${prefix}"]`))) rows[Number((row.getAttribute('data-r') ?? '').slice(prefix.length))] = row;
  const copy = breakRows.copy(breakRows, table, rows, after);
  const heights = copy.heights();
  copy.remove();
  return heights;
}

/**
 * Runs in the page, laid out for print (PrintLayout): puts the rows at the page breaks after the rows `breaks` of
 * table `table` (only those; the table's from before are taken out): the first brought-forward row of each starts a
 * page. Links go at the top of the rows `rows` and of the last carried row of every break (the table's links from
 * before are taken out first). Returns the heights of each break's rows where they are (breakRowHeights), in the
 * order of `breaks`: measuring lays the table out as the print then finds it.
 */
function applyBreaks(breakRows: BreakRowsInPage, host: string, table: number, breaks: number[], rows: number[]): [number, number][] {
  const prefix = `${table}:`;
  for (const link of Array.from(document.querySelectorAll(`a.docrender-marker[data-t="${table}"]`))) link.remove();
  for (const row of Array.from(document.querySelectorAll(`tr[data-x^="${prefix}"]`))) row.remove();
  const mark = (row: Element | undefined, key: string): void => {
    const cell = row?.firstElementChild;
    if (!cell) return;
    const link = document.createElement('a');
    link.className = 'docrender-marker';
    link.setAttribute('aria-hidden', 'true');
    link.setAttribute('data-t', String(table));
    link.href = `https://${host}/${key}`;
    link.style.cssText = 'display:block;height:1px;margin-bottom:-1px';
    cell.insertBefore(link, cell.firstChild);
  };
  const placed = breakRows.insert(breakRows.expand, breakRows.dataClass, table, breaks);
  for (const [after, shown] of placed) {
    shown.find((row) => row.classList.contains('xb'))?.classList.add('xbrk');
    const carried = shown.filter((row) => row.classList.contains('xc'));
    mark(carried[carried.length - 1], `c:${prefix}${after}`);
  }
  if (rows.length > 0) {
    const wanted = new Set(rows.map((row) => `${prefix}${row}`));
    for (const row of Array.from(document.querySelectorAll(`tr[data-r^="${prefix}"]`))) {
      const key = row.getAttribute('data-r') ?? '';
      if (wanted.has(key) && key !== `${prefix}0`) mark(row, `r:${key}`);
    }
  }
  return breaks.map((after) => breakRows.heights(placed.get(after) ?? []));
}

function removeMarkers(): void {
  for (const link of Array.from(document.querySelectorAll('a.docrender-marker'))) link.remove();
}
