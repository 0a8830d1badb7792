import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Environment, MessageName, type RenderDocumentResult } from '@docrender/contracts';
import type { InProcessMessageBus } from '@docrender/messaging';
import { FilesystemBlobStore } from '@docrender/storage';
import { parentTreeProblems } from '../../test/parent-tree';
import { pdfaPreflight, pdfInfo, pdfStructure, pdfText } from '../../test/pdf-tools';
import { readExample, renderCommand, startRenderService } from '../../test/render-service.harness';
import { BatchingDocumentPrinter } from './batching-document-printer';
import { BrowserPool } from './browser-pool';

describe('issue 23 item 4: the render service with RENDER_BATCH_PRINT_MAX=10 (real Chromium, in-process bus, filesystem blob store)', () => {
  let blobDir: string;
  let blobStore: FilesystemBlobStore;
  let app: INestApplication;
  let bus: InProcessMessageBus;

  beforeAll(async () => {
    blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-batch-print-blobs-'));
    blobStore = await FilesystemBlobStore.open(blobDir);
    // one page, so documents that arrive together wait for it and are printed together
    ({ app, bus } = await startRenderService(blobStore, { RENDER_PAGES_PER_BROWSER: '1', RENDER_BATCH_PRINT_MAX: '10' }));
  });

  afterAll(async () => {
    await app?.close();
    await bus?.close();
    await rm(blobDir, { recursive: true, force: true });
  });

  const { template, data } = readExample('invoice');
  const base = data as { number: string; customer: { name: string }; items: unknown[] };
  const invoices = [3, base.items.length, 5, 4, base.items.length, 6, 3, 7].map((items, i) => ({
    ...base,
    number: `INV-S-${i}`,
    customer: { ...base.customer, name: `Service customer ${i}` },
    items: base.items.slice(0, items),
  }));

  const render = (invoice: unknown, of: unknown = template, environment = Environment.Test): Promise<RenderDocumentResult> =>
    bus.request(MessageName.RenderDocument, renderCommand({ template: of, data: { inline: invoice }, environment }), { timeoutMs: 120_000 });

  /**
   * Renders them all at once and how many prints that took. "At once" whatever the machine's speed: each document,
   * compiled, is handed to the printer once all are (on a busy machine compiles finish one by one, and each would
   * find the page free and print alone).
   */
  async function renderTogether(documents: unknown[], of: unknown = template, environment = Environment.Test): Promise<{ results: RenderDocumentResult[]; prints: number }> {
    const printPdf = BatchingDocumentPrinter.prototype.printPdf;
    const held: (() => void)[] = [];
    const arriving = jest.spyOn(BatchingDocumentPrinter.prototype, 'printPdf').mockImplementation(function (this: BatchingDocumentPrinter, request) {
      const all = new Promise<void>((resolve) => held.push(resolve));
      if (held.length === documents.length) for (const go of held) go();
      return all.then(() => printPdf.call(this, request));
    });
    const runs = jest.spyOn(app.get(BrowserPool), 'run');
    try {
      const results = await Promise.all(documents.map((document) => render(document, of, environment)));
      return { results, prints: runs.mock.calls.length };
    } finally {
      runs.mockRestore();
      arriving.mockRestore();
    }
  }

  async function stored(result: RenderDocumentResult): Promise<Buffer> {
    expect(result.outcome).toBe('rendered');
    return blobStore.get(result.pdf?.blobKey ?? '');
  }

  it('render.document requests arriving together share prints; each stored PDF has its own text, page count, "Page N of M", TEST watermark and title, as rendered one at a time', async () => {
    const { results: together, prints } = await renderTogether(invoices);
    expect(prints).toBeLessThan(invoices.length);

    for (const [index, invoice] of invoices.entries()) {
      // one at a time, each finds the page free and is printed alone
      const alone = await stored(await render(invoice));
      const pdf = await stored(together[index]);
      const info = await pdfInfo(pdf);
      expect({ index, title: info.Title, pages: Number(info.Pages) }).toEqual({ index, title: `Invoice ${invoice.number}`, pages: together[index].pdf?.pageCount });
      expect({ index, pages: info.Pages }).toEqual({ index, pages: (await pdfInfo(alone)).Pages });
      const text = await pdfText(pdf);
      expect({ index, text }).toEqual({ index, text: await pdfText(alone) });
      expect(text).toContain(invoice.number);
      const pageCount = Number(info.Pages);
      expect(text.split('\f').slice(0, pageCount).map((page) => /Page \d+ of \d+/.exec(page)?.[0])).toEqual(Array.from({ length: pageCount }, (_, n) => `Page ${n + 1} of ${pageCount}`));
      const raw = await pdfText(pdf, { raw: true });
      expect(raw.split('\f').slice(0, pageCount).map((page) => /^TEST$/m.test(page))).toEqual(Array(pageCount).fill(true));
    }
  });

  it('issue 32 item 7: PDF/A-3b + PDF/UA-1 invoices arriving together share tagged prints; each passes the checks before delivery (PDFBox Preflight on one), with the structure and text it has rendered alone', async () => {
    // PDF/UA asks for alternative text on the example's payment QR code
    const accessible = { ...(JSON.parse(JSON.stringify(template).replace('"id":"payment-qr",', '"id":"payment-qr","alt":"QR code for the payment",')) as object), pdfA: 'PDF/A-3b', pdfUA: 'PDF/UA-1' };
    const documents = invoices.slice(0, 4);
    // production: Preflight, a PDF/A-1 validator at heart, counts the test watermark's constant alpha
    const { results, prints } = await renderTogether(documents, accessible, Environment.Production);
    expect(prints).toBeLessThan(documents.length);
    for (const [index, invoice] of documents.entries()) {
      expect({ index, conformance: results[index].pdf?.conformance }).toMatchObject({ index, conformance: { pdfA: 'PDF/A-3b', pdfUA: 'PDF/UA-1', checks: 'passed' } });
      const pdf = await stored(results[index]);
      const alone = await stored(await render(invoice, accessible, Environment.Production));
      expect({ index, structure: await pdfStructure(pdf) }).toEqual({ index, structure: await pdfStructure(alone) });
      expect({ index, text: await pdfText(pdf) }).toEqual({ index, text: await pdfText(alone) });
      expect({ index, problems: await parentTreeProblems(pdf) }).toEqual({ index, problems: [] });
    }
    const { code, report } = await pdfaPreflight(await stored(results[1]), 3);
    expect(report).toMatch(/0 error\(s\)/);
    expect(code).toBe(0);
  }, 300_000);
});
