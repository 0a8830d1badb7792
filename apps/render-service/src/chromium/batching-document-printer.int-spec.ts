import { DocumentCaps } from '@docrender/contracts';
import { compileDocument, type CompiledDocument, type Template } from '@docrender/template-dsl';
import { pdfInfo, pdfText } from '../../test/pdf-tools';
import { printCompiled, startPrintPool } from '../../test/print-pool';
import { quietLogger, readExample } from '../../test/render-service.harness';
import { BatchingDocumentPrinter } from './batching-document-printer';
import type { BrowserPool } from './browser-pool';
import { ChromiumDocumentPrinter, type PrintPdfRequest } from './document-printer';

const PRODUCER = 'docrender render-service test';

function request(document: CompiledDocument): PrintPdfRequest {
  return {
    html: document.html,
    title: document.title,
    tagged: document.tagged,
    headerHtml: document.headerHtml,
    footerHtml: document.footerHtml,
    pageVariant: document.pageVariant,
    pageAwareTables: document.pageAwareTables,
    placedToMeasure: document.placedToMeasure,
    javaScript: document.needsJavaScript,
    deadline: Date.now() + 120_000,
    budgetMs: 120_000,
  };
}

describe('issue 23 item 4: RENDER_BATCH_PRINT_MAX — documents waiting for a page are printed together, each with its own PDF', () => {
  let pool: BrowserPool;
  let printer: BatchingDocumentPrinter;

  beforeAll(async () => {
    pool = await startPrintPool('batching-printer-test');
    printer = new BatchingDocumentPrinter(new ChromiumDocumentPrinter(pool, { producer: PRODUCER, logger: quietLogger }), pool, { maxDocuments: 10, maxPrintedChars: DocumentCaps.maxPrintedHtmlChars, logger: quietLogger });
  });

  afterAll(async () => {
    await pool.close();
  });

  afterEach(() => jest.restoreAllMocks());

  /** Each printed PDF has the text and pages of the document printed alone, and its own title and producer. */
  async function expectOwnDocuments(documents: CompiledDocument[], printed: Buffer[]): Promise<void> {
    for (const [index, document] of documents.entries()) {
      const alone = await printCompiled(pool, document);
      const [info, aloneInfo] = await Promise.all([pdfInfo(printed[index]), pdfInfo(alone)]);
      expect({ index, pages: info.Pages, title: info.Title, producer: info.Producer }).toEqual({ index, pages: aloneInfo.Pages, title: document.title, producer: PRODUCER });
      expect({ index, text: await pdfText(printed[index]) }).toEqual({ index, text: await pdfText(alone) });
    }
  }

  it('with one page busy, the invoices that arrive meanwhile share one print; a tagged one is printed alone; every PDF is its document\'s own', async () => {
    const { template, data } = readExample('invoice');
    const base = data as { number: string; customer: { name: string }; items: unknown[] };
    const invoices = [3, base.items.length, 5, 4, base.items.length, 6, 3].map((items, i) =>
      compileDocument({ template: template as Template, data: { ...base, number: `INV-Q-${i}`, customer: { ...base.customer, name: `Queued ${i}` }, items: base.items.slice(0, items) } }),
    );
    const tagged = { ...invoices[2], tagged: true };
    const runs = jest.spyOn(pool, 'run');
    const printed = await Promise.all([...invoices, tagged].map((document) => printer.printPdf(request(document))));
    // the first invoice alone (the page was free), the tagged one alone, the six that waited in one print
    expect(runs).toHaveBeenCalledTimes(3);
    expect(printed.every((p) => p.placedBeyondPage.length === 0)).toBe(true);
    await expectOwnDocuments([...invoices, tagged], printed.map((p) => p.pdf));
    expect((await pdfInfo(printed[7].pdf)).Tagged).toBe('yes');
  });

  it('when the shared print fails (documents whose watermarks differ), each document is printed alone and still gets its own PDF', async () => {
    const template: Template = {
      page: { size: 'A5', watermark: [{ text: '{{ company }}' }] },
      body: [{ type: 'text', id: 'to', text: 'To {{ company }}' }],
    };
    // same length names: the same styles, so the same batch key, but a different watermark each
    const documents = ['ACME', 'ACNE', 'ACRE'].map((company) => compileDocument({ template, data: { company } }));
    const runs = jest.spyOn(pool, 'run');
    const printed = await Promise.all(documents.map((document) => printer.printPdf(request(document))));
    // the first alone, the failed shared print of the other two, then each of them alone
    expect(runs).toHaveBeenCalledTimes(4);
    await expectOwnDocuments(documents, printed.map((p) => p.pdf));
    for (const [index, company] of ['ACME', 'ACNE', 'ACRE'].entries()) expect(await pdfText(printed[index].pdf)).toContain(`To ${company}`);
  });

  it('issue 32 item 7: a placed element reaching below its first page refuses the shared print; printed alone, its document gets its page and the element is named (placedBeyondPage)', async () => {
    const placedText = (lines: number): CompiledDocument =>
      compileDocument({
        template: {
          page: { size: 'A6', margins: '10mm' },
          body: [{ type: 'text', id: 'placed', position: { x: '15mm', y: '120mm' }, width: '60mm', text: Array.from({ length: lines }, (_v, i) => `Line ${i + 1}`).join('\n') }],
        },
        data: {},
      });
    const documents = [placedText(1), placedText(6), placedText(1)];
    const runs = jest.spyOn(pool, 'run');
    const printed = await Promise.all(documents.map((document) => printer.printPdf(request(document))));
    // the first alone, the refused shared print of the other two, then each of them alone
    expect(runs).toHaveBeenCalledTimes(4);
    expect(printed.map((p) => p.placedBeyondPage)).toEqual([[], ['placed'], []]);
    expect(await Promise.all(printed.map(async (p) => (await pdfInfo(p.pdf)).Pages))).toEqual(['1', '2', '1']);
  });
});
