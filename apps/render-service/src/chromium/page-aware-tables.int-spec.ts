import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { compileDocument, Template } from '@docrender/template-dsl';
import { outlineEntries, pdfStructure, pdfText, qpdfCheck } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { EXAMPLES_DIR, readExample } from '../../test/render-service.harness';
import type { BrowserPool } from './browser-pool';
import { printPdfOnPage } from './page-printer';
import { RenderBudgetEstimateError } from './render-timeout.error';

const goldenDir = path.join(__dirname, '__golden__');
/** A 1 × 1 white PNG. */
const WHITE_PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC';

/**
 * The text of every page as pdftotext lays it out, compared with (UPDATE_GOLDEN=1: written to) `__golden__/<file>`:
 * line by line, each line's words with single spaces between them (the runs of spaces pdftotext puts between columns
 * move with a glyph's width, not with what a page holds).
 */
function expectGoldenPages(file: string, text: string): void {
  const full = path.join(goldenDir, file);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(full, text);
  }
  const golden = readFileSync(full, 'utf8').split('\f');
  const pages = text.split('\f');
  expect(pages.length).toBe(golden.length);
  const lines = (page: string): string[] => page.split('\n').map((line) => line.trim().replace(/\s+/g, ' ')).filter((line) => line !== '');
  pages.forEach((page, index) => expect({ page: index + 1, lines: lines(page) }).toEqual({ page: index + 1, lines: lines(golden[index]) }));
}

/** How many annotations the pages of a PDF carry (the ledger has no links of its own: the marker links must be gone). */
async function annotationCount(pdf: Buffer): Promise<number> {
  const document = await PDFDocument.load(pdf);
  return document.getPages().reduce((count, page) => count + (page.node.Annots()?.size() ?? 0), 0);
}

type Transaction = { debit: number; credit: number; balance: number };
type StatementData = { opening: number; transactions: Transaction[] };

/** examples/statement with `rows` transactions, from its data generator. */
function statement(rows: number): { template: Template; data: StatementData } {
  const data = JSON.parse(execFileSync(process.execPath, [path.join(EXAMPLES_DIR, 'statement', 'generate.mjs'), String(rows)], { encoding: 'utf8', maxBuffer: 1 << 28 })) as StatementData;
  return { template: readExample('statement').template as Template, data };
}

/** The transaction rows pdftotext finds on a page of a printed statement. */
const transactionRows = (pageText: string): number => (pageText.match(/^\s*\d+\s+\d{2}\/\d{2}\/\d{4}\s+TX/gm) ?? []).length;
const euros = (cents: number): string => `€${(cents / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const cents = (amount: number): number => Math.round(amount * 100);
const oneLine = (line: string | undefined): string | undefined => line?.replace(/\s+/g, ' ').trim();

/**
 * Checks a printed statement page by page (pdftotext): every page but the last ends with "Carried forward" and the
 * debit and credit sums and the balance after its last row, then "Continued on the next page"; every page but the first
 * starts with "Brought forward" and what the page before carried; the last page has the totals. Returns the pages.
 * `rowsFrom`: the page the table starts on (1-based); `rowsTo`: the page after its last, or the end.
 */
function expectSubtotalsOnEveryPage(text: string, data: StatementData, rowsFrom = 1, rowsTo?: number): string[] {
  const pages = text.split('\f').filter((p) => p.trim() !== '');
  const debit: number[] = [0];
  const credit: number[] = [0];
  data.transactions.forEach((t, i) => {
    debit.push(debit[i] + cents(t.debit));
    credit.push(credit[i] + cents(t.credit));
  });
  let carried: string | undefined;
  let seen = 0;
  const tablePages = pages.slice(rowsFrom - 1, rowsTo === undefined ? undefined : rowsTo - 1);
  tablePages.forEach((pageText, index) => {
    const lines = pageText.split('\n');
    const numbers = lines.map((l) => /^\s*(\d+)\s+\d{2}\/\d{2}\/\d{4}\s+TX/.exec(l)).filter((m) => m !== null).map((m) => Number(m[1]));
    // the rows follow each other over the pages, none left out, none twice
    expect({ page: index + rowsFrom, first: numbers[0] }).toEqual({ page: index + rowsFrom, first: seen + 1 });
    seen = numbers[numbers.length - 1];
    const foot = oneLine(lines.find((l) => l.includes('Carried forward')));
    const head = oneLine(lines.find((l) => l.includes('Brought forward')));
    if (index < tablePages.length - 1) {
      const balance = cents(data.opening) - debit[seen] + credit[seen];
      expect({ page: index + rowsFrom, foot }).toEqual({ page: index + rowsFrom, foot: `Carried forward ${euros(debit[seen])} ${euros(credit[seen])} ${euros(balance)}` });
      expect(cents(data.transactions[seen - 1].balance)).toBe(balance);
      expect(pageText).toContain('Continued on the next page');
    } else {
      expect(foot).toBeUndefined();
      expect(pageText).toContain('Total · closing balance');
    }
    if (index > 0) expect({ page: index + rowsFrom, head: head?.replace('Brought', 'Carried') }).toEqual({ page: index + rowsFrom, head: carried });
    carried = foot;
  });
  expect(seen).toBe(data.transactions.length);
  return pages;
}

describe('issue 32 item 1: page-aware tables print the same pages as before', () => {
  let pool: BrowserPool;

  printPoolForTests('page-aware-tables-test', (started) => (pool = started));

  /** Compiles `document` (with no issue) and prints it: the PDF's text (pdftotext) and the measuring prints it took. */
  async function printedText(document: { template: Template; data: unknown }): Promise<{ text: string; measuringPrints: number }> {
    const compiled = compileDocument(document);
    expect(compiled.issues).toEqual([]);
    let measuringPrints = -1;
    const pdf = await printCompiled(pool, compiled, { budgetMs: 600_000, onMeasuringPrints: (prints) => (measuringPrints = prints) });
    return { text: await pdfText(pdf), measuringPrints };
  }

  it('issue 32 item 1: examples/ledger has the same text on every page as the golden printed by the one-print-per-break placement (decision 0011), its real print confirming the breaks (no measuring print)', async () => {
    const { template, data } = readExample('ledger');
    const compiled = compileDocument({ template: template as Template, data });
    let measuringPrints = -1;
    const pdf = await printCompiled(pool, compiled, { onMeasuringPrints: (prints) => (measuringPrints = prints) });
    expectGoldenPages('ledger.pages.txt', await pdfText(pdf));
    expect(measuringPrints).toBe(0);
    expect(await annotationCount(pdf)).toBe(0);
  });

  it.each([
    { asked: 'tagged', extra: { tagged: true }, tagged: true, bookmarks: false },
    { asked: 'with an outline (the service\'s own, untagged)', extra: { outline: true }, tagged: false, bookmarks: true },
    { asked: 'tagged with an outline (Chromium\'s)', extra: { tagged: true, outline: true }, tagged: true, bookmarks: true },
  ])('issue 32 items 2 and 4: examples/ledger $asked is confirmed by its own print (no measuring print): the same text on every page, no marker link, none in its structure tree', async ({ extra, tagged, bookmarks }) => {
    const { template, data } = readExample('ledger');
    const compiled = compileDocument({ template: { ...(template as Template), ...extra }, data });
    expect(compiled.tagged || compiled.outline).toBe(true);
    let measuringPrints = -1;
    const pdf = await printCompiled(pool, compiled, { onMeasuringPrints: (prints) => (measuringPrints = prints) });
    expectGoldenPages('ledger.pages.txt', await pdfText(pdf));
    expect(measuringPrints).toBe(0);
    expect(await annotationCount(pdf)).toBe(0);
    const structure = await pdfStructure(pdf);
    expect(structure.includes('Table')).toBe(tagged);
    expect(structure).not.toMatch(/^\s*Link\b/m);
    expect((await outlineEntries(pdf)).length > 0).toBe(bookmarks);
    await qpdfCheck(pdf);
  });

  it('issue 32 item 1: a 400-row examples/statement has the same text on every page as the golden printed by the one-print-per-break placement (decision 0011)', async () => {
    const { text, measuringPrints } = await printedText(statement(400));
    expectGoldenPages('statement-400.pages.txt', text);
    expect(measuringPrints).toBeLessThanOrEqual(1);
  });

  it('issue 32 item 1: a 100-page statement has its subtotals right on every page (pdftotext) from at most one measuring print', async () => {
    const { template, data } = statement(4_400);
    const { text, measuringPrints } = await printedText({ template, data });
    const pages = expectSubtotalsOnEveryPage(text, data);
    expect(pages.length).toBeGreaterThanOrEqual(100);
    expect(pages[pages.length - 1]).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(measuringPrints).toBeLessThanOrEqual(1);
  }, 600_000);

  it('issue 32 item 1: a table below a forced page break is placed from the layout and confirmed by the real print, which tells its page (no measuring print; orphans and widows kept)', async () => {
    const { template, data } = statement(150);
    const [title, holder, table] = template.body;
    const cover = { type: 'text', id: 'cover', text: 'Cover page', pageBreakAfter: true } as const;
    const kept = { ...table, orphans: 3, widows: 4 } as Template['body'][number];
    const { text, measuringPrints } = await printedText({ template: { ...template, body: [cover, title, holder, kept] }, data });
    expect(text.split('\f')[0]).toContain('Cover page');
    const pages = expectSubtotalsOnEveryPage(text, data, 2);
    // widows: the last page has at least 4 rows, orphans: every page at least 3
    for (const pageText of pages.slice(1)) expect(transactionRows(pageText)).toBeGreaterThanOrEqual(3);
    expect(transactionRows(pages[pages.length - 1])).toBeGreaterThanOrEqual(4);
    expect(measuringPrints).toBe(0);
  }, 300_000);

  it('issue 32 item 1: a table below content that breaks over pages with no forced break is found by one measuring print, its breaks confirmed by the real print', async () => {
    const { template, data } = statement(150);
    const [title, holder, table] = template.body;
    const words = 'These terms run over more than a page, so the table starts where the print puts the end of them. '.repeat(60);
    const terms = { type: 'repeater', id: 'terms', source: 'terms', elements: [{ type: 'text', id: 'term', text: '{{ item }}' }] } as Template['body'][number];
    const { text, measuringPrints } = await printedText({ template: { ...template, body: [terms, title, holder, table] }, data: { ...data, terms: [words, words] } });
    const tableFrom = text.split('\f').findIndex((page) => transactionRows(page) > 0) + 1;
    expect(tableFrom).toBeGreaterThan(1);
    expectSubtotalsOnEveryPage(text, data, tableFrom);
    expect(measuringPrints).toBe(1);
  }, 300_000);

  it('issue 32 item 1: a second page-aware table below a forced page break is placed with the first and confirmed by the real print (no measuring print; pages with a background: a second @page rule)', async () => {
    const { template, data } = statement(160);
    const [title, holder, table] = template.body;
    const again = { type: 'text', id: 'again', text: 'The same transactions again', pageBreakBefore: true } as const;
    const second = { ...table, id: 'transactions-again' } as Template['body'][number];
    const background = { source: `data:image/png;base64,${WHITE_PIXEL}` };
    const { text, measuringPrints } = await printedText({ template: { ...template, page: { ...template.page, background }, body: [title, holder, table, again, second] }, data });
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    const secondFrom = pages.findIndex((p) => p.includes('The same transactions again')) + 1;
    expect(secondFrom).toBeGreaterThan(2);
    expectSubtotalsOnEveryPage(text, data, 1, secondFrom);
    expectSubtotalsOnEveryPage(text, data, secondFrom);
    expect(measuringPrints).toBe(0);
  }, 300_000);

  it('issue 32 item 2: the page is placed and printed hidden (its window minimized: no frames drawn for nothing) and is in view again for the next document', async () => {
    const compiled = compileDocument(statement(400));
    const seen = await pool.run({
      isolation: 'reused-page',
      javaScript: false,
      deadline: Date.now() + 600_000,
      budgetMs: 600_000,
      work: async (page) => {
        const watcher = await page.createCDPSession();
        const states = new Set<string>();
        let printing = true;
        const printed = printPdfOnPage(page, { ...compiled, pageAwareTables: true }).finally(() => (printing = false));
        while (printing) states.add((await watcher.send('Browser.getWindowForTarget')).bounds.windowState ?? 'normal');
        const pdf = await printed;
        const after = (await watcher.send('Browser.getWindowForTarget')).bounds.windowState;
        await watcher.detach();
        return { states: [...states].sort(), after, visibility: await page.evaluate(() => document.visibilityState), text: await pdfText(pdf) };
      },
    });
    expect(seen.states).toContain('minimized');
    expect(seen.after).toBe('normal');
    expect(seen.visibility).toBe('visible');
    expectGoldenPages('statement-400.pages.txt', seen.text);
  });

  it('issue 32 item 3: with less of the budget left than its measuring print took, the render fails before the real print and says why (a document with page references: measured first)', async () => {
    const { template, data } = readExample('ledger');
    const compiled = compileDocument({ template: template as Template, data });
    let measuringPrints = -1;
    const printing = printCompiled(pool, { ...compiled, pageReferences: true, pageVariant: null, pageAwareTables: true }, {
      budgetMs: 600_000,
      onMeasuringPrints: (prints) => (measuringPrints = prints),
      // the render's own deadline is already here when the measuring print ends
      budget: { deadline: Date.now(), budgetMs: 60_000 },
    });
    await expect(printing).rejects.toThrow(RenderBudgetEstimateError);
    await expect(printing).rejects.toThrow(/printing it to measure it took \d+\.\d s, the real print takes at least as long, and 0\.0 s of the budget were left/);
    expect(measuringPrints).toBe(1);
  });

  it('issue 32 item 3: the real print after the measuring print that found a table is refused when less of the budget is left than that print took', async () => {
    const { template, data } = statement(150);
    const [title, holder, table] = template.body;
    const words = 'These terms run over more than a page, so the table starts where the print puts the end of them. '.repeat(60);
    const terms = { type: 'repeater', id: 'terms', source: 'terms', elements: [{ type: 'text', id: 'term', text: '{{ item }}' }] } as Template['body'][number];
    const compiled = compileDocument({ template: { ...template, body: [terms, title, holder, table] }, data: { ...data, terms: [words, words] } });
    const printing = printCompiled(pool, compiled, { budgetMs: 600_000, budget: { deadline: Date.now(), budgetMs: 60_000 } });
    await expect(printing).rejects.toThrow(RenderBudgetEstimateError);
    await expect(printing).rejects.toThrow(/printing it to measure it took \d+\.\d s, the real print takes at least as long, and 0\.0 s of the budget were left/);
  });
});
