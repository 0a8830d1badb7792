import { DocumentCaps, IssueSeverity, RenderIssue, RenderIssueType } from '@docrender/contracts';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { Template, TemplateElement } from '../model/template.types';
import * as chart from './chart';
import * as codes from './codes';
import { compileDocument, validateDocument } from './compile-document';
import { codeByteWeight } from './document-caps';
import { pngHeader } from './test-image-headers';

// The costly steps, wrapped so a test can see whether a cap stopped the element before them (issue 31 item 2: "decided
// in milliseconds", asserted on steps, never on time). Drawing is the real thing unless a test stubs it.
jest.mock('./codes', () => {
  const actual = jest.requireActual<typeof import('./codes')>('./codes');
  return { ...actual, codeSvg: jest.fn(actual.codeSvg) };
});
jest.mock('./chart', () => {
  const actual = jest.requireActual<typeof import('./chart')>('./chart');
  return { ...actual, chartSvg: jest.fn(actual.chartSvg) };
});

const codeSvg = codes.codeSvg as jest.MockedFunction<typeof codes.codeSvg>;
const chartSvg = chart.chartSvg as jest.MockedFunction<typeof chart.chartSvg>;
const CHEAP_SVG = { ok: true as const, svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' };

beforeEach(() => {
  codeSvg.mockClear();
  chartSvg.mockClear();
});

afterEach(() => jest.restoreAllMocks());

const doc = (body: TemplateElement[], extra: Partial<Template> = {}): Template => ({ body, ...extra });

/** The issues of a render and of validate, which must agree (issue 31 item 2: validate reports what a render blocks). */
function issuesOf(template: Template, data: unknown): RenderIssue[] {
  const rendered = compileDocument({ template, data }).issues;
  expect(validateDocument({ template, data })).toEqual(rendered);
  return rendered;
}

const capIssues = (issues: RenderIssue[], pattern: RegExp): RenderIssue[] => issues.filter((i) => pattern.test(i.description));

const codeRepeater = (id: string, format: string): TemplateElement =>
  ({ type: 'repeater', id: `${id}-list`, source: 'values', elements: [{ type: 'barcode', id, format, value: '{{ item }}' }] }) as TemplateElement;

describe('document caps on codes (DocumentCaps.maxCodes, maxCodeBytes)', () => {
  it(`${DocumentCaps.maxCodes} codes are drawn; the next one is refused by count, naming its element, and never drawn`, () => {
    codeSvg.mockImplementation(() => CHEAP_SVG);
    const values = Array.from({ length: DocumentCaps.maxCodes }, (_, i) => String(i));
    expect(capIssues(issuesOf(doc([codeRepeater('code', 'code128')]), { values }), /not drawn/)).toEqual([]);
    codeSvg.mockClear();
    const issues = issuesOf(doc([codeRepeater('code', 'code128')]), { values: [...values, 'one more'] });
    expect(capIssues(issues, /not drawn/)).toEqual([
      expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, severity: IssueSeverity.Warning, elementId: 'code', description: expect.stringContaining(`already has ${DocumentCaps.maxCodes} codes`) }),
    ]);
    // twice (render, then validate) the codes within the cap, never the one past it
    expect(codeSvg).toHaveBeenCalledTimes(2 * DocumentCaps.maxCodes);
    expect(codeSvg.mock.calls.some(([, value]) => value === 'one more')).toBe(false);
  });

  it(`QR bytes count once: ${DocumentCaps.maxCodeBytes} bytes in all pass, one byte more is refused before encoding`, () => {
    codeSvg.mockImplementation(() => CHEAP_SVG);
    const full = Array.from({ length: DocumentCaps.maxCodeBytes / 2000 }, () => 'x'.repeat(2000));
    expect(capIssues(issuesOf(doc([codeRepeater('qr', 'qr')]), { values: full }), /not drawn/)).toEqual([]);
    codeSvg.mockClear();
    const issues = issuesOf(doc([codeRepeater('qr', 'qr')]), { values: [...full, 'y'] });
    expect(capIssues(issues, /not drawn/)).toEqual([expect.objectContaining({ elementId: 'qr', description: expect.stringMatching(/its 1 bytes would take the document's codes past 20,000 bytes \(20,000 so far\)/) })]);
    expect(codeSvg.mock.calls.some(([, value]) => value === 'y')).toBe(false);
  });

  it.each([
    ['aztec', 'Aztec'],
    ['datamatrix', 'DataMatrix'],
    ['pdf417', 'PDF417'],
    ['code128', 'Code 128'],
  ] as const)('a %s byte counts as DocumentCaps.codeByteWeight says', (format, name) => {
    codeSvg.mockImplementation(() => CHEAP_SVG);
    const weight = codeByteWeight(format);
    const perCode = 100;
    const fit = Math.floor(DocumentCaps.maxCodeBytes / weight / perCode);
    const rest = Math.floor((DocumentCaps.maxCodeBytes - fit * perCode * weight) / weight);
    const values = [...Array.from({ length: fit }, () => '1'.repeat(perCode)), ...(rest > 0 ? ['1'.repeat(rest)] : [])];
    expect(capIssues(issuesOf(doc([codeRepeater('c', format)]), { values }), /not drawn/)).toEqual([]);
    const issues = issuesOf(doc([codeRepeater('c', format)]), { values: [...values, '1'] });
    expect(capIssues(issues, /not drawn/)).toEqual([expect.objectContaining({ elementId: 'c', description: expect.stringContaining(`its 1 bytes (${name}: a byte counts ${weight})`) })]);
  });

  it('300 Aztec codes of 2,900 bytes (issue 31: 8 s each) are refused before encoding, in one grouped issue: an Aztec byte counts 12', () => {
    const values = Array.from({ length: 300 }, (_, i) => `${i}`.padStart(2900, '0'));
    const issues = capIssues(issuesOf(doc([codeRepeater('ticket', 'aztec')]), { values }), /not drawn/);
    expect(issues).toEqual([
      expect.objectContaining({
        elementId: 'ticket',
        description: "The Aztec is not drawn: its 2900 bytes (Aztec: a byte counts 12) would take the document's codes past 20,000 bytes (0 so far). (300 occurrences)",
      }),
    ]);
    expect(codeSvg).not.toHaveBeenCalled();
  });
});

describe('document caps on charts (maxCharts, maxChartItems, maxPieSlices, maxChartPoints, maxChartTextLength)', () => {
  const barChart = (id: string, source = 'items'): TemplateElement =>
    ({ type: 'chart', id, chartType: 'bar', source, labelField: 'l', series: [{ field: 'v' }] }) as TemplateElement;
  const items = (n: number, label = (i: number): string => `L${i}`): { l: string; v: number }[] => Array.from({ length: n }, (_, i) => ({ l: label(i), v: i }));

  it(`${DocumentCaps.maxCharts} charts are drawn; the next is refused, naming it, and never drawn`, () => {
    chartSvg.mockImplementation(() => CHEAP_SVG);
    const body = Array.from({ length: DocumentCaps.maxCharts + 1 }, (_, i) => barChart(`c${i}`));
    const issues = issuesOf(doc(body), { items: items(3) });
    expect(capIssues(issues, /cannot be drawn/)).toEqual([
      expect.objectContaining({ type: RenderIssueType.InvalidChartConfig, elementId: `c${DocumentCaps.maxCharts}`, description: expect.stringContaining(`already has ${DocumentCaps.maxCharts} charts`) }),
    ]);
    // validate never draws; the render drew the charts within the cap
    expect(chartSvg).toHaveBeenCalledTimes(DocumentCaps.maxCharts);
  });

  it(`${DocumentCaps.maxChartPoints} points in all are drawn; one point more refuses that chart before ECharts`, () => {
    chartSvg.mockImplementation(() => CHEAP_SVG);
    const charts = DocumentCaps.maxChartPoints / DocumentCaps.maxChartItems;
    const body = Array.from({ length: charts }, (_, i) => barChart(`c${i}`));
    expect(capIssues(issuesOf(doc([...body]), { items: items(DocumentCaps.maxChartItems) }), /cannot be drawn/)).toEqual([]);
    chartSvg.mockClear();
    const issues = issuesOf(doc([...body, barChart('one-more', 'one')]), { items: items(DocumentCaps.maxChartItems), one: items(1) });
    expect(capIssues(issues, /cannot be drawn/)).toEqual([
      expect.objectContaining({ elementId: 'one-more', description: expect.stringContaining(`past ${DocumentCaps.maxChartPoints.toLocaleString('en-US')} points`) }),
    ]);
    expect(chartSvg).toHaveBeenCalledTimes(charts);
  });

  it(`a pie's slice counts ${DocumentCaps.pieSliceWeight} points`, () => {
    chartSvg.mockImplementation(() => CHEAP_SVG);
    const pie = (id: string): TemplateElement => ({ type: 'chart', id, chartType: 'doughnut', source: 'items', labelField: 'l', series: [{ field: 'v' }] }) as TemplateElement;
    const pies = DocumentCaps.maxChartPoints / DocumentCaps.pieSliceWeight / DocumentCaps.maxPieSlices;
    const body = Array.from({ length: pies + 1 }, (_, i) => pie(`p${i}`));
    const issues = issuesOf(doc(body), { items: items(DocumentCaps.maxPieSlices) });
    expect(capIssues(issues, /cannot be drawn/)).toEqual([
      expect.objectContaining({ elementId: `p${pies}`, description: expect.stringContaining(`its 400 points (200 slices × 2) would take the document's charts past 4,000 points (4,000 so far)`) }),
    ]);
  });

  it(`a chart draws ${DocumentCaps.maxChartItems} items and a pie ${DocumentCaps.maxPieSlices} slices; the rest is left off with an issue`, () => {
    chartSvg.mockImplementation(() => CHEAP_SVG);
    const pie = { type: 'chart', id: 'pie', chartType: 'pie', source: 'items', labelField: 'l', series: [{ field: 'v' }] } as TemplateElement;
    const issues = issuesOf(doc([barChart('bar'), pie]), { items: items(DocumentCaps.maxChartItems + 1) });
    expect(capIssues(issues, /only the first/)).toEqual([
      expect.objectContaining({ elementId: 'bar', description: `The chart has ${DocumentCaps.maxChartItems + 1} items; only the first ${DocumentCaps.maxChartItems} are drawn.` }),
      expect.objectContaining({ elementId: 'pie', description: `The chart has ${DocumentCaps.maxChartItems + 1} items; only the first ${DocumentCaps.maxPieSlices} (slices of a pie) are drawn.` }),
    ]);
    expect(chartSvg.mock.calls.map(([spec]) => spec.labels.length)).toEqual([DocumentCaps.maxChartItems, DocumentCaps.maxPieSlices]);
  });

  it(`labels, titles and series names of ${DocumentCaps.maxChartTextLength} characters are drawn as they are; longer ones are cut, with an issue`, () => {
    chartSvg.mockImplementation(() => CHEAP_SVG);
    const max = DocumentCaps.maxChartTextLength;
    const fits = issuesOf(doc([barChart('c')]), { items: items(2, () => 'a'.repeat(max)) });
    expect(capIssues(fits, /is cut/)).toEqual([]);
    expect(chartSvg.mock.calls[0][0].labels).toEqual(['a'.repeat(max), 'a'.repeat(max)]);
    chartSvg.mockClear();
    const titled = { ...barChart('c'), title: '{{ title }}', series: [{ field: 'v', name: '{{ title }}' }] } as TemplateElement;
    const issues = issuesOf(doc([titled]), { items: items(2, () => 'b'.repeat(1_000_000)), title: 't'.repeat(max + 1) });
    expect(capIssues(issues, /is cut/).map((i) => [i.elementId, i.description])).toEqual([
      ['c', `A series name of the chart is ${max + 1} characters long; it is cut to ${max}.`],
      ['c', `A label of the chart is 1000000 characters long; it is cut to ${max}. (2 occurrences)`],
      ['c', `A title of the chart is ${max + 1} characters long; it is cut to ${max}.`],
    ]);
    const spec = chartSvg.mock.calls[0][0];
    expect(spec.labels.map((l) => Array.from(l).length)).toEqual([max, max]);
    expect(spec.title).toBe(`${'t'.repeat(max - 1)}…`);
  });
});

/** `length` characters of one-letter words: text a line may break in, so the Markdown caps apply and not the unbroken-run cap. */
const words = (letter: string, length: number): string => `${letter} `.repeat(Math.ceil(length / 2)).slice(0, length);

describe('document caps on Markdown (maxMarkdownChars, maxMarkdownCharsPerDocument, maxMarkdownLinesPerDocument)', () => {
  const rich = (id: string, markdown = '{{ note | markdown }}'): TemplateElement => ({ type: 'richText', id, markdown }) as TemplateElement;

  it(`a rich text of ${DocumentCaps.maxMarkdownChars} characters with its values is parsed; one character more is refused unparsed`, () => {
    const parse = jest.spyOn(MarkdownIt.prototype, 'parse');
    // the template text "x " is two characters of the Markdown
    const fits = issuesOf(doc([rich('note', 'x {{ note | markdown }}')]), { note: words('a', DocumentCaps.maxMarkdownChars - 2) });
    expect(capIssues(fits, /left out/)).toEqual([]);
    parse.mockClear();
    const issues = issuesOf(doc([rich('note', 'x {{ note | markdown }}')]), { note: words('a', DocumentCaps.maxMarkdownChars - 1) });
    expect(capIssues(issues, /left out/)).toEqual([
      expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, severity: IssueSeverity.Warning, elementId: 'note', description: expect.stringContaining('50,001 characters long') }),
    ]);
    expect(parse).not.toHaveBeenCalled();
    expect(compileDocument({ template: doc([rich('note', 'x {{ note | markdown }}')]), data: { note: words('a', DocumentCaps.maxMarkdownChars) } }).html).not.toContain('a a a a');
  });

  it(`the rich texts of a document have ${DocumentCaps.maxMarkdownCharsPerDocument} characters in all`, () => {
    const half = words('a', DocumentCaps.maxMarkdownChars);
    expect(capIssues(issuesOf(doc([rich('a'), rich('b')]), { note: half }), /left out/)).toEqual([]);
    const issues = issuesOf(doc([rich('a'), rich('b'), rich('c', 'c')]), { note: half });
    expect(capIssues(issues, /left out/)).toEqual([expect.objectContaining({ elementId: 'c', description: expect.stringContaining('past 100,000 characters') })]);
  });

  it(`the rich texts of a document have ${DocumentCaps.maxMarkdownLinesPerDocument} lines in all (each line a paragraph, item or break for Chromium to lay out)`, () => {
    const lines = (n: number): string => Array.from({ length: n }, () => 'a').join('\n');
    const parse = jest.spyOn(MarkdownIt.prototype, 'parse');
    expect(capIssues(issuesOf(doc([rich('a')]), { note: lines(DocumentCaps.maxMarkdownLinesPerDocument) }), /left out/)).toEqual([]);
    parse.mockClear();
    const issues = issuesOf(doc([rich('a')]), { note: lines(DocumentCaps.maxMarkdownLinesPerDocument + 1) });
    expect(capIssues(issues, /left out/)).toEqual([expect.objectContaining({ elementId: 'a', description: expect.stringContaining('past 3,000 lines') })]);
    expect(parse).not.toHaveBeenCalled();
  });

  it('a rich text in a repeater counts each time it is drawn', () => {
    const repeated = { type: 'repeater', id: 'notes', source: 'notes', elements: [rich('n', '{{ item | markdown }}')] } as TemplateElement;
    const notes = Array.from({ length: 3 }, () => words('b', 40_000));
    const issues = issuesOf(doc([repeated]), { notes });
    expect(capIssues(issues, /left out/)).toEqual([expect.objectContaining({ elementId: 'n', description: expect.stringContaining('past 100,000 characters (80,000 so far)') })]);
  });
});

describe('nested emphasis (issue 31: 0.3 MB of pathological Markdown)', () => {
  it('emphasis inside emphasis of the same kind is dropped, which prints the same: 24,000 stars make one <strong>, not 12,000', () => {
    // in the template's own text: a value's run of 48,001 characters would be cut to the unbroken-run cap first
    const rich = { type: 'richText', id: 'note', markdown: `${'*'.repeat(24_000)}a${'*'.repeat(24_000)}\n\n**bold *it ~~s **b2** x~~ y* z**` } as TemplateElement;
    const html = compileDocument({ template: doc([rich]), data: {} }).html;
    expect(html).toContain('<p><strong>a</strong></p>');
    expect(html).toContain('<p><strong>bold <em>it <s>s b2 x</s> y</em> z</strong></p>');
  });
});

describe('Markdown images (issue 31: "Markdown image syntax from data becomes a clickable link")', () => {
  it('an image in Markdown from data or from the template is its alt text: no link, no image, an issue naming the element', () => {
    const template = doc([{ type: 'richText', id: 'note', markdown: 'See ![the plan](https://example.com/plan.png)\n\n{{ note | markdown }}' } as TemplateElement]);
    const compiled = compileDocument({ template, data: { note: 'Look: ![*logo*](https://evil.example/x.png) and [a link](https://example.com)' } });
    expect(compiled.html).toContain('<p>See the plan</p>');
    expect(compiled.html).toContain('Look: logo and <a href="https://example.com">a link</a>');
    expect(compiled.html).not.toContain('evil.example');
    expect(compiled.html).not.toContain('plan.png');
    expect(compiled.issues.map((i) => [i.type, i.elementId, i.description])).toEqual([
      [RenderIssueType.BindingFailedAtRender, 'note', 'The Markdown image "![the plan](https://example.com/plan.png)" is not shown (rich text has no images: use an image element); its alt text is shown, without a link.'],
      [RenderIssueType.BindingFailedAtRender, 'note', 'The Markdown image "![logo](https://evil.example/x.png)" is not shown (rich text has no images: use an image element); its alt text is shown, without a link.'],
    ]);
  });
});

describe('document caps on image pixels (maxImagePixels, maxImagePixelsPerDocument), from the header', () => {
  const png = (width: number, height: number): string => `data:image/png;base64,${pngHeader(width, height).toString('base64')}`;
  const image = (id: string, source = '{{ src }}'): TemplateElement => ({ type: 'image', id, source, width: '20mm' }) as TemplateElement;

  it(`an image of ${DocumentCaps.maxImagePixels / 1e6} megapixels is handed on; one pixel row more is refused, naming the element`, () => {
    const fits = compileDocument({ template: doc([image('photo')]), data: { src: png(10_000, 5_000) } });
    expect(capIssues(fits.issues, /too large/)).toEqual([]);
    expect(fits.html).toContain(png(10_000, 5_000));
    const refused = compileDocument({ template: doc([image('photo')]), data: { src: png(10_000, 5_001) } });
    expect(refused.issues).toEqual([
      expect.objectContaining({
        type: RenderIssueType.UnresolvedImage,
        elementId: 'photo',
        description: 'The image cannot be shown: the data URI is too large to print: it is 10,000 × 5,001 pixels (50 megapixels); an image may have 50 megapixels.',
      }),
    ]);
    expect(refused.html).not.toContain('data:image/png');
    expect(validateDocument({ template: doc([image('photo')]), data: { src: png(10_000, 5_001) } })).toEqual(refused.issues);
  });

  it('a fetched image (images) is sized the same way; a 20,000 × 20,000 PNG is refused', () => {
    const template = doc([image('logo', 'https://cdn.example/big.png')]);
    const images = new Map([['https://cdn.example/big.png', { dataUri: png(20_000, 20_000) }]]);
    const compiled = compileDocument({ template, data: {}, images });
    expect(compiled.issues).toEqual([expect.objectContaining({ elementId: 'logo', description: expect.stringContaining('https://cdn.example/big.png is too large to print: it is 20,000 × 20,000 pixels (400 megapixels)') })]);
    expect(compiled.html).not.toContain('data:image/png');
  });

  it(`the images of a document have ${DocumentCaps.maxImagePixelsPerDocument / 1e6} megapixels in all; an image used again counts once`, () => {
    const body = [image('a', '{{ a }}'), image('b', '{{ b }}'), image('c', '{{ c }}'), image('again', '{{ a }}'), image('d', '{{ d }}')];
    const data = { a: png(10_000, 5_000), b: png(5_000, 10_000), c: png(10_000, 4_999), d: png(1, 10_001) };
    const issues = compileDocument({ template: doc(body), data }).issues;
    expect(issues).toEqual([expect.objectContaining({ elementId: 'd', description: expect.stringContaining('past 150 megapixels') })]);
  });
});

describe('lengths no longer than the sheet, percentages up to 100 % (issue 31: "a spacer, barcode, image or chart of 1,000,000 mm")', () => {
  it.each([
    ['spacer', { type: 'spacer', id: 'x', height: '1000000mm' }, 'height 1000000mm (1000000 mm) is longer than the sheet (297 mm)'],
    ['barcode', { type: 'barcode', id: 'x', format: 'qr', value: 'a', height: '1000000mm' }, 'height 1000000mm'],
    ['image', { type: 'image', id: 'x', source: 'data:image/png;base64,AAAA', height: '100000cm' }, 'height 100000cm (1000000 mm)'],
    ['chart', { type: 'chart', id: 'x', chartType: 'bar', source: 'items', labelField: 'l', series: [{ field: 'v' }], height: '1000000mm' }, 'height 1000000mm'],
    ['qrCode in points', { type: 'qrCode', id: 'x', value: 'a', size: 100_000 }, 'size 100000pt (35277.8 mm)'],
    ['style padding', { type: 'text', id: 'x', text: 'a', style: { padding: ['1mm', '1000mm'] } }, 'style.padding[1] 1000mm'],
    ['table column', { type: 'table', id: 'x', source: 'items', columns: [{ id: 'a', value: 'a', width: '300mm' }] }, 'columns[0].width 300mm'],
    ['position', { type: 'text', id: 'x', text: 'a', position: { x: '10mm', y: '2m' } }, null],
    ['percentage', { type: 'box', id: 'x', width: '101%' }, 'width 101% is more than 100 %'],
  ])('%s: left out before it is drawn, naming the element', (_name, element, reason) => {
    codeSvg.mockImplementation(() => CHEAP_SVG);
    chartSvg.mockImplementation(() => CHEAP_SVG);
    const template = doc([element as TemplateElement]);
    if (reason === null) {
      // "2m" is not a length: the schema refuses the template
      expect(() => compileDocument({ template, data: {} })).toThrow(/not valid/);
      return;
    }
    const compiled = compileDocument({ template, data: { items: [{ l: 'a', v: 1 }] } });
    expect(compiled.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.RenderLayoutDegraded, severity: IssueSeverity.Warning, elementId: 'x', description: expect.stringContaining(reason) }),
    ]);
    expect(compiled.issues[0].description).toMatch(/; the element is left out\.$/);
    expect(compiled.html).not.toMatch(/<body>.+<\/body>/s);
    expect(codeSvg).not.toHaveBeenCalled();
    expect(chartSvg).not.toHaveBeenCalled();
    expect(validateDocument({ template, data: { items: [] } })).toEqual([expect.objectContaining({ elementId: 'x', description: compiled.issues[0].description })]);
  });

  it('a spacer as long as the sheet, and a width of 100 %, are drawn', () => {
    const compiled = compileDocument({ template: doc([{ type: 'spacer', id: 's', height: '297mm' }, { type: 'box', id: 'b', width: '100%' }] as TemplateElement[]), data: {} });
    expect(compiled.issues).toEqual([]);
    expect(compiled.html).toContain('height:297mm');
  });

  it('a watermark wider than the sheet is left out, named by its page setting', () => {
    const png = `data:image/png;base64,${pngHeader(10, 10).toString('base64')}`;
    const template = doc([], { page: { watermark: [{ text: 'DRAFT' }, { image: png, width: '1000000mm', pages: 'first' }] } });
    const compiled = compileDocument({ template, data: {} });
    expect(compiled.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.RenderLayoutDegraded, elementId: null, description: 'The width 1000000mm of page.watermark[1] is longer than the sheet (297 mm); the watermark is left out.' }),
    ]);
    expect(compiled.html).not.toContain(png);
    expect(compiled.html).toContain('DRAFT');
  });

  it('the sheet is the one the template prints on: 400 mm fits an A3 in landscape', () => {
    const spacer = [{ type: 'spacer', id: 's', height: '420mm' }] as TemplateElement[];
    expect(compileDocument({ template: doc(spacer, { page: { size: 'A3', orientation: 'landscape' } }), data: {} }).issues).toEqual([]);
    expect(compileDocument({ template: doc(spacer), data: {} }).issues).toEqual([expect.objectContaining({ elementId: 's' })]);
  });
});

describe('page sizes outside the supported range (issue 31: "printed on A4 without an issue")', () => {
  it.each([
    ['1 mm', { width: '1mm', height: '1mm' }, 'page.size 1 mm × 1 mm is outside the supported range'],
    ['10 m', { width: '10000mm', height: '297mm' }, 'page.size 10000 mm × 297 mm is outside the supported range'],
    ['a percentage', { width: '50%', height: '100mm' }, 'page.size 50% × 100 mm is outside the supported range'],
  ])('%s is a Warning naming page.size, printed on A4', (_name, size, description) => {
    const compiled = compileDocument({ template: doc([], { page: { size } }), data: {} });
    expect(compiled.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.RenderLayoutDegraded, severity: IssueSeverity.Warning, elementId: null, description: expect.stringContaining(description) }),
    ]);
    expect(compiled.page).toMatchObject({ widthMm: 210, heightMm: 297 });
    expect(validateDocument({ template: doc([], { page: { size } }), data: {} })).toEqual(compiled.issues);
  });

  it('20 mm and 5,000 mm, the ends of the range, print as written', () => {
    const compiled = compileDocument({ template: doc([], { page: { size: { width: '20mm', height: '5000mm' }, margins: '2mm' } }), data: {} });
    expect(compiled.issues).toEqual([]);
    expect(compiled.page).toMatchObject({ widthMm: 20, heightMm: 5000 });
  });
});

describe('fuzz (fast-check, pinned seed): every document either stays within the caps or gets the issue naming each element past them', () => {
  type Part =
    | { kind: 'code'; format: 'qr' | 'aztec' | 'datamatrix' | 'pdf417' | 'code128'; bytes: number }
    | { kind: 'chart'; items: number; series: number; pie: boolean }
    | { kind: 'markdown'; lineLength: number; lines: number }
    | { kind: 'spacer'; mm: number }
    | { kind: 'image'; width: number; height: number };

  const part: fc.Arbitrary<Part> = fc.oneof(
    fc.record({ kind: fc.constant('code' as const), format: fc.constantFrom('qr' as const, 'aztec' as const, 'datamatrix' as const, 'pdf417' as const, 'code128' as const), bytes: fc.integer({ min: 1, max: 4000 }) }),
    fc.record({ kind: fc.constant('chart' as const), items: fc.integer({ min: 1, max: 1500 }), series: fc.integer({ min: 1, max: 3 }), pie: fc.boolean() }),
    fc.record({ kind: fc.constant('markdown' as const), lineLength: fc.integer({ min: 1, max: 30_000 }), lines: fc.integer({ min: 1, max: 2_500 }) }).filter((m) => m.lineLength * m.lines < 80_000),
    fc.record({ kind: fc.constant('spacer' as const), mm: fc.integer({ min: 0, max: 600 }) }),
    fc.record({ kind: fc.constant('image' as const), width: fc.integer({ min: 1, max: 20_000 }), height: fc.integer({ min: 1, max: 20_000 }) }),
  );

  /** The caps as docs/template-dsl.md states them, applied in document order: the ids that must be refused. */
  function expectedRefusals(parts: Part[]): Set<string> {
    const refused = new Set<string>();
    let codes = 0;
    let codeBytes = 0;
    let charts = 0;
    let points = 0;
    let mdChars = 0;
    let mdLines = 0;
    let pixels = 0;
    const seenImages = new Set<string>();
    parts.forEach((p, i) => {
      const id = `e${i}`;
      switch (p.kind) {
        case 'code': {
          const weights = DocumentCaps.codeByteWeight;
          const counted = p.bytes * (p.format === 'code128' ? weights.linear : weights[p.format]);
          if (codes >= DocumentCaps.maxCodes || codeBytes + counted > DocumentCaps.maxCodeBytes) refused.add(id);
          else [codes, codeBytes] = [codes + 1, codeBytes + counted];
          break;
        }
        case 'chart': {
          const drawn = p.pie ? DocumentCaps.pieSliceWeight * Math.min(p.items, DocumentCaps.maxPieSlices) : p.series * Math.min(p.items, DocumentCaps.maxChartItems);
          if (charts >= DocumentCaps.maxCharts || points + drawn > DocumentCaps.maxChartPoints) refused.add(id);
          else [charts, points] = [charts + 1, points + drawn];
          break;
        }
        case 'markdown': {
          const chars = p.lineLength * p.lines + p.lines - 1;
          if (chars > DocumentCaps.maxMarkdownChars || mdChars + chars > DocumentCaps.maxMarkdownCharsPerDocument || mdLines + p.lines > DocumentCaps.maxMarkdownLinesPerDocument) refused.add(id);
          else [mdChars, mdLines] = [mdChars + chars, mdLines + p.lines];
          break;
        }
        case 'spacer':
          if (p.mm > 297) refused.add(id);
          break;
        case 'image': {
          const key = `${p.width}x${p.height}`;
          if (seenImages.has(key)) break;
          const n = p.width * p.height;
          if (n > DocumentCaps.maxImagePixels || pixels + n > DocumentCaps.maxImagePixelsPerDocument) refused.add(id);
          else {
            pixels += n;
            seenImages.add(key);
          }
          break;
        }
      }
    });
    return refused;
  }

  function documentOf(parts: Part[]): { template: Template; data: Record<string, unknown> } {
    const data: Record<string, unknown> = {};
    const body = parts.map((p, i): TemplateElement => {
      const id = `e${i}`;
      switch (p.kind) {
        case 'code':
          data[id] = '7'.repeat(p.bytes);
          return { type: 'barcode', id, format: p.format, value: `{{ ${id} }}` } as TemplateElement;
        case 'chart':
          data[id] = Array.from({ length: p.items }, (_, k) => ({ l: `${k}`, a: k, b: k, c: k }));
          return { type: 'chart', id, chartType: p.pie ? 'pie' : 'line', source: id, labelField: 'l', series: ['a', 'b', 'c'].slice(0, p.series).map((field) => ({ field })) } as TemplateElement;
        case 'markdown':
          data[id] = Array.from({ length: p.lines }, () => words('m', p.lineLength)).join('\n');
          return { type: 'richText', id, markdown: `{{ ${id} | markdown }}` } as TemplateElement;
        case 'spacer':
          return { type: 'spacer', id, height: `${p.mm}mm` } as TemplateElement;
        case 'image':
          data[id] = `data:image/png;base64,${pngHeader(p.width, p.height).toString('base64')}`;
          return { type: 'image', id, source: `{{ ${id} }}`, width: '10mm' } as TemplateElement;
      }
    });
    return { template: { body }, data };
  }

  const CAP_ISSUE = /is not drawn: (?:the document|its)|cannot be drawn: (?:the document|its)|rich text is left out|too large to print|; the element is left out\.$/;

  it('the elements with a cap issue are exactly those past a cap, in render and validate alike', () => {
    codeSvg.mockImplementation(() => CHEAP_SVG);
    chartSvg.mockImplementation(() => CHEAP_SVG);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 40 }), (parts) => {
        const { template, data } = documentOf(parts);
        const issues = compileDocument({ template, data }).issues;
        const flagged = new Set(issues.filter((i) => CAP_ISSUE.test(i.description)).map((i) => i.elementId));
        expect([...flagged].sort()).toEqual([...expectedRefusals(parts)].sort());
        expect(validateDocument({ template, data }).filter((i) => CAP_ISSUE.test(i.description))).toEqual(issues.filter((i) => CAP_ISSUE.test(i.description)));
      }),
      { seed: 31_2026, numRuns: 60 },
    );
  });
});

describe('issue 31: a run of a value that offers no place to break a line is capped (DocumentCaps.maxUnbrokenChars)', () => {
  const cap = DocumentCaps.maxUnbrokenChars;
  const template = doc([{ type: 'table', id: 'cells', source: 'rows', columns: [{ id: 'word', header: 'Word', value: '{{ item }}' }] }]);

  it('a 200,000-character word is cut to the cap with one Warning per binding naming the element; what it shows ends with an ellipsis', () => {
    const word = 'W'.repeat(200_000);
    const issues = issuesOf(template, { rows: [word, word] });
    expect(issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, severity: IssueSeverity.Warning, elementId: 'cells', description: expect.stringContaining('a run of 200,000 characters with no place to break a line') }),
    ]);
    const html = compileDocument({ template, data: { rows: [word] } }).html;
    expect(html).toContain(`${'W'.repeat(cap - 1)}…`);
    expect(html).not.toContain('W'.repeat(cap));
  });

  it('runs at the cap, runs a line may break inside (spaces, hyphens, Chinese, Thai) and long text of words are left whole, without an issue', () => {
    const values = ['W'.repeat(cap), `${'W'.repeat(cap)} ${'W'.repeat(cap)}`, `${'W'.repeat(cap)}-${'W'.repeat(cap)}`, '汉字'.repeat(cap), 'ภาษาไทย'.repeat(cap), 'lorem ipsum '.repeat(10_000)];
    expect(issuesOf(template, { rows: values })).toEqual([]);
  });

  it('a no-break space joins: words joined by it count as one run', () => {
    const joined = Array.from({ length: cap }, () => 'ab').join('\u00a0');
    expect(capIssues(issuesOf(template, { rows: [joined] }), /no place to break a line/)).toHaveLength(1);
  });

  it('rich text: a value bound as text or as Markdown is held to the same cap, with the Warning naming the rich text', () => {
    const word = 'W'.repeat(50_000);
    for (const markdown of ['Note: {{ note }}', '{{ note | markdown }}']) {
      const rich = doc([{ type: 'richText', id: 'note', markdown }]);
      const issues = issuesOf(rich, { note: `see ${word}` });
      expect(capIssues(issues, /a run of 50,000 characters with no place to break a line/)).toEqual([expect.objectContaining({ severity: IssueSeverity.Warning, elementId: 'note' })]);
      const html = compileDocument({ template: rich, data: { note: `see ${word}` } }).html;
      expect(html).toContain(`${'W'.repeat(cap - 1)}…`);
      expect(html).not.toContain('W'.repeat(cap));
    }
  });
});
