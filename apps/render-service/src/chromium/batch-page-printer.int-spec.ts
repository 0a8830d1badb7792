import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { compileDocument, type CompiledDocument, type Template } from '@docrender/template-dsl';
import { parentTreeProblems } from '../../test/parent-tree';
import { outlineEntries, pagePngs, pdfInfo, pdfStructure, pdfText, qpdfCheck } from '../../test/pdf-tools';
import { decodePng } from '../../test/png-pixels';
import { pageRolesPage } from '../../test/page-roles';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { EXAMPLES_DIR, readExample } from '../../test/render-service.harness';
import { withPdfMetadata } from '../pdf/pdf-metadata';
import { batchPrintKey, BatchNotSharedError, printBatchOnPage } from './batch-page-printer';
import { HEADING_MARKER_HOST } from './document-outline';
import { markerLinks } from './marker-links';
import type { BrowserPool } from './browser-pool';

function printBatch(pool: BrowserPool, documents: CompiledDocument[]): Promise<Buffer[]> {
  return pool.run({ isolation: 'reused-page', javaScript: false, deadline: Date.now() + 120_000, budgetMs: 120_000, work: (page) => printBatchOnPage(page, documents) });
}

/** Each document of the batch against the same document printed alone: text as laid out and in content order, pages. */
async function expectAsPrintedAlone(pool: BrowserPool, documents: CompiledDocument[], batch: Buffer[]): Promise<void> {
  expect(batch).toHaveLength(documents.length);
  for (const [index, document] of documents.entries()) {
    const alone = await printCompiled(pool, document);
    const [batchInfo, aloneInfo] = await Promise.all([pdfInfo(batch[index]), pdfInfo(alone)]);
    expect({ index, pages: batchInfo.Pages, size: batchInfo['Page size'] }).toEqual({ index, pages: aloneInfo.Pages, size: aloneInfo['Page size'] });
    expect({ index, text: await pdfText(batch[index]) }).toEqual({ index, text: await pdfText(alone) });
    expect({ index, text: await pdfText(batch[index], { raw: true }) }).toEqual({ index, text: await pdfText(alone, { raw: true }) });
    // and the pages look the same (bands, watermarks, backgrounds, placed blocks): pixels that differ, at 50 dpi
    const [batchPages, alonePages] = await Promise.all([pagePngs(batch[index], 50), pagePngs(alone, 50)]);
    batchPages.forEach((png, n) => expect({ index, page: n + 1, differingPixels: differingPixels(png, alonePages[n]) }).toEqual({ index, page: n + 1, differingPixels: 0 }));
  }
}

function differingPixels(a: Buffer, b: Buffer): number {
  const [x, y] = [decodePng(a), decodePng(b)];
  if (x.width !== y.width || x.height !== y.height) return Number.POSITIVE_INFINITY;
  let differing = 0;
  for (let i = 0; i < x.rgb.length; i += 3) {
    if (Math.max(Math.abs(x.rgb[i] - y.rgb[i]), Math.abs(x.rgb[i + 1] - y.rgb[i + 1]), Math.abs(x.rgb[i + 2] - y.rgb[i + 2])) > 16) differing++;
  }
  return differing;
}

const keyOf = (document: CompiledDocument): string | null => batchPrintKey({ ...document, javaScript: document.needsJavaScript });

/** Each tagged document of the batch against the same document printed alone: the structure poppler reads, and a parent tree that agrees with it. */
async function expectStructureAsPrintedAlone(pool: BrowserPool, documents: CompiledDocument[], batch: Buffer[]): Promise<void> {
  for (const [index, document] of documents.entries()) {
    const alone = await printCompiled(pool, document);
    const structure = await pdfStructure(batch[index]);
    expect(structure).toMatch(/^Document\n/);
    expect({ index, structure }).toEqual({ index, structure: await pdfStructure(alone) });
    expect({ index, problems: await parentTreeProblems(batch[index]) }).toEqual({ index, problems: [] });
  }
}

/** examples/statement with `rows` transactions, from its data generator; `change` edits the template. */
function statement(rows: number, change: (template: Template) => Template = (template) => template): CompiledDocument {
  return compileDocument({
    template: change(readExample('statement').template as Template),
    data: JSON.parse(execFileSync(process.execPath, [path.join(EXAMPLES_DIR, 'statement', 'generate.mjs'), String(rows)], { encoding: 'utf8' })) as unknown,
    builtinFonts: 'served',
  });
}

const pageOf = (text: string, n: number): string => text.split('\f')[n - 1] ?? '';

/**
 * The examples, tagged, in a batch: kept alone by their key — page references (catalogue), pages that differ
 * (certificate, letter: alone they come out untagged), more than TAGGED_SHARE_MAX_ELEMENTS elements without page-aware
 * tables (report) — or by their print (label: a full-width placed line); the others shared, the ledger and the
 * statement (page-aware tables, fewer than TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE elements) among them.
 */
const EXPECTED_OUTCOMES: Record<string, string> = {
  catalogue: 'alone (key)',
  certificate: 'alone (key)',
  'e-invoice': 'shared',
  'e-invoice-xrechnung': 'shared',
  invoice: 'shared',
  'invoice-ar': 'shared',
  label: 'alone (refused)',
  ledger: 'shared',
  letter: 'alone (key)',
  multilingual: 'shared',
  report: 'alone (key)',
  statement: 'shared',
};

// every test prints each document twice and rasterises every page: generous on a busy machine
jest.setTimeout(240_000);

describe('issue 23 item 4: several documents of one template in one print, split into one PDF each', () => {
  let pool: BrowserPool;

  printPoolForTests('batch-print-test', (started) => (pool = started));

  it('invoices of 1 and 2 pages: each has the text, page count, "Page N of M" and (after its metadata update) the title it has when printed alone', async () => {
    const { template, data } = readExample('invoice');
    const base = data as { number: string; customer: { name: string }; items: unknown[] };
    // compiled as the render service compiles what it prints: built-in faces the bands do not use served (decision 0020)
    const documents = [3, base.items.length, 5, base.items.length, 4].map((items, i) =>
      compileDocument({
        template: template as Template,
        data: { ...base, number: `INV-B-${i}`, customer: { ...base.customer, name: `Customer ${i}` }, items: base.items.slice(0, items) },
        builtinFonts: 'served',
      }),
    );
    expect(new Set(documents.map(keyOf)).size).toBe(1);
    const batch = await printBatch(pool, documents);
    await expectAsPrintedAlone(pool, documents, batch);

    const pages = await Promise.all(batch.map(async (pdf) => Number((await pdfInfo(pdf)).Pages)));
    expect(new Set(pages)).toEqual(new Set([1, 2]));
    for (const [index, pdf] of batch.entries()) {
      const text = await pdfText(pdf);
      for (let n = 1; n <= pages[index]; n++) expect({ index, n, footer: /Page \d+ of \d+/.exec(pageOf(text, n))?.[0] }).toEqual({ index, n, footer: `Page ${n} of ${pages[index]}` });
      expect(pageOf(text, 1)).toContain(`INV-B-${index}`);
      const titled = withPdfMetadata(pdf, { title: documents[index].title, producer: 'docrender test', creator: 'docrender test', created: new Date() });
      expect(titled.written).toBe(true);
      expect((await pdfInfo(titled.pdf)).Title).toBe(`Invoice INV-B-${index}`);
      await expect(qpdfCheck(titled.pdf)).resolves.toContain('No syntax or stream encoding errors');
    }
  });

  it('issue 20 page roles in a batch: first/even/last bands, first-page and other-page watermarks, a placed block, per document (3, 1 and 3 pages)', async () => {
    const roles: Template = {
      page: pageRolesPage('Page {{ pageNumber }} of {{ totalPages }}'),
      body: [
        { type: 'box', id: 'address-window', position: { x: '20mm', y: '45mm' }, width: '80mm', height: '20mm', style: { backgroundColor: '#0000ff' } },
        { type: 'text', id: 'to', text: 'To {{ company }}' },
        { type: 'spacer', id: 'fill-1', height: '120mm', visibleIf: 'long' },
        { type: 'spacer', id: 'fill-2', height: '120mm', visibleIf: 'long' },
        { type: 'spacer', id: 'fill-3', height: '120mm', visibleIf: 'long' },
        { type: 'text', id: 'closing', text: 'The end of {{ company }}' },
      ],
    };
    const documents = [
      { company: 'ACME', long: true },
      { company: 'Globex', long: false },
      { company: 'Initech', long: true },
    ].map((data) => compileDocument({ template: roles, data }));
    for (const document of documents) expect(document.issues).toEqual([]);
    expect(new Set(documents.map(keyOf)).size).toBe(1);
    const batch = await printBatch(pool, documents);
    await expectAsPrintedAlone(pool, documents, batch);

    expect(await Promise.all(batch.map(async (pdf) => (await pdfInfo(pdf)).Pages))).toEqual(['3', '1', '3']);
    const texts = await Promise.all(batch.map((pdf) => pdfText(pdf, { raw: true })));
    expect(pageOf(texts[1], 1)).toContain('LETTERHEAD Globex');
    expect(pageOf(texts[1], 1)).toContain('Page 1 of 1');
    expect(pageOf(texts[1], 1)).toContain('DRAFT');
    expect(texts[1]).not.toContain('COPY');
    for (const [index, company] of [[0, 'ACME'], [2, 'Initech']] as const) {
      expect(pageOf(texts[index], 1)).toContain(`LETTERHEAD ${company}`);
      expect(pageOf(texts[index], 2)).toContain(`Continuation header ${company}`);
      expect(pageOf(texts[index], 2)).toContain('Even page footer 2');
      expect(pageOf(texts[index], 3)).toContain('Page 3 of 3');
      expect(pageOf(texts[index], 3)).toContain('Follow-on page');
      expect(pageOf(texts[index], 2)).toContain('COPY');
      expect(pageOf(texts[index], 2)).not.toContain('DRAFT');
    }
  });

  it('issue 32 item 7: placed elements of unknown height share the print, measured by it, as printed alone; one reaching below its first page, or as wide as the content area, refuses the batch', async () => {
    // A6, 10 mm margins: a placed text from 120 mm ends on page 1 with one line, below it with six
    const placedText = (lines: number): CompiledDocument =>
      compileDocument({
        template: {
          page: { size: 'A6', margins: '10mm', footer: { elements: [{ type: 'text', id: 'page-of', text: 'Page {{ pageNumber }} of {{ totalPages }}' }] } },
          body: [
            { type: 'text', id: 'flow', text: `In the flow, ${lines} lines placed` },
            { type: 'text', id: 'placed', position: { x: '15mm', y: '120mm' }, width: '60mm', text: Array.from({ length: lines }, (_v, i) => `Line ${i + 1}`).join('\n') },
          ],
        },
        data: {},
      });
    const fitting = [placedText(1), placedText(2), placedText(1)];
    expect(fitting.every((document) => document.placedToMeasure && keyOf(document) === keyOf(fitting[0]))).toBe(true);
    await expectAsPrintedAlone(pool, fitting, await printBatch(pool, fitting));
    await expect(printBatch(pool, [placedText(1), placedText(6), placedText(1)])).rejects.toBeInstanceOf(BatchNotSharedError);

    // examples/label's reference line is as wide as the content area: laid out alone against the content area in whole
    // pixels, in a batch against its fraction, so it would move; the label is printed alone
    const { template: label, data: labelData } = readExample('label');
    const labels = [labelData, labelData].map((data) => compileDocument({ template: label as Template, data }));
    expect(labels.every((document) => document.placedToMeasure && keyOf(document) !== null)).toBe(true);
    await expect(printBatch(pool, labels)).rejects.toBeInstanceOf(BatchNotSharedError);
  });

  it('issue 32 item 7: statements with carried subtotals (tables with lines at page breaks) of 1, 3 and 2 pages share the print, each as printed alone, the batch\'s one print confirming every break; a table not on its document\'s first page refuses the batch', async () => {
    const statements = [20, 100, 60].map((rows) => statement(rows));
    expect(statements.every((document) => document.pageAwareTables && keyOf(document) !== null && keyOf(document) === keyOf(statements[0]))).toBe(true);
    const batch = await printBatch(pool, statements);
    expect(await Promise.all(batch.map(async (pdf) => (await pdfInfo(pdf)).Pages))).toEqual(['1', '3', '2']);
    // the pages of each: its breaks, "Carried forward" and "Brought forward" rows, bands and text as alone
    await expectAsPrintedAlone(pool, statements, batch);
    expect(pageOf(await pdfText(batch[1]), 2)).toMatch(/Brought forward[\s\S]*Carried forward/);

    // alone, a table below a page break is found by a print first; in a batch it is not placed
    const below = statement(20, (template) => ({ ...template, body: [template.body[0], { type: 'pageBreak', id: 'break' }, ...template.body.slice(1)] }));
    await expect(printBatch(pool, [statements[0], below])).rejects.toBeInstanceOf(BatchNotSharedError);
  });

  it('issue 32 item 7: documents with an outline (the service\'s own, untagged: decision 0051) share a print, each with the outline, text and pages it has alone and no heading marker', async () => {
    const { template, data } = readExample('report');
    const { transactions } = data as { transactions: unknown[] };
    const reports = [transactions.length, 30, 120].map((count) => compileDocument({ template: { ...(template as Template), outline: true }, data: { ...(data as object), transactions: transactions.slice(0, count) } }));
    expect(reports.every((document) => document.outline && !document.tagged && keyOf(document) !== null && keyOf(document) === keyOf(reports[0]))).toBe(true);
    expect(keyOf(reports[0])).not.toBe(keyOf(compileDocument({ template: template as Template, data })));
    const batch = await printBatch(pool, reports);
    await expectAsPrintedAlone(pool, reports, batch);
    for (const [index, document] of reports.entries()) {
      const entries = await outlineEntries(batch[index]);
      expect(entries.length).toBeGreaterThan(1);
      expect({ index, entries }).toEqual({ index, entries: await outlineEntries(await printCompiled(pool, document)) });
      expect({ index, tagged: (await pdfInfo(batch[index])).Tagged }).toEqual({ index, tagged: 'no' });
      expect(markerLinks(await PDFDocument.load(batch[index]), HEADING_MARKER_HOST)).toEqual([]);
    }
  });

  it('issue 32 item 7: tagged invoices (1 and 2 pages) and tagged statements share a tagged print, each with its own structure tree: pages, text, pixels and the structure poppler reads as printed alone, a parent tree that agrees', async () => {
    const { template, data } = readExample('invoice');
    const base = data as { number: string; items: unknown[] };
    const tagged = { ...(template as Template), tagged: true };
    const invoices = [3, base.items.length, 5].map((items, i) => compileDocument({ template: tagged, data: { ...base, number: `INV-T-${i}`, items: base.items.slice(0, items) }, builtinFonts: 'served' }));
    expect(invoices.every((document) => document.tagged && keyOf(document) !== null && keyOf(document) === keyOf(invoices[0]))).toBe(true);
    // a tagged document never shares an untagged print
    expect(keyOf(invoices[0])).not.toBe(keyOf({ ...invoices[0], tagged: false }));
    const batch = await printBatch(pool, invoices);
    expect(await Promise.all(batch.map(async (pdf) => (await pdfInfo(pdf)).Tagged))).toEqual(['yes', 'yes', 'yes']);
    await expectAsPrintedAlone(pool, invoices, batch);
    await expectStructureAsPrintedAlone(pool, invoices, batch);

    // the rows' marker links of the placed breaks are left out of the tree, as their annotations are
    const statements = [20, 100].map((rows) => statement(rows, (template) => ({ ...template, tagged: true })));
    const printed = await printBatch(pool, statements);
    await expectAsPrintedAlone(pool, statements, printed);
    await expectStructureAsPrintedAlone(pool, statements, printed);
  });

  it('issue 32 item 7: every example, tagged, either shares a print with another copy of itself with the structure, text and pages it has alone, or is kept alone (its key or its print refuses)', async () => {
    const outcomes: Record<string, string> = {};
    for (const name of readdirSync(EXAMPLES_DIR).sort()) {
      const { template, data, translations } = readExample(name);
      const fonts = path.join(EXAMPLES_DIR, name, 'fonts');
      const customFonts = existsSync(fonts)
        ? readdirSync(fonts).map((file) => ({ family: 'Great Vibes', weight: 400, style: 'normal' as const, dataUri: `data:font/woff2;base64,${readFileSync(path.join(fonts, file)).toString('base64')}` }))
        : [];
      const document = compileDocument({ template: { ...(template as Template), tagged: true }, data, translations, customFonts, builtinFonts: 'served' });
      if (keyOf(document) === null) {
        outcomes[name] = 'alone (key)';
        continue;
      }
      let batch: Buffer[];
      try {
        batch = await printBatch(pool, [document, document]);
      } catch (error) {
        if (!(error instanceof BatchNotSharedError)) throw error;
        outcomes[name] = 'alone (refused)';
        continue;
      }
      const alone = await printCompiled(pool, document);
      const [structure, text, pages] = [await pdfStructure(alone), await pdfText(alone), (await pdfInfo(alone)).Pages];
      for (const pdf of batch) {
        expect({ name, structure: await pdfStructure(pdf), text: await pdfText(pdf), pages: (await pdfInfo(pdf)).Pages }).toEqual({ name, structure, text, pages });
        expect({ name, problems: await parentTreeProblems(pdf) }).toEqual({ name, problems: [] });
      }
      outcomes[name] = 'shared';
    }
    expect(outcomes).toEqual(EXPECTED_OUTCOMES);
  });

  it('documents whose watermarks differ have keys of their own, and are refused if put in one print (each is then printed alone)', async () => {
    const { template, data } = readExample('invoice');
    const test = compileDocument({ template: template as Template, data, watermark: 'TEST' });
    const same = [test, compileDocument({ template: template as Template, data, watermark: 'TEST' })];
    await expectAsPrintedAlone(pool, same, await printBatch(pool, same));

    const other = compileDocument({ template: template as Template, data, watermark: 'SAMPLE' });
    // their keys differ (batchPrintKey), so they never meet in a batch; put together anyway, the print refuses them
    expect(keyOf(other)).not.toBe(keyOf(test));
    await expect(printBatch(pool, [test, other])).rejects.toBeInstanceOf(BatchNotSharedError);
  });
});
