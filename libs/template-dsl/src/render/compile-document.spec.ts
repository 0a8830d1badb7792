import { ISSUE_SEVERITY, RenderIssueType } from '@docrender/contracts';
import { Template, TemplateElement } from '../model/template.types';
import { CompileInput, compileDocument, fontFamiliesOf, imageReferencesOf, validateDocument } from './compile-document';
import { InvalidTemplateError } from './prepared-template';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WOFF2 = `data:font/woff2;base64,${Buffer.from('wOF2\u0000\u0001\u0000\u0000 pretend font data').toString('base64')}`;

const template = (body: TemplateElement[], extra: Partial<Template> = {}): Template => ({ body, ...extra });
const text = (id: string, value: string, extra: Partial<TemplateElement> = {}): TemplateElement => ({ type: 'text', id, text: value, ...extra }) as TemplateElement;

interface IssueCase {
  type: RenderIssueType;
  elementId: string | null;
  input: CompileInput;
}

/** One case per issue type of spec 7.3 that the template compiler raises. */
const ISSUE_CASES: IssueCase[] = [
  { type: RenderIssueType.InvalidJson, elementId: null, input: { template: template([text('t', 'x')]), data: '{"number": ' } },
  {
    type: RenderIssueType.SchemaInvalid,
    elementId: null,
    input: { template: template([text('t', '{{ number }}')], { dataSchema: { type: 'object', required: ['number'] } }), data: { numbr: 1 } },
  },
  { type: RenderIssueType.DangerousContent, elementId: null, input: { template: template([text('t', '{{ note }}')]), data: { note: '<script>alert(1)</script>' } } },
  {
    type: RenderIssueType.InvalidPageBackground,
    elementId: null,
    input: { template: template([text('t', 'x')], { page: { background: { source: 'asset:frame' } } }), data: {}, images: new Map([['asset:frame', { error: 'no such asset' }]]) },
  },
  { type: RenderIssueType.MissingBinding, elementId: 'greeting', input: { template: template([text('greeting', 'Dear {{ customer.name }}')]), data: { customer: {} } } },
  {
    type: RenderIssueType.UnresolvedImage,
    elementId: 'logo',
    input: {
      template: template([{ type: 'image', id: 'logo', source: 'https://cdn.example/logo.png' }]),
      data: {},
      images: new Map([['https://cdn.example/logo.png', { error: 'HTTP 404' }]]),
    },
  },
  { type: RenderIssueType.UnresolvedFont, elementId: 'fancy', input: { template: template([text('fancy', 'x', { style: { fontFamily: 'Comic Neue' } })]), data: {} } },
  { type: RenderIssueType.InvalidColor, elementId: 'coloured', input: { template: template([text('coloured', 'x', { style: { color: 'reddish' } })]), data: {} } },
  {
    type: RenderIssueType.InvalidColor,
    elementId: 'parcel-code',
    input: { template: template([{ type: 'barcode', id: 'parcel-code', format: 'code128', value: '123456', backgroundColor: 'reddish' }]), data: {} },
  },
  { type: RenderIssueType.InvalidCondition, elementId: 'conditional', input: { template: template([text('conditional', 'x', { visibleIf: 'total >' })]), data: {} } },
  {
    type: RenderIssueType.DataSourceNotEnumerable,
    elementId: 'items-table',
    input: { template: template([{ type: 'table', id: 'items-table', source: 'items', columns: [{ id: 'c', value: '{{ item }}' }] }]), data: { items: { a: 1 } } },
  },
  {
    type: RenderIssueType.InvalidChartConfig,
    elementId: 'sales-chart',
    input: {
      template: template([{ type: 'chart', id: 'sales-chart', chartType: 'bar', source: 'sales', labelField: 'month', series: [{ field: 'revenue' }] }]),
      data: { sales: [{ month: 'Jan', revenue: 'lots' }] },
    },
  },
  {
    type: RenderIssueType.BindingFailedAtRender,
    elementId: 'ean',
    input: { template: template([{ type: 'barcode', id: 'ean', format: 'ean13', value: '{{ gtin }}' }]), data: { gtin: '4006381333932' } },
  },
  {
    type: RenderIssueType.RenderLayoutDegraded,
    elementId: 'wide-table',
    input: {
      template: template([
        { type: 'table', id: 'wide-table', source: 'items', columns: [{ id: 'a', value: 'x', width: '150mm' }, { id: 'b', value: 'y', width: '150mm' }] },
      ]),
      data: { items: [] },
    },
  },
  { type: RenderIssueType.UnformattedValue, elementId: 'total', input: { template: template([text('total', "{{ total | currency('EUR') }}")]), data: { total: 'twelve' } } },
  {
    type: RenderIssueType.InvalidLayout,
    elementId: 'break-in-row',
    input: { template: template([{ type: 'row', id: 'r', elements: [text('a', 'x'), { type: 'pageBreak', id: 'break-in-row' }] }]), data: {} },
  },
];

describe('compileDocument issues (spec 7.3: type, severity, elementId)', () => {
  it('covers every issue type except RenderTimeout, which the renderer raises', () => {
    const covered = new Set(ISSUE_CASES.map((c) => c.type));
    const expected = Object.values(RenderIssueType).filter((t) => t !== RenderIssueType.RenderTimeout);
    expect([...covered].sort()).toEqual([...expected].sort());
  });

  it.each(ISSUE_CASES.map((c) => [c.type, c] as const))('7.3: %s has the spec severity and the elementId of the element concerned', (_type, c) => {
    const { issues } = compileDocument(c.input);
    expect(issues).toEqual(
      expect.arrayContaining([{ type: c.type, severity: ISSUE_SEVERITY[c.type], elementId: c.elementId, documentIndex: null, description: expect.any(String) }]),
    );
    const issue = issues.find((i) => i.type === c.type);
    expect(issue?.description.length).toBeGreaterThan(20);
    expect(issues.some((i) => i.type === RenderIssueType.RenderTimeout)).toBe(false);
  });

  it.each(ISSUE_CASES.map((c) => [c.type, c] as const))('4.4: validation finds %s too, without producing a document', (_type, c) => {
    const issues = validateDocument(c.input);
    expect(issues).toEqual(expect.arrayContaining([expect.objectContaining({ type: c.type, elementId: c.elementId })]));
  });

  it('4.4: validation does no network: an image that was not handed in is assumed fine; a render reports it', () => {
    const input: CompileInput = { template: template([{ type: 'image', id: 'logo', source: 'https://cdn.example/logo.png' }]), data: {} };
    expect(validateDocument(input)).toEqual([]);
    expect(compileDocument(input).issues.map((i) => i.type)).toEqual([RenderIssueType.UnresolvedImage]);
  });

  it('a clean document has no issues', () => {
    expect(compileDocument({ template: template([text('t', 'Hello {{ name }}')]), data: { name: 'Ada' } }).issues).toEqual([]);
  });

  it('7.3: a condition that is false leaves the element out; one that fails is reported and leaves it out', () => {
    const doc = compileDocument({
      template: template([text('paid', 'PAID', { visibleIf: 'paid' }), text('due', 'DUE', { visibleIf: 'not paid' }), text('odd', 'ODD', { visibleIf: 'total + "x" > 1 >' })]),
      data: { paid: false },
    });
    expect(doc.html).toContain('DUE');
    expect(doc.html).not.toContain('PAID');
    expect(doc.html).not.toContain('ODD');
  });

  it('throws InvalidTemplateError only for a template validateTemplate rejects', () => {
    expect(() => compileDocument({ template: { body: [{ type: 'nope' }] } as unknown as Template, data: {} })).toThrow(InvalidTemplateError);
  });
});

describe('compiled HTML is safe by construction (spec 1.1 safety)', () => {
  const hostile = '</style><script>alert(1)</script>"><img src=x onerror=alert(2)>';
  const everywhere = template(
    [
      text('t', '{{ v }}'),
      { type: 'richText', id: 'md', markdown: 'Note: {{ v }} and [link]({{ url }}) and [x](javascript:alert(3))' },
      { type: 'image', id: 'img', source: '{{ url }}', alt: '{{ v }}' },
      { type: 'table', id: 'tbl', source: 'rows', columns: [{ id: 'c', header: '{{ v }}', value: '{{ item.v }}', style: { color: '{{ item.colour }}' } }] },
      { type: 'qrCode', id: 'qr', value: '{{ v }}' },
      { type: 'barcode', id: 'bar', format: 'code128', value: 'ABC' },
      { type: 'chart', id: 'ch', chartType: 'bar', source: 'rows', labelField: 'v', series: [{ field: 'n', name: '{{ v }}' }], title: '{{ v }}' },
    ],
    { title: '{{ v }}', page: { header: { elements: [text('h', '{{ v }} {{ pageNumber }}')] }, footer: { elements: [text('f', '{{ v }}')] } } },
  );
  const data = {
    v: hostile,
    url: 'javascript:alert(4)',
    rows: [{ v: hostile, n: 1, colour: 'red;background:url(https://evil.example/x.png)' }, { v: '{{constructor}}', n: 2, colour: 'expression(alert(5))' }],
  };
  const doc = compileDocument({ template: everywhere, data, watermark: hostile });
  const all = `${doc.html}\n${doc.headerHtml ?? ''}\n${doc.footerHtml ?? ''}`;

  it('1.1: hostile strings render as inert text everywhere', () => {
    expect(all).not.toMatch(/<script/i);
    expect(all).not.toMatch(/<img src=x/i);
    expect(all).not.toMatch(/<[a-z][^>]*\sonerror=/i);
    expect(all).toContain('&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(doc.html.match(/<\/style>/g)).toHaveLength(1);
  });

  it('1.1: javascript: URLs never become links or image sources', () => {
    expect(all).not.toMatch(/href="javascript/i);
    expect(all).not.toMatch(/src="javascript/i);
    expect(doc.issues).toEqual(expect.arrayContaining([expect.objectContaining({ type: RenderIssueType.UnresolvedImage, elementId: 'img' })]));
  });

  it('1.1: CSS injection through a bound colour is refused, not written', () => {
    expect(all).not.toContain('evil.example');
    expect(all).not.toContain('expression(');
    expect(doc.issues.filter((i) => i.type === RenderIssueType.InvalidColor)).toHaveLength(2);
  });

  it('1.1: data that looks like a binding is shown, never evaluated', () => {
    expect(all).toContain('{{constructor}}');
  });

  it('1.1: the document is self-contained and needs no JavaScript', () => {
    expect(doc.needsJavaScript).toBe(false);
    expect(all).not.toMatch(/\s(src|href)="(?!data:)/i);
    expect(all).not.toMatch(/url\(\s*["']?(?!data:|#)/i);
    expect(all).not.toMatch(/@import|<link|<iframe|<object|<embed|<base/i);
    expect(doc.html).toContain(`default-src 'none'`);
  });

  it('compiles deterministically: the same input gives the same HTML', () => {
    const again = compileDocument({ template: everywhere, data, watermark: hostile });
    expect(again).toEqual(doc);
  });
});

describe('page setup, header and footer (spec 1.1)', () => {
  it.each([
    ['A4', undefined, 210, 297],
    ['A5', undefined, 148, 210],
    ['Letter', undefined, 215.9, 279.4],
    ['Legal', 'landscape', 355.6, 215.9],
  ] as const)('%s %s is %d × %d mm', (size, orientation, w, h) => {
    const doc = compileDocument({ template: template([], { page: { size, orientation } }), data: {} });
    expect(doc.page).toMatchObject({ widthMm: w, heightMm: h, landscape: orientation === 'landscape' });
    expect(doc.html).toContain(`@page{size:${w}mm ${h}mm`);
  });

  it('a custom size and per-side margins in mixed units', () => {
    const doc = compileDocument({ template: template([], { page: { size: { width: '100mm', height: '6in' }, margins: { top: '1cm', right: 36, bottom: '12mm', left: '0.5in' } } }), data: {} });
    expect(doc.page).toEqual({ widthMm: 100, heightMm: 152.4, landscape: false, marginMm: { top: 10, right: 12.7, bottom: 12, left: 12.7 } });
  });

  it('the header and footer repeat page number and page count through Chromium spans; margins grow to fit them', () => {
    const doc = compileDocument({
      template: template([text('t', 'x')], {
        page: { margins: '10mm', header: { height: '15mm', elements: [text('h', 'Page {{ pageNumber }} of {{ totalPages }}')] }, footer: { elements: [text('f', '{{ company }}')] } },
      }),
      data: { company: 'ACME' },
    });
    expect(doc.headerHtml).toContain('Page <span class="pageNumber"></span> of <span class="totalPages"></span>');
    expect(doc.footerHtml).toContain('ACME');
    // Chromium draws the header from 20 CSS px (5.292 mm) below the edge: the margin grows to hold it.
    expect(doc.page.marginMm.top).toBe(20.292);
    expect(doc.headerHtml).toContain('.hband{width:100%;height:15mm;');
    expect(doc.footerHtml).toContain('.fband{width:100%;height:4.708mm;');
    expect(doc.issues.map((i) => i.type)).toEqual([RenderIssueType.InvalidLayout]);
  });

  it('a page background covers the first page or all pages', () => {
    const first = compileDocument({ template: template([], { page: { background: { source: PNG, pages: 'first' } } }), data: {} });
    expect(first.html).toMatch(/@page :first\{background:url\("data:image\/svg\+xml,/);
    const all = compileDocument({ template: template([], { page: { background: { source: '{{ bg }}' } } }), data: { bg: PNG } });
    expect(all.html).toMatch(/@page\{background:url\("data:image\/svg\+xml,/);
    expect(all.issues).toEqual([]);
  });

  it('7.3: a background that is not an image is InvalidPageBackground (Error)', () => {
    const doc = compileDocument({ template: template([], { page: { background: { source: 'data:image/png;base64,SGVsbG8gd29ybGQ=' } } }), data: {} });
    expect(doc.issues).toEqual([expect.objectContaining({ type: RenderIssueType.InvalidPageBackground, severity: 'Error' })]);
    expect(doc.html).not.toContain('background:url');
  });

  it('a watermark is a diagonal text on every page (fixed position)', () => {
    const doc = compileDocument({ template: template([text('t', 'x')]), data: {}, watermark: 'TEST' });
    expect(doc.html).toContain('<div class="wm" aria-hidden="true">TEST</div>');
    expect(doc.html).toMatch(/\.wm\{position:fixed;[^}]*rotate\(-35deg\)/);
  });

  it('the watermarks fixed on every page, as resolved for the data, are the document\'s fixedMarkup, written first in the body', () => {
    const stamped = template([text('t', 'x')], { page: { watermark: { text: '{{ status }}', fontSize: 60 } } });
    const paid = compileDocument({ template: stamped, data: { status: 'PAID' }, watermark: 'TEST' });
    const open = compileDocument({ template: stamped, data: { status: 'OPEN' }, watermark: 'TEST' });
    expect(paid.fixedMarkup).toBe('<div class="wm" aria-hidden="true">TEST</div><div class="uw0" aria-hidden="true">PAID</div>');
    expect(paid.html).toContain(`<body>${paid.fixedMarkup}<`);
    // the same styles, another stamp: the batch printer tells such documents apart by it (batchPrintKey)
    expect(open.fixedMarkup).not.toBe(paid.fixedMarkup);
    expect(open.html.slice(0, open.html.indexOf('</head>'))).toBe(paid.html.slice(0, paid.html.indexOf('</head>')));
    expect(compileDocument({ template: template([text('t', 'x')]), data: {} }).fixedMarkup).toBe('');
  });

  it('tagged output is a template option, false by default', () => {
    expect(compileDocument({ template: template([]), data: {} }).tagged).toBe(false);
    expect(compileDocument({ template: template([], { tagged: true }), data: {} }).tagged).toBe(true);
  });
});

describe('images (spec 1.1: the library does no network I/O)', () => {
  const withImages = template([
    { type: 'image', id: 'logo', source: 'asset:logo' },
    { type: 'repeater', id: 'photos', source: 'photos', elements: [{ type: 'image', id: 'photo', source: '{{ item.url }}' }] },
    { type: 'image', id: 'inline', source: PNG },
  ]);
  const data = { photos: [{ url: 'https://cdn.example/a.png' }, { url: 'http://cdn.example/b.png' }, { url: 'https://cdn.example/a.png' }] };

  it('imageReferencesOf lists https URLs and assets compile will need, once each, in document order', () => {
    expect(imageReferencesOf(withImages, data)).toEqual(['asset:logo', 'https://cdn.example/a.png']);
    expect(imageReferencesOf(withImages, data, { allowHttpImages: true })).toEqual(['asset:logo', 'https://cdn.example/a.png', 'http://cdn.example/b.png']);
  });

  it('imageReferencesOf finds the page background and header images, and nothing in a template without either', () => {
    const background = template([text('t', 'x')], { page: { background: { source: '{{ frame }}' } } });
    const header = template([text('t', 'x')], { page: { header: { elements: [{ type: 'image', id: 'mark', source: 'asset:mark' }] } } });
    expect(imageReferencesOf(background, { frame: 'asset:frame' })).toEqual(['asset:frame']);
    expect(imageReferencesOf(header, {})).toEqual(['asset:mark']);
    expect(imageReferencesOf(template([text('t', '{{ url }}')]), { url: 'https://cdn.example/a.png' })).toEqual([]);
  });

  it('compile uses the images handed in and refuses http unless allowed', () => {
    const images = new Map([
      ['asset:logo', { dataUri: PNG }],
      ['https://cdn.example/a.png', { dataUri: PNG }],
      ['http://cdn.example/b.png', { dataUri: PNG }],
    ]);
    const strict = compileDocument({ template: withImages, data, images });
    expect(strict.issues).toEqual([expect.objectContaining({ type: RenderIssueType.UnresolvedImage, elementId: 'photo', description: expect.stringContaining('http') })]);
    const relaxed = compileDocument({ template: withImages, data, images, allowHttpImages: true });
    expect(relaxed.issues).toEqual([]);
    expect(relaxed.html.match(/<img /g)).toHaveLength(5);
  });

  it('a fetched file that is not an image is UnresolvedImage', () => {
    const images = new Map([['asset:logo', { dataUri: 'data:image/png;base64,PGh0bWw+PC9odG1sPg==' }]]);
    const doc = compileDocument({ template: template([{ type: 'image', id: 'logo', source: 'asset:logo' }]), data: {}, images });
    expect(doc.issues).toEqual([expect.objectContaining({ type: RenderIssueType.UnresolvedImage, elementId: 'logo' })]);
  });
});

describe('fonts (spec 1.1: built-in families embedded, custom families per variant)', () => {
  const styled = template([text('a', 'Regular'), text('b', 'Bold italic', { style: { fontWeight: 700, italic: true } }), text('c', 'Brand', { style: { fontFamily: 'Brand Sans' } })], {
    defaultStyle: { fontFamily: 'serif' },
  });

  it('fontFamiliesOf names every face used, generic names mapped to the built-ins', () => {
    expect(fontFamiliesOf(styled)).toEqual([
      { family: 'Noto Serif', weight: 400, style: 'normal' },
      { family: 'Noto Serif', weight: 700, style: 'italic' },
      { family: 'Brand Sans', weight: 400, style: 'normal' },
    ]);
  });

  it('built-in faces are embedded as data URIs; a custom family is embedded from its file', () => {
    const doc = compileDocument({ template: styled, data: {}, customFonts: [{ family: 'Brand Sans', weight: 400, style: 'normal', dataUri: WOFF2 }] });
    expect(doc.issues).toEqual([]);
    expect(doc.html).toMatch(/@font-face\{font-family:'Noto Serif';font-style:italic;font-weight:700;[^}]*src:url\(data:font\/woff2;base64,/);
    expect(doc.html).toContain(`@font-face{font-family:'Brand Sans';font-style:normal;font-weight:400;font-display:block;src:url(${WOFF2.replace('font/woff2', 'font/woff2')}) format('woff2')}`);
  });

  it('7.3: a custom family without the requested variant is UnresolvedFont', () => {
    const bold = template([text('c', 'Brand', { style: { fontFamily: 'Brand Sans', fontWeight: 'bold' } })]);
    const doc = compileDocument({ template: bold, data: {}, customFonts: [{ family: 'Brand Sans', weight: 400, style: 'normal', dataUri: WOFF2 }] });
    expect(doc.issues).toEqual([expect.objectContaining({ type: RenderIssueType.UnresolvedFont, elementId: 'c', description: expect.stringContaining('weight 700 normal') })]);
  });

  it('an unknown family stands in for the default font, so no system font is consulted', () => {
    const doc = compileDocument({ template: template([text('c', 'x', { style: { fontFamily: 'Comic Neue' } })]), data: {} });
    expect(doc.html).toMatch(/@font-face\{font-family:'Comic Neue';[^}]*src:url\(data:font\/woff2/);
  });

  it('subsets beyond Latin are embedded only when the text needs them', () => {
    const latin = compileDocument({ template: template([text('t', '{{ name }}')]), data: { name: 'Ada' } });
    const cyrillic = compileDocument({ template: template([text('t', '{{ name }}')]), data: { name: 'Анна' } });
    expect(latin.html.match(/@font-face/g)).toHaveLength(1);
    expect(cyrillic.html.match(/@font-face/g)).toHaveLength(2);
  });
});

describe('document names (spec 2.4: no extension, safe for a file name)', () => {
  it('the name pattern uses bindings and is made safe; the title defaults to it', () => {
    const doc = compileDocument({
      template: template([]),
      data: { number: '2026/42', customer: { name: 'ACME: "Ltd" <HQ>' } },
      documentNameTemplate: 'Invoice {{ number }} - {{ customer.name }}.pdf',
    });
    expect(doc.documentName).toBe('Invoice 2026-42 - ACME- -Ltd- -HQ-');
    expect(doc.title).toBe(doc.documentName);
  });

  it('falls back to the fallback name when the pattern renders nothing', () => {
    expect(compileDocument({ template: template([]), data: {}, documentNameTemplate: '{{ missing }}', fallbackDocumentName: 'Invoice' }).documentName).toBe('Invoice');
  });
});
