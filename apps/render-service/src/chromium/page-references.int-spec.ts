import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } from '@cantoo/pdf-lib';
import { metricsRegistry } from '@docrender/observability';
import { anchorOfHtmlId, compileDocument, Template, TemplateElement } from '@docrender/template-dsl';
import { outlineEntries, pdfDestinations, pdfInfo, pdfPageText, pdfText } from '../../test/pdf-tools';
import { printCompiled, printPoolForTests } from '../../test/print-pool';
import { readExample } from '../../test/render-service.harness';
import { classicLinks } from '../pdf/classic-links';
import { classicNamedDestinations } from '../pdf/named-destinations';
import type { BrowserPool } from './browser-pool';
import { devToolsOf, printPdfOnPage } from './page-printer';
import { ROW_MARKER_HOST } from './page-aware-tables';

/** The links of page `n` that go to a named destination, top to bottom: the destination's name. */
async function internalLinks(pdf: Buffer, n: number): Promise<string[]> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const annotations = document.getPage(n - 1).node.Annots();
  const links: { name: string; top: number }[] = [];
  for (let i = 0; i < (annotations?.size() ?? 0); i++) {
    const annotation = annotations?.lookupMaybe(i, PDFDict);
    const dest = annotation?.get(PDFName.of('Dest'));
    const name = dest instanceof PDFName ? dest.decodeText() : dest instanceof PDFString || dest instanceof PDFHexString ? dest.decodeText() : null;
    const top = annotation?.lookupMaybe(PDFName.of('Rect'), PDFArray)?.lookupMaybe(3, PDFNumber)?.asNumber();
    if (name !== null && top !== undefined) links.push({ name, top });
  }
  return links.sort((a, b) => b.top - a.top).map((link) => link.name);
}

const lines = (text: string): string[] => text.split('\n').map((line) => line.trim().replace(/\s+/g, ' ')).filter((line) => line !== '');

/** docrender_render_measuring_prints_total as the render service's /metrics shows it. */
async function measuringPrintsTotal(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('docrender_render_measuring_prints_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

describe('issue 32 item 4: page references show the page their anchor lands on and link to it', () => {
  let pool: BrowserPool;

  printPoolForTests('page-references-test', (started) => (pool = started));

  /** Prints as the render service does; tells the measuring prints, from the callback and from the metric. */
  async function print(template: Template, data: unknown): Promise<{ pdf: Buffer; measuringPrints: number; counted: number; notPrinted: string[] }> {
    const compiled = compileDocument({ template, data });
    expect(compiled.issues).toEqual([]);
    let measuringPrints = -1;
    let notPrinted: string[] = [];
    const before = await measuringPrintsTotal();
    const pdf = await printCompiled(pool, compiled, {
      budgetMs: 120_000,
      onAnchorsNotPrinted: (anchors) => (notPrinted = anchors),
      onMeasuringPrints: (prints) => (measuringPrints = prints),
    });
    return { pdf, measuringPrints, counted: (await measuringPrintsTotal()) - before, notPrinted };
  }

  it('examples/catalogue: every contents entry shows the page its heading is on, links to that page, the outline holds the headings, and the page-aware price list that moves the terms costs no print more (1)', async () => {
    const { template, data } = readExample('catalogue');
    const { pdf, measuringPrints, counted, notPrinted } = await print(template as Template, data);
    expect(notPrinted).toEqual([]);
    // the price list starts below a forced page break, after pages of products: it is placed from the layout, the one
    // print confirms its breaks (and tells its page), and the references are read from that same print
    expect({ measuringPrints, counted }).toEqual({ measuringPrints: 1, counted: 1 });
    const pages = (await pdfText(pdf)).split('\f').filter((page) => page.trim() !== '').map(lines);
    const contents = pages[0].map((line) => /^(\d+\. .+) (\d+)$/.exec(line)).filter((m): m is RegExpExecArray => m !== null);
    const { categories } = data as { categories: { name: string }[] };
    expect(contents.map((m) => m[1])).toEqual([...categories.map((c, i) => `${i + 1}. ${c.name}`), `${categories.length + 1}. Price list`, `${categories.length + 2}. Terms of sale`]);
    for (const [, heading, page] of contents) {
      const where = pages.flatMap((pageLines, i) => (pageLines.includes(heading) ? [i + 1] : []));
      expect({ heading, where }).toEqual({ heading, where: [Number(page)] });
    }
    // the price list breaks over pages, so what follows it moved: the terms are after its last page
    expect(pages.filter((pageLines) => pageLines.includes('Price list, continued')).length).toBeGreaterThan(0);
    // "see page N" in the introduction
    const shown = Object.fromEntries(contents.map(([, heading, page]) => [heading.replace(/^\d+\. /, ''), page]));
    expect(pages[0].join(' ')).toContain(`in the price list on page ${shown['Price list']}; orders are delivered on the terms of sale on page ${shown['Terms of sale']}.`);
    // the links of page 1, top to bottom: the two of the introduction, then one per contents entry, each to its page
    const destinations = await pdfDestinations(pdf);
    const linked = (await internalLinks(pdf, 1)).map((name) => destinations.get(name));
    expect(linked).toEqual([shown['Price list'], shown['Terms of sale'], ...contents.map(([, , page]) => page)].map(Number));
    expect((await internalLinks(pdf, 1)).map((name) => anchorOfHtmlId(name))).toContain('terms');
    // bookmarks from the headings
    expect((await outlineEntries(pdf)).map((entry) => entry.title)).toEqual(expect.arrayContaining(['Contents', ...contents.map(([, heading]) => heading)]));
  });

  /** Sections of different lengths, each on a page of its own, with a contents list before them. */
  function sections(extra: Partial<Template> = {}): { template: Template; data: unknown } {
    const section = (s: string): TemplateElement[] => [
      { type: 'text', id: `h-${s}`, heading: 2, anchor: s, pageBreakBefore: true, text: `Section ${s}` },
      { type: 'repeater', id: `body-${s}`, source: `paragraphs.${s}`, elements: [{ type: 'text', id: `p-${s}`, text: '{{ item }}', style: { margin: [0, 0, '4mm', 0] } }] },
    ];
    const paragraph = 'A paragraph long enough to fill a few lines of the page with words, so that the sections take up different numbers of pages. '.repeat(4);
    return {
      template: {
        ...extra,
        body: [
          { type: 'text', id: 'toc-a', text: 'Section a: page {{ pageOf("a") }}' },
          { type: 'text', id: 'toc-b', text: 'Section b: page {{ pageOf("b") }}' },
          { type: 'text', id: 'toc-c', text: 'Section c: page {{ pageOf("c") }}' },
          ...section('a'),
          ...section('b'),
          ...section('c'),
        ],
      },
      data: { paragraphs: { a: Array(40).fill(paragraph), b: Array(3).fill(paragraph), c: Array(25).fill(paragraph) } },
    };
  }

  it('a document without page-aware tables resolves its references in one measuring print, and one without references needs none', async () => {
    const { template, data } = sections();
    const { pdf, measuringPrints, counted } = await print(template, data);
    expect({ measuringPrints, counted }).toEqual({ measuringPrints: 1, counted: 1 });
    const pages = (await pdfText(pdf)).split('\f').map(lines);
    const shown = Object.fromEntries(pages[0].map((line) => /^Section (\w): page (\d+)$/.exec(line)).filter((m) => m !== null).map((m) => [m[1], Number(m[2])]));
    for (const s of ['a', 'b', 'c']) expect({ s, page: pages.findIndex((page) => page.includes(`Section ${s}`)) + 1 }).toEqual({ s, page: shown[s] });
    expect(shown.b).toBeGreaterThan(shown.a + 1);

    const plain = await print({ body: [{ type: 'text', id: 'x', anchor: 'x', text: 'Anchored, never referred to' }] }, {});
    expect({ measuringPrints: plain.measuringPrints, counted: plain.counted }).toEqual({ measuringPrints: 0, counted: 0 });
  });

  it("Chromium's print is read for the anchors' pages without parsing it, and they are the pages poppler finds (pdfinfo -dests)", async () => {
    const { template, data } = sections();
    const { pdf } = await print(template, data);
    const read = classicNamedDestinations(pdf);
    expect(read).not.toBeNull();
    const pages = new Map(Array.from(read ?? [], ([name, { page }]) => [name, page]));
    expect(pages.size).toBe(3);
    expect(pages).toEqual(await pdfDestinations(pdf));
    expect(Array.from(pages.keys(), anchorOfHtmlId).sort()).toEqual(['a', 'b', 'c']);
  });

  /** What the page was asked while the document printed as the render service prints it: the media switched to, in order, and every print. */
  async function recorded(template: Template, data: unknown): Promise<{ media: string[]; prints: Buffer[] }> {
    const compiled = compileDocument({ template, data });
    return pool.run({
      isolation: 'reused-page',
      javaScript: false,
      deadline: Date.now() + 120_000,
      budgetMs: 120_000,
      work: async (page) => {
        const devTools = await devToolsOf(page);
        const send = devTools.send.bind(devTools);
        const media: string[] = [];
        const prints: Buffer[] = [];
        devTools.send = (async (method: string, params?: { media?: string }) => {
          if (method === 'Emulation.setEmulatedMedia') media.push(params?.media ?? '');
          const answer = await send(method as never, params as never);
          if (method === 'Page.printToPDF') prints.push(Buffer.from((answer as { data: string }).data, 'base64'));
          return answer;
        }) as typeof devTools.send;
        try {
          await printPdfOnPage(page, { ...compiled, pageVariant: compiled.pageVariant ?? null });
        } finally {
          devTools.send = send;
        }
        return { media, prints };
      },
    });
  }

  it('the document is laid out for print once, from the first measure through the real print: print media emulated once and given back once, with and without page-aware tables', async () => {
    // examples/catalogue: placeholders, the price list's measures, its measuring print, the pages filled in, the real print
    const catalogue = readExample('catalogue');
    expect((await recorded(catalogue.template as Template, catalogue.data)).media).toEqual(['print', '']);
    // references alone: placeholders, a measuring print, the pages filled in, the real print
    const { template, data } = sections();
    expect((await recorded(template, data)).media).toEqual(['print', '']);
  });

  it('a print made only to measure paints nothing but its marker links: examples/catalogue\'s has no text, and the pages and the anchors\' pages of the real print', async () => {
    const catalogue = readExample('catalogue');
    const { prints } = await recorded(catalogue.template as Template, catalogue.data);
    expect(prints).toHaveLength(2);
    const [measuring, real] = prints;
    expect((await pdfText(measuring)).replace(/\s/g, '')).toBe('');
    expect((await pdfInfo(measuring)).Pages).toBe((await pdfInfo(real)).Pages);
    const anchors = await pdfDestinations(real);
    expect(anchors.size).toBeGreaterThan(3);
    expect(await pdfDestinations(measuring)).toEqual(anchors);
    // the price list's rows were found in it by their marker links, which it painted
    expect(classicLinks(measuring)?.links.some((link) => link.uri.startsWith(`https://${ROW_MARKER_HOST}/`))).toBe(true);
    expect(measuring.length).toBeLessThan(real.length / 4);
  });

  it('a page number of fewer digits than the document was estimated to need moves the layout (an auto-width grid column): printed again and still right', async () => {
    const filler = 'Filler text that takes up room on the pages after the one the reference points to. '.repeat(6);
    const template: Template = {
      body: [
        { type: 'grid', id: 'entry', columns: ['auto', '1fr'], gap: '2mm', elements: [
          { type: 'text', id: 'entry-page', text: '{{ pageOf("target") }}' },
          { type: 'text', id: 'entry-text', text: 'the target, on the page whose number stands to the left, and this text wraps around differently with it' },
        ] },
        { type: 'text', id: 'target', anchor: 'target', pageBreakBefore: true, text: 'Target' },
        { type: 'repeater', id: 'rest', source: 'rows', elements: [{ type: 'text', id: 'row', text: filler }] },
      ],
    };
    // about 14 pages: the placeholder has two digits, the page (2) one
    const { pdf, measuringPrints, counted } = await print(template, { rows: Array(120).fill(1) });
    expect(Number((await pdfInfo(pdf)).Pages)).toBeGreaterThanOrEqual(10);
    expect({ measuringPrints, counted }).toEqual({ measuringPrints: 2, counted: 2 });
    expect(lines(await pdfPageText(pdf, 1))[0]).toMatch(/^2 the target/);
    expect(lines(await pdfPageText(pdf, 2))).toContain('Target');
    const destinations = await pdfDestinations(pdf);
    expect((await internalLinks(pdf, 1)).map((name) => destinations.get(name))).toEqual([2]);
  });

  it('pages that differ are put together from several prints: the references still link to their pages, and the outline (the service\'s own) holds every section on its page', async () => {
    const { template, data } = sections({ outline: true, page: { footer: { elements: [{ type: 'text', id: 'f', text: 'Page {{ pageNumber }}' }], first: { elements: [{ type: 'text', id: 'f1', text: 'Contents' }] } } } });
    const { pdf } = await print(template, data);
    const first = lines(await pdfPageText(pdf, 1));
    const destinations = await pdfDestinations(pdf);
    const linked = (await internalLinks(pdf, 1)).map((name) => destinations.get(name));
    const shown = first.map((line) => /^Section \w: page (\d+)$/.exec(line)).filter((m) => m !== null).map((m) => Number(m[1]));
    expect(shown).toHaveLength(3);
    expect(linked).toEqual(shown);
    expect(lines(await pdfPageText(pdf, shown[1]))).toContain('Section b');
    expect(await outlineEntries(pdf)).toEqual(['a', 'b', 'c'].map((s, i) => ({ title: `Section ${s}`, depth: 0, page: shown[i] })));
  });
});
