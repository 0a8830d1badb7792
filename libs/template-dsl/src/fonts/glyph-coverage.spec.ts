import { readFileSync } from 'node:fs';
import { RenderIssueType } from '@docrender/contracts';
import { Template, TemplateElement } from '../model/template.types';
import { compileDocument, validateDocument } from '../render/compile-document';
import { CustomFontFile } from './font-registry';

const template = (body: TemplateElement[], extra: Partial<Template> = {}): Template => ({ body, ...extra }) as Template;
const fontIssues = (issues: { type: string; elementId: string | null; description: string }[]) =>
  issues.filter((i) => i.type === RenderIssueType.UnresolvedFont).map((i) => [i.elementId, i.description]);
const compiled = (body: TemplateElement[], data: unknown = {}, customFonts: CustomFontFile[] = []) => fontIssues(compileDocument({ template: template(body), data, customFonts }).issues);

/** Text in every script of the built-in set. */
const SCRIPTS = {
  latin: 'Grüße, Zoë — 12,50 €',
  greek: 'Τιμολόγιο',
  cyrillic: 'Счёт-фактура',
  arabic: 'فاتورة ضريبية',
  hebrew: 'חשבונית מס',
  devanagari: 'कर चालान',
  thai: 'ใบกำกับภาษี',
  chineseSimplified: '增值税发票',
  chineseTraditional: '統一發票',
  japanese: '納品書 カタカナ ひらがな',
  korean: '세금계산서',
};

describe('issue 33 item 3: glyph coverage is never silent', () => {
  it('text in every script of the built-in set has a glyph in the chain: no issue', () => {
    const body: TemplateElement[] = Object.entries(SCRIPTS).map(([id, text]) => ({ type: 'text', id, text }));
    expect(compiled(body)).toEqual([]);
    expect(compiled(body.map((e) => ({ ...e, style: { fontWeight: 'bold' } }) as TemplateElement))).toEqual([]);
  });

  it('a character no font can draw (U+E000) is an UnresolvedFont Warning naming the element and the code point, in render and validate', () => {
    const body: TemplateElement[] = [{ type: 'text', id: 'note', text: 'Private \uE000 use' }];
    const expected = [['note', expect.stringContaining('has a glyph for "U+E000"')]];
    expect(compiled(body)).toEqual(expected);
    const issues = validateDocument({ template: template(body), data: {} });
    expect(fontIssues(issues)).toEqual(expected);
    expect(issues.find((i) => i.type === RenderIssueType.UnresolvedFont)?.severity).toBe('Warning');
  });

  it('bound values are checked where they print, by the innermost element: a table cell, a text in a row', () => {
    const body: TemplateElement[] = [
      { type: 'table', id: 'lines', source: 'lines', as: 'l', columns: [{ id: 'name', value: '{{ l.name }}' }] },
      { type: 'row', id: 'band', elements: [{ type: 'text', id: 'inner', text: '{{ smile }} and {{ korean }}' }] },
    ];
    const issues = compiled(body, { lines: [{ name: 'ok' }, { name: 'Ա\uF8FF' }], smile: '\u{1F600}', korean: '한국어' });
    expect(issues).toEqual([
      ['lines', expect.stringContaining('U+F8FF"')],
      ['inner', expect.stringContaining('"U+1F600"')],
    ]);
    // Armenian is not in the built-in set either
    expect(issues[0][1]).toBe(
      'No font of the family chain of "Inter" (then the built-in script fonts) has a glyph for "U+0531, U+F8FF": they would print as empty boxes.',
    );
  });

  it('a custom font that has the character covers it; the same text in Inter does not', () => {
    const dejaVu: CustomFontFile = {
      family: 'Deja',
      weight: 400,
      style: 'normal',
      dataUri: `data:font/ttf;base64,${readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf').toString('base64')}`,
    };
    const armenian = 'Հաշիվ';
    expect(compiled([{ type: 'text', id: 'a', text: armenian, style: { fontFamily: 'Deja' } }], {}, [dejaVu])).toEqual([]);
    expect(compiled([{ type: 'text', id: 'a', text: armenian }], {}, [dejaVu])).toEqual([['a', expect.stringContaining('"U+0540, U+0561, U+0577, U+056B, U+057E"')]]);
    // validation gets the custom families without their files: their characters are checked when the document is rendered
    const named = { ...dejaVu, dataUri: '' };
    expect(fontIssues(validateDocument({ template: template([{ type: 'text', id: 'a', text: armenian, style: { fontFamily: 'Deja' } }]), data: {}, customFonts: [named] }))).toEqual([]);
  });

  it('a weight or style the family lacks is an issue: built-in family, and text the script fonts print', () => {
    expect(compiled([{ type: 'text', id: 'code', text: 'x', style: { fontFamily: 'monospace', fontWeight: 900 } }])).toEqual([
      ['code', 'The built-in family "Roboto Mono" has no 900 normal face (weights 100, 200, 300, 400, 500, 600, 700; italic and normal); weight 700 normal is used.'],
    ]);
    expect(compiled([{ type: 'text', id: 'ar', text: SCRIPTS.arabic, style: { fontWeight: 700 } }])).toEqual([]);
    expect(compiled([{ type: 'text', id: 'ar', text: SCRIPTS.arabic, style: { fontWeight: 300 } }])).toEqual([
      ['ar', 'Text at weight 300 normal is printed in the built-in script font "Noto Sans Arabic", which has weights 400 and 700: the nearest weight is used.'],
    ]);
    expect(compiled([{ type: 'text', id: 'ko', text: SCRIPTS.korean, style: { italic: true } }])).toEqual([
      ['ko', expect.stringContaining('"Noto Sans CJK", which has weights 400 and 700 and no italic for these characters')],
    ]);
    // Inter has every weight and italic: Latin, Greek and Cyrillic text at 300 italic is drawn as asked
    expect(compiled([{ type: 'text', id: 'el', text: SCRIPTS.greek, style: { fontWeight: 300, italic: true } }])).toEqual([]);
  });
});
