import { RenderIssueType } from '@docrender/contracts';
import { Template } from '../model/template.types';
import { validateTemplate } from '../schema/validate-template';
import { type BreakRowsData, expandBreakRows } from './break-rows';
import { compileDocument } from './compile-document';

/** The break rows after every row of table 0 of a compiled document, as a printer puts them in (expandBreakRows). */
function breakRowsHtml(html: string): string {
  const text = /<template class="xd" data-t="0">([^<]*)<\/template>/.exec(html)?.[1] ?? '';
  const data = JSON.parse(text.replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as BreakRowsData;
  return data.r.map((_, row) => expandBreakRows(data, 0, row)).join('');
}

/** A two-column ledger table of `rows` (text, amount) with these lines at page breaks. */
const ledger = (pageBreaks: NonNullable<Extract<Template['body'][number], { type: 'table' }>['pageBreaks']>): Template => ({
  body: [
    {
      type: 'table',
      id: 'ledger',
      source: 'rows',
      as: 'r',
      columns: [
        { id: 'text', value: '{{ r.text }}' },
        { id: 'amount', value: '{{ r.amount }}' },
      ],
      pageBreaks,
    },
  ],
});
const LEDGER_ROWS = [
  { text: 'a', amount: 1.5 },
  { text: 'b', amount: 2 },
  { text: 'c', amount: 4 },
];

const types = (template: Template): [RenderIssueType, string | null][] =>
  compileDocument({ template, data: {} }).issues.map((i) => [i.type, i.elementId]);

describe('issue 20: page roles and page counters in bands', () => {
  const template: Template = {
    page: {
      header: {
        elements: [{ type: 'text', id: 'rest', text: 'Continued' }],
        first: { elements: [{ type: 'text', id: 'head-first', text: 'Letterhead' }] },
        last: { elements: [{ type: 'text', id: 'head-last', text: 'Last page' }] },
      },
      footer: {
        elements: [
          { type: 'text', id: 'later', visibleIf: 'pageNumber > 1', text: 'Page {{ pageNumber }} of {{ totalPages }}' },
          { type: 'text', id: 'only-first', visibleIf: 'pageNumber == 1', text: 'Registered office' },
        ],
      },
    },
    body: [{ type: 'text', id: 'b', text: 'x' }],
  };

  it('item 1: first beats last, last beats the default; conditions read the page counters (no InvalidCondition)', () => {
    const compiled = compileDocument({ template, data: {} });
    expect(compiled.issues).toEqual([]);
    const variant = compiled.pageVariant;
    if (!variant) throw new Error('the pages of this template differ');
    expect(variant(1, 1).headerHtml).toContain('Letterhead');
    expect(variant(2, 3).headerHtml).toContain('Continued');
    expect(variant(3, 3).headerHtml).toContain('Last page');
    expect(variant(1, 3).footerHtml).not.toContain('Page');
    expect(variant(1, 3).footerHtml).toContain('Registered office');
    expect(variant(2, 3).footerHtml).not.toContain('Registered office');
    expect(variant(2, 3).footerHtml).toContain('Page <span class="pageNumber"></span> of <span class="totalPages"></span>');
  });

  it('item 1: t() with the page counters as arguments gives the counters, not "Page of", on a band alike on every page', () => {
    const compiled = compileDocument({
      template: { page: { footer: { elements: [{ type: 'text', id: 'f', text: "{{ t('p', pageNumber, totalPages) }}" }] } }, body: [] },
      data: {},
      translations: { defaultLanguage: 'en', languages: { en: { strings: { p: 'Page {0} of {1}' } } } },
    });
    expect(compiled.pageVariant).toBeNull();
    expect(compiled.footerHtml).toContain('Page <span class="pageNumber"></span> of <span class="totalPages"></span>');
  });

  it('item 1: a page counter in a band where Chromium cannot fill it in (an expression, a formatter, alt text, a code) is an InvalidLayout naming the element; shown as is, as a t() argument or as a data field of that name it is not', () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC';
    const compiled = compileDocument({
      template: {
        page: {
          footer: {
            elements: [
              { type: 'text', id: 'shown', text: 'Page {{ pageNumber }} of {{ totalPages }}' },
              { type: 'text', id: 'translated', text: "{{ t('p', pageNumber, totalPages) }}" },
              { type: 'text', id: 'field', text: '{{ item.pageNumber }}' },
              { type: 'text', id: 'sum', text: '{{ pageNumber + 1 }}' },
              { type: 'text', id: 'formatted', text: '{{ totalPages | number(1) }}' },
              { type: 'qrCode', id: 'code', value: 'p{{ pageNumber }}' },
              { type: 'image', id: 'alt', source: png, alt: 'page {{ pageNumber }}' },
            ],
          },
        },
        body: [],
      },
      data: { item: { pageNumber: 3 } },
      translations: { defaultLanguage: 'en', languages: { en: { strings: { p: 'Page {0} of {1}' } } } },
    });
    expect(compiled.issues.filter((i) => i.type === RenderIssueType.InvalidLayout).map((i) => i.elementId)).toEqual(['sum', 'formatted', 'code', 'alt']);
  });

  it('item 6: what cannot be honoured is reported naming the element', () => {
    expect(
      types({
        tagged: true,
        page: {
          header: {
            elements: [
              { type: 'text', id: 'placed', text: 'x', position: { x: '1mm', y: '1mm' }, pageBreakAfter: true },
              { type: 'text', id: 'kept', text: 'x', keepTogether: true, orphans: 3 },
            ],
            odd: { elements: [] },
          },
          watermark: [{ text: 'A' }, { text: 'B' }],
        },
        body: [
          { type: 'row', id: 'r', elements: [{ type: 'text', id: 'in-row', text: 'x', pageBreakBefore: true }] },
          { type: 'text', id: 'spaced', text: 'x', style: { letterSpacing: '10%' } },
          { type: 'text', id: 'in-margin', text: 'x', position: { x: '5mm', y: '50mm' } },
        ],
      }),
    ).toEqual(
      expect.arrayContaining([
        [RenderIssueType.InvalidLayout, 'placed'],
        [RenderIssueType.InvalidLayout, 'in-row'],
        [RenderIssueType.InvalidLayout, 'kept'],
        [RenderIssueType.InvalidLayout, 'spaced'],
        [RenderIssueType.InvalidLayout, 'in-margin'],
        [RenderIssueType.InvalidLayout, null],
        [RenderIssueType.RenderLayoutDegraded, null],
      ]),
    );
  });

  it('item 4: a watermark has text or an image, not both and not neither', () => {
    const result = validateTemplate({ page: { watermark: { pages: 'all' } }, body: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toEqual([{ path: '$.page.watermark', message: 'needs either "text" or "image"' }]);
  });

  it('item 5: a line keeps its length in a row; text keeps spaces and spacing; page breaks before and after', () => {
    const html = compileDocument({
      template: {
        body: [
          { type: 'row', id: 'r', elements: [{ type: 'line', id: 'l', length: '30mm' }, { type: 'text', id: 't', text: 'a   b', style: { whiteSpace: 'preserve', letterSpacing: '2pt' } }] },
          { type: 'text', id: 'p', text: 'x', pageBreakBefore: true, pageBreakAfter: true },
        ],
      },
      data: {},
    }).html;
    expect(html).toContain('flex:0 0 30mm;width:30mm');
    expect(html).toContain('letter-spacing:2pt;white-space:pre-wrap');
    expect(html).toContain('break-before:page;break-after:page');
  });

  it('item 3: after each row but the last, the carried/brought rows (data a printer puts in at a break) hold the sum of the rows so far; a column id they name must exist', () => {
    const template = ledger({
      sums: { amount: '{{ r.amount }}' },
      carried: { text: 'Carried', amount: '{{ carried.amount }}' },
      brought: { text: 'Brought', amount: '{{ carried.amount }}' },
    });
    const compiled = compileDocument({ template, data: { rows: LEDGER_ROWS } });
    expect(compiled.issues).toEqual([]);
    expect(compiled.pageAwareTables).toBe(true);
    const breakRows = breakRowsHtml(compiled.html);
    const carried = [...breakRows.matchAll(/<tr class="xc[^"]*" data-x="0:(\d)"><td[^>]*>Carried<\/td><td[^>]*><nobr>([^<]*)<\/nobr><\/td>/g)].map((m) => [m[1], m[2]]);
    expect(carried).toEqual([
      ['0', '1.5'],
      ['1', '3.5'],
    ]);
    expect(breakRows.match(/class="xb[^"]*" data-x="0:\d"/g)).toHaveLength(2);
    const invalid = validateTemplate({ body: [{ ...template.body[0], pageBreaks: { carried: { nope: 'x' } } }] });
    expect(invalid.ok ? [] : invalid.errors).toEqual([{ path: '$.body[0].pageBreaks.carried', message: '"nope" is not a column id of this table' }]);
  });

  it('item 3: a break row piece that reads the running sums, in its text or only through its style, is drawn for each row; the others are the same for every row', () => {
    const template = ledger({
      sums: { amount: '{{ r.amount }}' },
      carried: { text: 'Carried {{ heading }}', amount: '{{ carried.amount }}' },
      brought: { text: 'Brought', amount: '{{ carried.amount }}' },
      style: { color: "{{ carried.amount > 2 ? '#ff0000' : '#000000' }}" },
    });
    const compiled = compileDocument({ template, data: { heading: 'on', rows: LEDGER_ROWS } });
    expect(compiled.issues).toEqual([]);
    const carried = [...breakRowsHtml(compiled.html).matchAll(/<tr class="xc[^"]*" style="color:([^"]*)" data-x="0:(\d)"><td[^>]*>([^<]*)<\/td><td[^>]*><nobr>([^<]*)<\/nobr><\/td>/g)];
    expect(carried.map((m) => [m[2], m[1], m[3], m[4]])).toEqual([
      ['0', '#000000', 'Carried on', '1.5'],
      ['1', '#ff0000', 'Carried on', '3.5'],
    ]);
  });

  it('issue 31: a running sum over a text amount is a Warning naming the row (money is never silently wrong); parseNumber reads it', () => {
    const table = (sum: string): Template => ({
      body: [
        {
          type: 'table',
          id: 'ledger',
          source: 'rows',
          as: 'r',
          columns: [{ id: 'amount', value: '{{ r.amount }}' }],
          pageBreaks: { sums: { amount: sum }, carried: { amount: '{{ carried.amount }}' } },
        },
      ],
    });
    const data = { rows: [{ amount: 2 }, { amount: '1.234,50' }, { amount: 3 }] };
    expect(compileDocument({ template: table('{{ r.amount }}'), data }).issues).toEqual([
      expect.objectContaining({
        type: RenderIssueType.BindingFailedAtRender,
        severity: 'Warning',
        elementId: 'ledger',
        description: 'The running sum "amount" takes numbers only, and row 2 gives text "1.234,50", which it leaves out; read text amounts with parseNumber().',
      }),
    ]);
    const parsed = compileDocument({ template: table("{{ parseNumber(r.amount, 'de-DE') }}"), data });
    expect(parsed.issues).toEqual([]);
    expect([...breakRowsHtml(parsed.html).matchAll(/data-x="0:\d"><td[^>]*><nobr>([^<]*)<\/nobr><\/td>/g)].map((m) => m[1])).toEqual(['2', '1236.5']);
  });
});
