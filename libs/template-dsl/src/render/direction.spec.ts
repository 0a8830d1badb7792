import { RenderIssueType } from '@docrender/contracts';
import { TemplateElement, Template } from '../model/template.types';
import { validateTemplate } from '../schema/validate-template';
import { compileDocument } from './compile-document';
import { firstStrongDirection, languageDirection } from './direction';

const AR = 'البند الثاني';
const doc = (body: TemplateElement[], data: unknown = {}, extra: Partial<Template> = {}, language?: string) =>
  compileDocument({ template: { dsl: 1, body, ...extra }, data, language });
const bodyOf = (html: string): string => html.slice(html.indexOf('<body>') + 6, html.indexOf('</body>'));

describe('issue 33 item 1: direction', () => {
  it('the document takes the direction of the render language (ar, he, fa, ur) unless the template sets one', () => {
    expect(['ar', 'he', 'fa', 'ur', 'ar-SA', 'ckb'].map(languageDirection)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'de-DE', 'ja', 'zh-Hant', 'not a tag', null].map(languageDirection)).toEqual(['ltr', 'ltr', 'ltr', 'ltr', 'ltr', 'ltr']);
    const body: TemplateElement[] = [{ type: 'text', id: 't', text: '{{ t("x") }}' }];
    const translations = { defaultLanguage: 'en', languages: { en: { strings: { x: 'Hello' } }, ar: { locale: 'ar-SA', strings: { x: 'مرحبا' } } } };
    const compile = (language: string, direction?: Template['direction']) =>
      compileDocument({ template: { dsl: 1, body, ...(direction ? { direction } : {}) }, data: {}, translations, language }).html;
    expect(compile('ar')).toContain('<html lang="ar-SA" dir="rtl">');
    expect(compile('en')).toContain('<html lang="en" dir="ltr">');
    expect(compile('ar', 'ltr')).toContain('<html lang="ar-SA" dir="ltr">');
    expect(compile('en', 'rtl')).toContain('<html lang="en" dir="rtl">');
    // the locale speaks for a template without translations
    expect(doc(body, {}, { locale: 'he-IL' }).html).toContain('<html lang="he-IL" dir="rtl">');
  });

  it('a text without a direction takes the first letter of its own words\', else its surroundings\' (values are isolated)', () => {
    expect(firstStrongDirection('12. Cloud')).toBe('ltr');
    expect(firstStrongDirection(`(3) ${AR}`)).toBe('rtl');
    expect(firstStrongDirection('שלום')).toBe('rtl');
    expect(firstStrongDirection('42 € – 7')).toBeNull();
    const html = bodyOf(
      doc(
        [
          { type: 'text', id: 'ar', text: `${AR}: Cloud Plan S.` },
          { type: 'text', id: 'en', text: 'Customer: {{ name }}' },
          { type: 'text', id: 'bound', text: '{{ name }}' },
          { type: 'text', id: 'digits', text: '{{ n }}' },
          { type: 'text', id: 'forced', text: 'Cloud Plan S', direction: 'rtl' },
        ],
        { name: 'شركة الأفق', n: 5 },
      ).html,
    );
    expect(html).toBe(
      `<p dir="rtl" class="t">${AR}: Cloud Plan S.</p>` +
        '<p class="t">Customer: <bdi>شركة الأفق</bdi></p>' +
        '<p class="t"><bdi>شركة الأفق</bdi></p>' +
        '<p class="t"><nobr>5</nobr></p>' +
        '<p dir="rtl" class="t">Cloud Plan S</p>',
    );
  });

  it('in right-to-left text every bound value with letters is isolated, and numbers and amounts read left to right', () => {
    const html = bodyOf(
      doc([{ type: 'text', id: 'p', text: 'العميل: {{ name }} — المبلغ {{ total | currency }} — الرصيد {{ balance }}' }], { name: 'ACME Ltd.', total: 1150, balance: -5 }, {
        currency: 'SAR',
        locale: 'en-US',
        direction: 'rtl',
      }).html,
    );
    const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'SAR' }).format(1150);
    expect(html).toBe(`<p class="t">العميل: <bdi>ACME Ltd.</bdi> — المبلغ <nobr dir="ltr">${amount}</nobr> — الرصيد <nobr dir="ltr">-5</nobr></p>`);
  });

  it('an amount formatted in Arabic (Arabic letters in it) is isolated by its own first letter, on one line', () => {
    const html = bodyOf(doc([{ type: 'text', id: 'p', text: 'الإجمالي {{ total | currency }}' }], { total: 1150 }, { currency: 'SAR', locale: 'ar-SA' }).html);
    expect(html).toMatch(/^<p class="t">الإجمالي <bdi class="nb">[^<]*ر\.س[^<]*<\/bdi><\/p>$/u);
  });

  it('tables, rows, lists and bands follow the document direction; an element may set its own', () => {
    const compiled = doc(
      [
        {
          type: 'table',
          id: 'lines',
          source: 'lines',
          columns: [
            { id: 'd', header: 'الوصف', value: '{{ item.d }}' },
            { id: 'a', header: 'المبلغ', value: '{{ item.a | number(2) }}', align: 'end' },
          ],
        },
        { type: 'row', id: 'en', direction: 'ltr', elements: [{ type: 'text', id: 'x', text: '{{ code }}' }] },
        { type: 'richText', id: 'md', markdown: '- بند\n- بند آخر' },
      ],
      { lines: [{ d: 'Cloud Plan S', a: 100 }], code: 'INV-2026-0001' },
      { direction: 'rtl', page: { footer: { elements: [{ type: 'text', id: 'f', text: 'صفحة {{ pageNumber }} من {{ totalPages }}' }] } } },
    );
    expect(compiled.issues).toEqual([]);
    const html = bodyOf(compiled.html);
    // the table inherits rtl from <html dir>: the first column is on the right, cells start on the right
    expect(html).toContain(
      '<table><thead><tr><th class="s1">الوصف</th><th class="s3">المبلغ</th></tr></thead><tbody><tr><td class="s2"><bdi>Cloud Plan S</bdi></td><td class="s4"><nobr dir="ltr">100.00</nobr></td></tr>',
    );
    expect(compiled.html).toMatch(/\.s4\{[^}]*text-align:end[^}]*\}/);
    expect(compiled.html).toContain('th,td{padding:2pt 4pt;text-align:start;');
    expect(compiled.html).toContain('.md ul,.md ol{padding-inline-start:16pt}');
    expect(html).toContain('<div dir="ltr" class="s7"><p class="t s6"><nobr>INV-2026-0001</nobr></p></div>');
    expect(html).toContain('<div class="md"><ul>');
    expect(compiled.footerHtml).toContain('<div class="fband" dir="rtl"><p class="t">صفحة <span class="pageNumber"></span> من <span class="totalPages"></span></p></div>');
  });

  it('a header or footer takes its own direction (a variant its own, else the band\'s), its text, tables and counters mirroring with it', () => {
    const counter = { type: 'text' as const, id: 'n', text: '{{ pageNumber }} / {{ totalPages }}' };
    const compiled = doc([{ type: 'text', id: 'b', text: 'Body' }], { name: 'ACME Ltd.' }, {
      page: {
        header: { direction: 'rtl', elements: [{ type: 'text', id: 'h', text: 'العميل: {{ name }}' }, counter] },
        footer: { elements: [{ type: 'text', id: 'f', text: '{{ name }}' }], first: { direction: 'rtl', elements: [{ type: 'text', id: 'f1', text: '{{ name }}' }] } },
      },
    });
    expect(compiled.issues).toEqual([]);
    expect(compiled.html).toContain('<html lang="en-US" dir="ltr">');
    // the header is right to left in a left-to-right document: its Latin value is isolated, its counters are in its order
    expect(compiled.headerHtml).toContain('<div class="hband" dir="rtl"><p class="t">العميل: <bdi>ACME Ltd.</bdi></p><p class="t"><span class="pageNumber"></span> / <span class="totalPages"></span></p></div>');
    // the footer's first-page variant is right to left, the other pages' footer follows the document
    const footerDir = (n: number): string | undefined => compiled.pageVariant?.(n, 3).footerHtml?.match(/<div class="fband" dir="(\w+)">/)?.[1];
    expect([footerDir(1), footerDir(2)]).toEqual(['rtl', 'ltr']);
    const ltrDocument = doc([], {}, { direction: 'rtl', page: { footer: { direction: 'ltr', elements: [{ type: 'text', id: 'f', text: 'Page {{ pageNumber }}' }] } } });
    expect(ltrDocument.html).toContain('dir="rtl"');
    expect(ltrDocument.footerHtml).toContain('<div class="fband" dir="ltr"><p class="t">Page <span class="pageNumber"></span></p></div>');
    expect(validateTemplate({ dsl: 1, body: [], page: { header: { direction: 'sideways', elements: [] } } }).ok).toBe(false);
  });

  it('a placed element is measured from the right edge of the sheet in a right-to-left document', () => {
    const template = (direction: Template['direction']): Template => ({
      dsl: 1,
      direction,
      page: { margins: { left: '30mm', right: '10mm' } },
      body: [{ type: 'box', id: 'stamp', position: { x: '20mm', y: '40mm' }, width: '30mm', height: '10mm' }],
    });
    const ltr = compileDocument({ template: template('ltr'), data: {} });
    expect(ltr.issues.map((i) => [i.type, i.elementId, i.description])).toEqual([
      [RenderIssueType.InvalidLayout, 'stamp', 'position (20mm, 40mm) lies in the left or top margin (30 mm, 20 mm), where Chromium cuts the content off; the element is placed at the margin.'],
    ]);
    expect(ltr.html).toMatch(/\.s1\{[^}]*position:absolute;left:0mm;top:calc\(40mm - 20mm\)/);
    expect(ltr.html).not.toContain('right:calc(');
    const rtl = compileDocument({ template: template('rtl'), data: {} });
    expect(rtl.issues).toEqual([]);
    expect(rtl.html).toContain('.s1{left:auto;right:calc(20mm - 10mm)}');
  });

  it('the schema takes direction on the template and on elements, start and end alignments, and nothing else', () => {
    const ok: Template = {
      dsl: 1,
      direction: 'auto',
      defaultStyle: { textAlign: 'start' },
      body: [
        { type: 'text', id: 't', text: 'x', direction: 'rtl', style: { textAlign: 'end' } },
        { type: 'image', id: 'i', source: 'data:image/png;base64,AA==', align: 'end' },
        { type: 'table', id: 'tb', source: 'x', direction: 'ltr', columns: [{ id: 'c', value: 'x', align: 'start' }] },
      ],
    };
    expect(validateTemplate(ok).ok).toBe(true);
    expect(validateTemplate({ dsl: 1, direction: 'right', body: [] }).ok).toBe(false);
    expect(validateTemplate({ dsl: 1, body: [{ type: 'pageBreak', id: 'p', direction: 'rtl' }] }).ok).toBe(false);
  });
});

describe('issue 33 item 4: numbers, amounts, dates and codes never break inside', () => {
  it('numbers, formatter outputs and codes are kept on one line; prose and multi-line values wrap', () => {
    const html = bodyOf(
      doc(
        [
          {
            type: 'text',
            id: 'p',
            text: [
              '{{ n }}',
              "{{ d | date('long') }}",
              '{{ iso }}',
              '{{ iban }}',
              '{{ ref }}',
              '{{ amount }}',
              '{{ prose }}',
              '{{ lines }}',
              '{{ word }}',
            ].join('|'),
          },
        ],
        {
          n: 1234567,
          d: '2026-01-01',
          iso: '01/01/2026',
          iban: 'DE89 3704 0044 0532 0130 00',
          ref: 'INV-2026-00042',
          amount: '1 234,50 SAR',
          prose: 'Delivered on 3 pallets to the north gate',
          lines: '€239.75\n€4,800.45',
          word: 'Cloud',
        },
        { locale: 'en-GB' },
      ).html,
    );
    expect(html).toBe(
      '<p class="t">' +
        [
          '<nobr>1234567</nobr>',
          '<nobr>1 January 2026</nobr>',
          '<nobr>01/01/2026</nobr>',
          '<nobr>DE89 3704 0044 0532 0130 00</nobr>',
          '<nobr>INV-2026-00042</nobr>',
          '<nobr>1 234,50 SAR</nobr>',
          'Delivered on 3 pallets to the north gate',
          '€239.75\n€4,800.45',
          'Cloud',
        ].join('|') +
        '</p>',
    );
  });
});

describe('issue 33 item 1: direction of rich text', () => {
  it('rich text takes the first letter of its own words; its bound values are isolated and its numbers kept on one line', () => {
    const html = bodyOf(
      doc([{ type: 'richText', id: 'md', markdown: '**ملاحظات.** {{ note }} [{{ mail }}](mailto:{{ mail }}) {{ n }}' }], { note: 'Payment within 30 days.', mail: 'billing@acme.example', n: 30 }).html,
    );
    expect(html).toBe(
      '<div dir="rtl" class="md"><p><strong>ملاحظات.</strong> <bdi>Payment within 30 days.</bdi> <a href="mailto:billing@acme.example"><bdi>billing@acme.example</bdi></a> <nobr dir="ltr">30</nobr></p>\n</div>',
    );
  });
});
