import type { CDPSession } from 'puppeteer-core';
import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { markerLinks } from './marker-links';
import { evenTable } from '../../test/measured-table';
import { type PlacingOptions, placeTableBreakRows } from './page-aware-tables';
import { PrintLayout } from './print-layout';

const PAGE_HEIGHT_PT = 842;
const CONTENT_TOP = 100;
const MARKER_OFFSET = 3;
const ROWS = 100;
const ROW = 20;
const CARRIED = 30;
const BROUGHT = 25;
const HEAD = 22;
const TOTALS = 20;
const START = 50;

/**
 * A fake page for placeTableBreakRows: it answers the measure with a table of 100 rows of 20 px on pages whose
 * content area measures 1,000 px (and the first row's break rows), keeps the breaks and links the placement asks
 * for and answers the heights of the break rows it shows, and "prints" by laying the table out on pages that really
 * hold `truePageSpace` px (Chromium's own rules: a row or carried block that does not fit goes to the next page under
 * the repeated header; a shown break forces a page with the brought-forward rows), writing a PDF with a link
 * annotation where each requested link lands. Its window is minimized and restored as the placement asks.
 */
class FakeLayout {
  breaks: number[] = [];
  rows: number[] = [0];
  prints = 0;
  window = 'normal';
  /** The window's state at each print. */
  windowAtPrints: string[] = [];
  /** How many showings there had been at each print. */
  showsAtPrints: number[] = [];

  /** How many times the placement showed break rows (and measured them where they are). */
  shows = 0;

  /**
   * `carriedOf(i)`: the height of the carried rows after row i (what measuring them in the page tells). `start`:
   * where the first row really prints (its page, px below the content top) and what the layout tells of it: its
   * place on page 1, or below the forced page break before it (null: the layout does not tell).
   */
  constructor(
    private readonly truePageSpace: number,
    private readonly carriedOf: (row: number) => number = () => CARRIED,
    private readonly start: { page: number; top: number; onFirstPage: number | null; belowBreak: number | null } = { page: 1, top: START, onFirstPage: START, belowBreak: null },
  ) {}

  devTools(): CDPSession {
    const send = async (method: string, params: { expression?: string; bounds?: { windowState: string } } = {}): Promise<unknown> => {
      if (method === 'Emulation.setEmulatedMedia') return {};
      if (method === 'Browser.getWindowForTarget') return { windowId: 1, bounds: { windowState: this.window } };
      if (method === 'Browser.setWindowBounds') {
        this.window = params.bounds?.windowState ?? this.window;
        return {};
      }
      const expression = params.expression ?? '';
      if (expression.includes('function pageBox')) return { result: { value: { height: 1200, top: CONTENT_TOP, bottom: 100, contentWidth: 700 } } };
      if (expression.startsWith('(function measureTables')) return { result: { value: this.measured() } };
      const measuring = /, (\[[^\]]*\])\)$/.exec(expression);
      if (expression.startsWith('(function measureBreakRows') && measuring) {
        return { result: { value: (JSON.parse(measuring[1]) as number[]).map((row) => [this.carriedOf(row), BROUGHT]) } };
      }
      const applied = /"[^"]*", (\d+), (\[[^\]]*\]), (\[[^\]]*\])\)$/.exec(expression);
      if (expression.includes('applyBreaks') && applied) {
        this.shows++;
        // a placement that never stops showing plans fails here rather than at the test's timeout
        if (this.shows > 1_000) throw new Error('runaway: the placement showed break rows 1,000 times');
        this.breaks = JSON.parse(applied[2]) as number[];
        this.rows = [0, ...(JSON.parse(applied[3]) as number[])];
        return { result: { value: this.breaks.map((row) => [this.carriedOf(row), BROUGHT]) } };
      }
      return { result: { value: undefined } };
    };
    return { send } as unknown as CDPSession;
  }

  private measured(): unknown {
    return {
      contentTop: CONTENT_TOP,
      contentHeight: 1000,
      tables: [
        {
          // the first row's break rows are measured with the table, and taken for every row's
          ...evenTable(ROWS, ROW, { top: START, carried: this.carriedOf(0), brought: BROUGHT, head: HEAD, totals: TOTALS }),
          startOnFirstPage: this.start.onFirstPage,
          startBelowBreak: this.start.belowBreak,
          markerOffset: MARKER_OFFSET,
        },
      ],
    };
  }

  /** Where every row and every shown carried block lands: page and top (px from the content top). */
  layout(): { rows: { page: number; top: number }[]; carried: Map<number, { page: number; top: number }> } {
    const rows: { page: number; top: number }[] = [];
    const carried = new Map<number, { page: number; top: number }>();
    let page = this.start.page;
    let y = this.start.top;
    const place = (height: number): { page: number; top: number } => {
      if (y + height > this.truePageSpace) {
        page++;
        y = HEAD;
      }
      const at = { page, top: y };
      y += height;
      return at;
    };
    for (let i = 0; i < ROWS; i++) {
      rows.push(place(ROW));
      if (this.breaks.includes(i)) {
        carried.set(i, place(this.carriedOf(i)));
        page++;
        y = HEAD + BROUGHT;
      }
    }
    place(TOTALS);
    return { rows, carried };
  }

  async print(): Promise<Buffer> {
    this.prints++;
    this.windowAtPrints.push(this.window);
    this.showsAtPrints.push(this.shows);
    const { rows, carried } = this.layout();
    const links = [
      ...this.rows.map((row) => ({ key: `r:0:${row}`, ...rows[row] })),
      ...[...carried].map(([row, at]) => ({ key: `c:0:${row}`, ...at })),
    ];
    const pdf = await PDFDocument.create();
    const pages = Math.max(...rows.map((r) => r.page), ...[...carried.values()].map((c) => c.page));
    for (let p = 1; p <= pages; p++) {
      const page = pdf.addPage([595, PAGE_HEIGHT_PT]);
      const annotations = links
        .filter((link) => link.page === p)
        .map((link) => {
          const top = PAGE_HEIGHT_PT - ((CONTENT_TOP + link.top + MARKER_OFFSET) * 72) / 96;
          return pdf.context.register(
            pdf.context.obj({
              Type: 'Annot',
              Subtype: 'Link',
              Rect: [0, top - 0.75, 0.75, top],
              A: { Type: 'Action', S: 'URI', URI: PDFString.of(`https://row.docrender.invalid/${link.key}`) },
            }),
          );
        });
      if (annotations.length > 0) page.node.set(PDFName.of('Annots'), pdf.context.obj(annotations));
    }
    return Buffer.from(await pdf.save());
  }
}

/** placeTableBreakRows on the fake page in a print layout of its own, given back after (as printPdfOnPage holds one). */
async function place(fake: FakeLayout, measure: () => Promise<Buffer>, options?: PlacingOptions): ReturnType<typeof placeTableBreakRows> {
  const devTools = fake.devTools();
  const layout = new PrintLayout(devTools);
  const placed = await placeTableBreakRows(devTools, measure, layout, options);
  await layout.restore();
  return placed;
}

describe('issue 32 item 1: page-aware table breaks confirmed by a print, corrected where a page held less', () => {
  it('a layout as measured is confirmed by one print, each page as full as its carried rows allow', async () => {
    const fake = new FakeLayout(1000);
    const placed = await place(fake, () => fake.print());
    expect(placed.measuringPrints).toBe(1);
    // page 1: 950 px from the first row: 46 rows + 30 = 950; later pages 1000 - 22 - 25 = 953: 46 rows + 30 = 950
    expect(fake.breaks).toEqual([45, 91]);
    expect(fake.shows).toBe(1);
    // printed hidden (no frames drawn), the window given back afterwards
    expect(fake.windowAtPrints).toEqual(['minimized']);
    expect(fake.window).toBe('normal');
  });

  it('pages that hold less than measured: the overflowing page and the rest are planned again, and the second print confirms', async () => {
    const fake = new FakeLayout(985);
    const placed = await place(fake, () => fake.print());
    expect(placed.measuringPrints).toBe(2);
    const { rows, carried } = fake.layout();
    // every carried block on the page of the row above it, every page after a break starting with the next row
    for (const after of fake.breaks) {
      expect({ after, carried: carried.get(after)?.page }).toEqual({ after, carried: rows[after].page });
      expect(rows[after + 1].page).toBe(rows[after].page + 1);
    }
    // the first print: page 1 (46 rows from 50 px, + 30 = 1,000) and page 2 (22 + 25 + 46 rows + 30 = 997) overflow
    // 985 px; both are planned with one row less, and the second print confirms 45 rows on each
    expect(fake.breaks).toEqual([44, 89]);
  });

  it('break rows measured where the plan shows them: taller carried rows further down are measured, and the pages planned again with them', async () => {
    const fake = new FakeLayout(1000, (row) => (row >= 40 ? 60 : CARRIED));
    const placed = await place(fake, () => fake.print());
    expect(placed.measuringPrints).toBe(1);
    // page 1: 950 px from the first row: 44 rows + 60 = 940; later pages 953: 44 rows + 60 = 940
    expect(fake.breaks).toEqual([43, 87]);
    // the first row's (30 px) taken for every row's; shown at rows 45 and 91, measured 60 there; planned again with
    // 60 for every row not measured, shown at 43 and 87, measured as planned: two showings
    expect(fake.shows).toBe(2);
  });

  it('every cost bounded: on a page whose break rows measure taller at every showing, a plan is shown at most 6 times before a print, and the placement ends', async () => {
    // each showing measures the carried rows 25 px taller than the one before (more than a row): every plan is shown
    // too short, and the next one breaks elsewhere
    const fake: FakeLayout = new FakeLayout(1000, () => CARRIED + 25 * fake.shows);
    const ended = await place(fake, () => fake.print()).then(
      (placed) => `settled after ${placed.measuringPrints} prints`,
      (error: Error) => error.message,
    );
    expect(ended).not.toContain('runaway');
    // at most 6 showings (MAX_SHOWINGS) before each print, at most 8 prints (MAX_ROUNDS)
    const showingsBeforeEachPrint = fake.showsAtPrints.map((shows, i) => shows - (i === 0 ? 0 : fake.showsAtPrints[i - 1]));
    expect(showingsBeforeEachPrint.length).toBeGreaterThan(0);
    expect(showingsBeforeEachPrint.every((showings) => showings <= 6)).toBe(true);
    expect(fake.prints).toBeLessThanOrEqual(8);
  });

  /** Places the breaks on pages that really hold `pageSpace` px with the real print as the confirming one: what it took, and the PDF handed back. */
  const confirmedByTheRealPrint = async (pageSpace: number) => {
    const fake = new FakeLayout(pageSpace);
    const placed = await place(fake, () => fake.print(), { printIsReal: true });
    const printed = await PDFDocument.load(placed.printed);
    return { measuringPrints: placed.measuringPrints, prints: fake.prints, breaks: fake.breaks, markerLinks: markerLinks(printed, 'row.docrender.invalid'), pages: printed.getPageCount() };
  };

  it('the real print as the confirming one: no measuring print when the layout is as measured, and the PDF handed back without the marker links', async () => {
    expect(await confirmedByTheRealPrint(1000)).toEqual({ measuringPrints: 0, prints: 1, breaks: [45, 91], markerLinks: [], pages: 3 });
  });

  it('the real print as the confirming one, on pages that hold less than measured: the first print counts as a measuring print, the second is the PDF', async () => {
    expect(await confirmedByTheRealPrint(985)).toMatchObject({ measuringPrints: 1, prints: 2, breaks: [44, 89], markerLinks: [] });
  });

  /** Every carried block on the page of the row above it, every page after a break starting with the next row. */
  const expectBreaksWhereShown = (fake: FakeLayout): void => {
    const { rows, carried } = fake.layout();
    for (const after of fake.breaks) {
      expect({ after, carried: carried.get(after)?.page }).toEqual({ after, carried: rows[after].page });
      expect(rows[after + 1].page).toBe(rows[after].page + 1);
    }
  };

  /** Places the breaks with the real print confirming them and a finding print of its own: the prints of each kind. */
  const placedWithFindingPrints = async (fake: FakeLayout) => {
    let findingPrints = 0;
    const placed = await place(fake, () => fake.print(), {
      printIsReal: true,
      findingPrint: () => {
        findingPrints++;
        return fake.print();
      },
    });
    return { measuringPrints: placed.measuringPrints, findingPrints, realPrints: fake.prints - findingPrints };
  };

  it('a table below a forced page break where the layout shows it (page 3 here): planned from the layout before any print, the print that confirms it tells its page', async () => {
    const fake = new FakeLayout(1000, () => CARRIED, { page: 3, top: START, onFirstPage: null, belowBreak: START });
    expect(await placedWithFindingPrints(fake)).toEqual({ measuringPrints: 0, findingPrints: 0, realPrints: 1 });
    // 949.5 px from the first row (half a pixel short, as for a table a print found): 45 rows + 30; later pages 953
    expect(fake.breaks).toEqual([44, 90]);
    expectBreaksWhereShown(fake);
  });

  it('a table below a forced page break that prints elsewhere than the layout showed: found in the print that did not confirm it, planned again from there, and confirmed by the next', async () => {
    const fake = new FakeLayout(1000, () => CARRIED, { page: 3, top: 200, onFirstPage: null, belowBreak: START });
    // the first print could have been the PDF (it is the real one), so it is no finding print; it counts as measuring
    expect(await placedWithFindingPrints(fake)).toEqual({ measuringPrints: 1, findingPrints: 0, realPrints: 2 });
    // page 3 from 200 px: 799.5 px, 38 rows + 30 = 790; later pages 953: 46 rows + 30 = 950
    expect(fake.breaks).toEqual([37, 83]);
    expectBreaksWhereShown(fake);
  });

  it('a table the layout does not place (below content that breaks over pages, no forced break): found by a finding print, confirmed by the real one', async () => {
    const fake = new FakeLayout(1000, () => CARRIED, { page: 2, top: 300, onFirstPage: null, belowBreak: null });
    expect(await placedWithFindingPrints(fake)).toEqual({ measuringPrints: 1, findingPrints: 1, realPrints: 1 });
    expectBreaksWhereShown(fake);
  });
});
