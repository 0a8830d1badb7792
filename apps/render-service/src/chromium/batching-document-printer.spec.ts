import { JsonLogger, metricsRegistry } from '@docrender/observability';
import { BatchNotSharedError, printBatchOnPage } from './batch-page-printer';
import { BatchingDocumentPrinter, REFUSALS_BEFORE_ALONE, REFUSED_KEY_ALONE_MS, WAIT_FOR_EXPECTED_MS } from './batching-document-printer';
import type { BrowserPool } from './browser-pool';
import type { ChromiumDocumentPrinter, PrintedPdf, PrintPdfRequest } from './document-printer';

jest.mock('./batch-page-printer', () => ({
  ...jest.requireActual<typeof import('./batch-page-printer')>('./batch-page-printer'),
  printBatchOnPage: jest.fn(),
}));

const batchPrint = jest.mocked(printBatchOnPage);
const logger = new JsonLogger('batching-printer-spec', 'error', {}, () => undefined);

/** A document as the DSL writes it; `style` stands for its template (documents of one template share it). */
function request(title: string, style = 'a', overrides: Partial<PrintPdfRequest> = {}): PrintPdfRequest {
  return {
    html: `<!DOCTYPE html>\n<html><head><title>${title}</title><style>${style}</style></head>\n<body><p>${title}</p></body></html>\n`,
    title,
    tagged: false,
    headerHtml: null,
    footerHtml: null,
    pageVariant: null,
    pageAwareTables: false,
    placedToMeasure: false,
    javaScript: false,
    deadline: Date.now() + 60_000,
    budgetMs: 60_000,
    ...overrides,
  };
}

/** The per-document printer: prints hold until released, in order. */
function alonePrinter() {
  const held: Array<() => void> = [];
  const printed: string[] = [];
  const printer = {
    printPdf: jest.fn(async (r: PrintPdfRequest): Promise<PrintedPdf> => {
      await new Promise<void>((resolve) => held.push(resolve));
      printed.push(r.title);
      return { pdf: Buffer.from(`alone:${r.title}`), placedBeyondPage: [] };
    }),
    withMetadata: (pdf: Buffer, title: string) => Buffer.concat([pdf, Buffer.from(`+${title}`)]),
    screenshotFirstPage: jest.fn(),
  };
  return { printer, printed, release: () => held.shift()?.() };
}

function pool(capacity: number) {
  return { capacity, run: jest.fn(async (render: { work: (page: unknown) => Promise<unknown> }) => render.work({})) };
}

/** docrender_render_documents_per_print as /metrics shows it: documents and prints so far. */
async function documentsPerPrint(): Promise<{ documents: number; prints: number }> {
  const text = await metricsRegistry.getSingleMetricAsString('docrender_render_documents_per_print');
  const value = (series: string): number => Number(new RegExp(`^docrender_render_documents_per_print_${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { documents: value('sum'), prints: value('count') };
}

/** docrender_render_print_wait_seconds as /metrics shows it: seconds waited in all and documents so far. */
async function waitedForPrint(): Promise<{ seconds: number; documents: number }> {
  const text = await metricsRegistry.getSingleMetricAsString('docrender_render_print_wait_seconds');
  const value = (series: string): number => Number(new RegExp(`^docrender_render_print_wait_seconds_${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { seconds: value('sum'), documents: value('count') };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The largest layout one print may hand Chromium, as RENDER_MAX_PRINTED_HTML_MB sets it (its default). */
const MAX_PRINTED_CHARS = 8_000_000;

describe('BatchingDocumentPrinter (RENDER_BATCH_PRINT_MAX, decision 0015)', () => {
  beforeEach(() => {
    batchPrint.mockReset();
    batchPrint.mockImplementation(async (_page, documents) => documents.map((d) => Buffer.from(`batch:${/<title>(.*)<\/title>/.exec(d.html)?.[1]}`)));
  });

  it('prints at once while a page is free; documents that arrive while every page is busy are printed together, at most maxDocuments per print, each getting its own PDF and metadata', async () => {
    const alone = alonePrinter();
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(1) as unknown as BrowserPool, { maxDocuments: 3, maxPrintedChars: MAX_PRINTED_CHARS, logger });
    const before = await documentsPerPrint();
    const results = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((t) => printer.printPdf(request(t)));
    await flush();
    expect(alone.printer.printPdf).toHaveBeenCalledTimes(1);
    expect(batchPrint).not.toHaveBeenCalled();
    alone.release();
    const printed = await Promise.all(results);
    expect(batchPrint.mock.calls.map(([, documents]) => documents.length)).toEqual([3, 3]);
    expect(printed.map((p) => p.pdf.toString())).toEqual(['alone:d0', 'batch:d1+d1', 'batch:d2+d2', 'batch:d3+d3', 'batch:d4+d4', 'batch:d5+d5', 'batch:d6+d6']);
    // the metric an operator reads batching off: 7 documents in 3 prints
    const after = await documentsPerPrint();
    expect({ documents: after.documents - before.documents, prints: after.prints - before.prints }).toEqual({ documents: 7, prints: 3 });
  });

  it('never puts documents of different templates in one print, and prints a document that cannot share a print (tagged with an outline, with page references) alone at once', async () => {
    const alone = alonePrinter();
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(1) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger });
    const first = printer.printPdf(request('first'));
    const mixed = [request('a1', 'a'), request('b1', 'b'), request('a2', 'a'), request('b2', 'b')].map((r) => printer.printPdf(r));
    // Chromium writes an outline for the whole print: a shared one would hold every document's headings
    const outlined = printer.printPdf(request('outline', 'a', { outline: true, tagged: true }));
    // decision 0036: a document with page references fills in its numbers from its own print; in a shared one they would stay '?'
    const referencing = printer.printPdf(request('references', 'a', { pageReferences: true }));
    await flush();
    expect(alone.printer.printPdf.mock.calls.map(([r]) => r.title)).toEqual(['first', 'outline', 'references']);
    alone.release();
    alone.release();
    alone.release();
    await Promise.all([first, outlined, referencing, ...mixed]);
    expect(batchPrint.mock.calls.map(([, documents]) => documents.map((d) => /<title>(.*)<\/title>/.exec(d.html)?.[1]))).toEqual([
      ['a1', 'a2'],
      ['b1', 'b2'],
    ]);
  });

  it('issue 32 item 7: with documents on their way (a batch or a job arriving), a free page waits for its share of them instead of printing the first alone', async () => {
    const alone = alonePrinter();
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(2) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger, waitForExpectedMs: 60_000 });
    const expected = Array.from({ length: 6 }, () => printer.expect());
    // the first free page waits for its share of the 6 (3 of them); the second for its share of the 3 left, until
    // fewer than 2 are expected: it prints 2
    const results = expected.map((e, i) => e.printPdf(request(`d${i}`)));
    await flush();
    alone.release();
    await Promise.all(results);
    expect(batchPrint.mock.calls.map(([, documents]) => documents.length)).toEqual([3, 2]);
    // the last came when both pages were busy and nothing more was expected: printed alone at the next free page
    expect(alone.printed).toEqual(['d5']);
  });

  it('issue 32 item 7: a page waits only while at least two documents are on their way, not for one more single request (4 in flight lost throughput waiting for one)', async () => {
    const alone = alonePrinter();
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(2) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger, waitForExpectedMs: 60_000 });
    const busy = printer.printPdf(request('busy'));
    const [first, second] = [printer.expect(), printer.expect()];
    const printed = first.printPdf(request('first'));
    await flush();
    expect(alone.printer.printPdf.mock.calls.map(([r]) => r.title)).toEqual(['busy', 'first']);
    second.withdraw();
    alone.release();
    alone.release();
    await Promise.all([busy, printed]);
  });

  it('issue 32 item 7: a document withdrawn before its print (blocked, failed) ends the wait for it at once', async () => {
    const alone = alonePrinter();
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(2) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger, waitForExpectedMs: 60_000 });
    const [first, blocked, failed] = [printer.expect(), printer.expect(), printer.expect()];
    const printed = first.printPdf(request('first'));
    await flush();
    expect(alone.printer.printPdf).not.toHaveBeenCalled();
    blocked.withdraw();
    blocked.withdraw();
    await flush();
    expect(alone.printer.printPdf).toHaveBeenCalledTimes(1);
    failed.withdraw();
    alone.release();
    await printed;
  });

  it('issue 32 item 7: a document waits for expected ones at most WAIT_FOR_EXPECTED_MS, then prints with what has come', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const alone = alonePrinter();
      const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(2) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger });
      const expected = Array.from({ length: 4 }, () => printer.expect());
      const before = await waitedForPrint();
      const printed = expected[0].printPdf(request('first'));
      jest.advanceTimersByTime(WAIT_FOR_EXPECTED_MS - 1);
      await flush();
      expect(alone.printer.printPdf).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      await flush();
      expect(alone.printer.printPdf).toHaveBeenCalledTimes(1);
      // the wait is what an operator sees in docrender_render_print_wait_seconds
      const after = await waitedForPrint();
      expect(after.documents - before.documents).toBe(1);
      expect(after.seconds - before.seconds).toBeCloseTo(WAIT_FOR_EXPECTED_MS / 1000, 6);
      alone.release();
      await printed;
      expected.slice(1).forEach((e) => e.withdraw());
    } finally {
      jest.useRealTimers();
    }
  });

  it('RENDER_MAX_PRINTED_HTML_MB bounds a shared print\'s layout as it bounds a document\'s: the head once and every body within it, so large documents share fewer per print', async () => {
    const alone = alonePrinter();
    // each document about 170 characters of head and 440 of body: three fit in 1,600 characters, a fourth does not
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(1) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: 1_600, logger });
    const large = (title: string): PrintPdfRequest => {
      const document = request(title, 'x'.repeat(100));
      return { ...document, html: document.html.replace('</p>', `${'y'.repeat(400 - title.length)}</p>`) };
    };
    const head = large('d0').html.indexOf('</head>');
    const body = large('d0').html.length - head;
    expect(head + 3 * body).toBeLessThanOrEqual(1_600);
    expect(head + 4 * body).toBeGreaterThan(1_600);
    const results = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7'].map((t) => printer.printPdf(large(t)));
    await flush();
    // d0 found the page free; the other seven wait, then print three, three and one
    alone.release();
    for (let i = 0; i < 5; i++) await flush();
    expect(batchPrint.mock.calls.map(([, documents]) => documents.length)).toEqual([3, 3]);
    alone.release();
    expect((await Promise.all(results)).map((p) => p.pdf.toString())).toEqual([
      'alone:d0',
      ...['d1', 'd2', 'd3', 'd4', 'd5', 'd6'].map((t) => `batch:${t}+${t}`),
      'alone:d7',
    ]);
  });

  describe('a template whose shared prints are refused (BatchNotSharedError: found only in the page)', () => {
    const sharing = (): void => {
      batchPrint.mockImplementation(async (_page, documents) => documents.map((d) => Buffer.from(`batch:${/<title>(.*)<\/title>/.exec(d.html)?.[1]}`)));
    };
    const refusing = (): void => {
      batchPrint.mockRejectedValue(new BatchNotSharedError('a placed element is as wide as the page\'s content area'));
    };
    /** One page; three documents of one template: the first takes the free page, the other two are offered one shared print. */
    async function round(printer: BatchingDocumentPrinter, alone: ReturnType<typeof alonePrinter>, name: string): Promise<string[]> {
      const results = [0, 1, 2].map((i) => printer.printPdf(request(`${name}-${i}`)));
      for (let i = 0; i < 8; i++) {
        alone.release();
        await flush();
      }
      return (await Promise.all(results)).map((p) => p.pdf.toString());
    }

    it(`after ${REFUSALS_BEFORE_ALONE} refusals in a row its documents print alone at once for REFUSED_KEY_ALONE_MS, then share again`, async () => {
      let now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
      try {
        const alone = alonePrinter();
        const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(1) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger });
        refusing();
        for (let r = 0; r < REFUSALS_BEFORE_ALONE; r++) expect(await round(printer, alone, `r${r}`)).toEqual([0, 1, 2].map((i) => `alone:r${r}-${i}`));
        expect(batchPrint).toHaveBeenCalledTimes(REFUSALS_BEFORE_ALONE);
        // not offered to a shared print any more, though the page is busy when they arrive
        expect(await round(printer, alone, 'later')).toEqual([0, 1, 2].map((i) => `alone:later-${i}`));
        expect(batchPrint).toHaveBeenCalledTimes(REFUSALS_BEFORE_ALONE);
        now += REFUSED_KEY_ALONE_MS - 1;
        await round(printer, alone, 'still');
        expect(batchPrint).toHaveBeenCalledTimes(REFUSALS_BEFORE_ALONE);
        // the time is up: its documents share again
        now += 1;
        sharing();
        expect(await round(printer, alone, 'again')).toEqual(['alone:again-0', 'batch:again-1+again-1', 'batch:again-2+again-2']);
        expect(batchPrint).toHaveBeenCalledTimes(REFUSALS_BEFORE_ALONE + 1);
      } finally {
        clock.mockRestore();
      }
    });

    it('a shared print that prints between refusals starts the count again; other templates share meanwhile', async () => {
      const alone = alonePrinter();
      const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(1) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger });
      const outcomes = ['refused', 'refused', 'shared', 'refused', 'refused', 'refused'];
      for (const [r, outcome] of outcomes.entries()) {
        if (outcome === 'refused') refusing();
        else sharing();
        await round(printer, alone, `r${r}`);
      }
      // the last three in a row: the next documents of the template print alone, a document of another shares
      expect(batchPrint).toHaveBeenCalledTimes(outcomes.length);
      sharing();
      await round(printer, alone, 'after');
      expect(batchPrint).toHaveBeenCalledTimes(outcomes.length);
      const other = [0, 1, 2].map((i) => printer.printPdf(request(`other-${i}`, 'b')));
      for (let i = 0; i < 4; i++) {
        alone.release();
        await flush();
      }
      expect((await Promise.all(other)).map((p) => p.pdf.toString())).toEqual(['alone:other-0', 'batch:other-1+other-1', 'batch:other-2+other-2']);
    });
  });

  it('when a shared print fails, each of its documents is printed alone and gets its own outcome', async () => {
    const alone = alonePrinter();
    const printer = new BatchingDocumentPrinter(alone.printer as unknown as ChromiumDocumentPrinter, pool(1) as unknown as BrowserPool, { maxDocuments: 10, maxPrintedChars: MAX_PRINTED_CHARS, logger });
    batchPrint.mockRejectedValueOnce(new Error('the documents have different watermarks'));
    const results = ['d0', 'd1', 'd2'].map((t) => printer.printPdf(request(t)));
    await flush();
    alone.release();
    await flush();
    await flush();
    expect(batchPrint).toHaveBeenCalledTimes(1);
    alone.release();
    alone.release();
    expect((await Promise.all(results)).map((p) => p.pdf.toString())).toEqual(['alone:d0', 'alone:d1', 'alone:d2']);
  });
});
