import { RenderIssueType } from '@docrender/contracts';
import { Template, TemplateElement } from '../model/template.types';
import { validateTemplate } from '../schema/validate-template';
import { compileDocument, validateDocument } from './compile-document';
import { hyphenateHtml, patternFileFor } from './hyphenation';

const shown = (html: string): string => html.replace(/\u00ad/g, '|');

describe('issue 33 item 4: hyphenation by language', () => {
  it('finds the patterns of a language tag by language-script, language-region, then language; none for Thai, Chinese, Arabic', () => {
    expect(['de-CH', 'de', 'en-GB', 'en-US', 'en', 'sr-Latn-RS', 'sr', 'el-GR', 'fr-CA'].map(patternFileFor)).toEqual([
      'de-1996', 'de-1996', 'en-gb', 'en-us', 'en-us', 'sh-latn', 'sr-cyrl', 'el-monoton', 'fr',
    ]);
    expect(['th', 'zh-Hans', 'ar-SA', 'ja', 'not a tag'].map(patternFileFor)).toEqual([null, null, null, null, null]);
  });

  it('puts soft hyphens in the words of the text, never in kept values, code, codes, numbers or addresses', () => {
    const de = hyphenateHtml('Donaudampfschiff &amp; Rechnungsnummer <nobr>Rechnungsnummer</nobr> <bdi class="nb">Rechnungsnummer</bdi> <bdi>Kapitänsmütze</bdi>', 'de-1996');
    expect(shown(de)).toBe('Do|nau|dampf|schiff &amp; Rech|nungs|num|mer <nobr>Rechnungsnummer</nobr> <bdi class="nb">Rechnungsnummer</bdi> <bdi>Ka|pi|täns|müt|ze</bdi>');
    const en = hyphenateHtml('beautiful <a href="https://x.test">representation</a> <code>representation</code><br>representation RX2000representation https://example.com/representation www.representation.org info@representation.com', 'en-us');
    expect(shown(en)).toBe(
      'beau|ti|ful <a href="https://x.test">rep|re|sen|ta|tion</a> <code>representation</code><br>rep|re|sen|ta|tion RX2000representation https://example.com/representation www.representation.org info@representation.com',
    );
  });

  it('hyphenates the texts, rich texts and table cells whose style asks for it (inherited), in the document language', () => {
    const body: TemplateElement[] = [
      { type: 'text', id: 'plain', text: 'Rechnungsnummer' },
      { type: 'box', id: 'narrow', style: { hyphenate: true }, elements: [{ type: 'text', id: 'inner', text: 'Rechnungsnummer {{ number }} vom {{ date | date }}' }] },
      { type: 'richText', id: 'md', style: { hyphenate: true }, markdown: '**Rechnungsnummer** `Rechnungsnummer`' },
      {
        type: 'table',
        id: 'lines',
        source: 'lines',
        columns: [
          { id: 'd', header: 'Leistungsbeschreibung', value: '{{ item.d }}', style: { hyphenate: true } },
          { id: 'a', header: 'Gesamtbetrag', value: '{{ item.a | currency }}', style: { hyphenate: true } },
        ],
      },
    ];
    const template: Template = { dsl: 1, locale: 'de-DE', currency: 'EUR', body };
    const compiled = compileDocument({ template, data: { number: 'RE-2026-00042', date: '2026-03-01', lines: [{ d: 'Softwarewartungsvertrag', a: 1234.5 }] } });
    expect(compiled.issues).toEqual([]);
    const html = shown(compiled.html.slice(compiled.html.indexOf('<body>')));
    expect(html).toContain('<p class="t">Rechnungsnummer</p>');
    expect(html).toContain('<p class="t">Rech|nungs|num|mer <nobr>RE-2026-00042</nobr> vom <nobr>01.03.2026</nobr></p>');
    expect(html).toContain('<strong>Rech|nungs|num|mer</strong> <code>Rechnungsnummer</code>');
    // the header inherits the table's style (no hyphenate), the cells the column's; the amount is kept whole
    expect(html).toMatch(/<th[^>]*>Leistungsbeschreibung<\/th>/);
    expect(html).toMatch(/<td[^>]*>Soft\|ware\|war\|tungs\|ver\|trag<\/td><td[^>]*><nobr>1\.234,50\u00a0€<\/nobr><\/td>/);
    expect(validateTemplate({ dsl: 1, body: [{ type: 'text', id: 't', text: 'x', style: { hyphenate: 'yes' } }] }).ok).toBe(false);
  });

  it('an element\'s lang decides its hyphenation and is written on it (its CJK forms follow it in print); a page break has none', () => {
    const body: TemplateElement[] = [
      { type: 'text', id: 'en', text: 'representation', style: { hyphenate: true } },
      { type: 'box', id: 'de', lang: 'de-CH', style: { hyphenate: true }, elements: [{ type: 'text', id: 'inner', text: 'Rechnungsnummer' }] },
      { type: 'text', id: 'ja', lang: 'ja', text: '直骨角' },
    ];
    const html = shown(compileDocument({ template: { dsl: 1, locale: 'en-GB', body }, data: {} }).html);
    expect(html).toContain('<p class="t">rep|res|ent|a|tion</p><div lang="de-CH" class="s1"><p class="t">Rech|nungs|num|mer</p></div><p lang="ja" class="t">直骨角</p>');
    expect(validateTemplate({ dsl: 1, body: [{ type: 'text', id: 't', text: 'x', lang: 'not a tag' }] }).ok).toBe(false);
    expect(validateTemplate({ dsl: 1, body: [{ type: 'pageBreak', id: 'p', lang: 'de' }] }).ok).toBe(false);
  });

  it('a language without patterns asked to hyphenate is an issue naming the element, in render and validate', () => {
    const template: Template = { dsl: 1, locale: 'th-TH', body: [{ type: 'text', id: 'thai', text: 'ภาษาไทย', style: { hyphenate: true } }] };
    const expected = [
      [RenderIssueType.InvalidLayout, 'thai', 'hyphenate asks for hyphenation, but the service has no hyphenation patterns for the language "th-TH"; the text is not hyphenated.'],
    ];
    expect(compileDocument({ template, data: {} }).issues.map((i) => [i.type, i.elementId, i.description])).toEqual(expected);
    expect(validateDocument({ template, data: {} }).map((i) => [i.type, i.elementId, i.description])).toEqual(expected);
  });

  it('hyphenation is charged to the step budget by the length of the text: past the budget the text is not hyphenated, and the element is named', () => {
    // 3,000,000 characters each (words with digits are never hyphenated, so the test hyphenates little and runs fast)
    const long = `${'A1 '.repeat(1_000_000)}Rechnungsnummer`;
    const body: TemplateElement[] = ['p1', 'p2'].map((id) => ({ type: 'text', id, text: '{{ long }}', style: { hyphenate: true } }));
    const compiled = compileDocument({ template: { dsl: 1, locale: 'de', body }, data: { long } });
    expect(compiled.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, elementId: 'p2', description: expect.stringMatching(/^Expressions stopped: the document's expressions and drawing took more than 5,000,000/) }),
    ]);
    const [first, second] = compiled.html.split('<p class="t">').slice(1);
    expect(first).toMatch(/A1 Rech\u00adnungs\u00adnum\u00admer<\/p>/);
    expect(second).toMatch(/A1 Rechnungsnummer<\/p>/);
  });
});
