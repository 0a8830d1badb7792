import { RenderIssueType } from '@docrender/contracts';
import { compileDocument } from '../render/compile-document';
import { Template } from '../model/template.types';
import { activeTranslations, formatTranslation, languagesOf } from './translations';

const translations = {
  defaultLanguage: 'en',
  languages: {
    en: { locale: 'en-GB', strings: { invoice: { title: 'Invoice' } } },
    de: { locale: 'de-DE', strings: { invoice: { title: 'Rechnung' } } },
    'pt-BR': { strings: {} },
  },
};

describe('translations (spec 4.2: a language the version does not define is 400 ValidationError)', () => {
  it('4.2: the languages a version defines are derivable, sorted', () => {
    expect(languagesOf(translations)).toEqual(['de', 'en', 'pt-BR']);
  });

  it('accepts the stored JSON text as well', () => {
    expect(languagesOf(JSON.stringify(translations))).toEqual(['de', 'en', 'pt-BR']);
  });

  it('4.2: a version without translations (or with unreadable ones) defines no language', () => {
    expect(languagesOf(null)).toEqual([]);
    expect(languagesOf('not json')).toEqual([]);
    expect(languagesOf({ en: { title: 'x' } })).toEqual([]);
    expect(languagesOf({ languages: { 'not a code!': { strings: {} } } })).toEqual([]);
  });

  it('resolves the requested language case-insensitively, else the default; the locale follows the language', () => {
    expect(activeTranslations(translations, 'DE').lookup('invoice.title')).toBe('Rechnung');
    expect(activeTranslations(translations, 'DE').locale).toBe('de-DE');
    expect(activeTranslations(translations, null).lookup('invoice.title')).toBe('Invoice');
    expect(activeTranslations(translations, 'pt-BR').locale).toBe('pt-BR');
    expect(activeTranslations(translations, 'pt-BR').lookup('invoice.title')).toBe('Invoice');
  });

  it('a nesting loop of translation objects cannot hang flattening', () => {
    const strings: Record<string, unknown> = { a: 'x' };
    strings.self = strings;
    expect(activeTranslations({ languages: { en: { strings } } }, 'en').lookup('a')).toBe('x');
  });
});

describe('translations with plurals and selects (issue 21 item 7: ICU MessageFormat)', () => {
  const items = '{0, plural, =0 {no items} one {# item} other {# items}}';

  it('issue 21 item 7: a plural string picks the form for the count, in the locale', () => {
    expect([0, 1, 2, 1234].map((n) => formatTranslation(items, [n], 'en-GB').text)).toEqual(['no items', '1 item', '2 items', '1,234 items']);
    const de = '{0, plural, one {# Position} other {# Positionen}}';
    expect([1, 2, 1234].map((n) => formatTranslation(de, [n], 'de-DE').text)).toEqual(['1 Position', '2 Positionen', '1.234 Positionen']);
    // Polish has few and many: 2–4 pozycje, 5 pozycji, 22 pozycje
    const pl = '{0, plural, one {# pozycja} few {# pozycje} many {# pozycji} other {# pozycji}}';
    expect([1, 2, 5, 22].map((n) => formatTranslation(pl, [n], 'pl-PL').text)).toEqual(['1 pozycja', '2 pozycje', '5 pozycji', '22 pozycje']);
  });

  it('issue 21 item 7: a count from data as text ("3") still selects the plural form', () => {
    expect(formatTranslation(items, ['3'], 'en-GB').text).toBe('3 items');
  });

  it('issue 21 item 7: select and named arguments (one object argument)', () => {
    const greeting = '{gender, select, female {Sehr geehrte Frau {name}} male {Sehr geehrter Herr {name}} other {Guten Tag {name}}}';
    expect(formatTranslation(greeting, [{ gender: 'female', name: 'Lovelace' }], 'de-DE').text).toBe('Sehr geehrte Frau Lovelace');
    expect(formatTranslation(greeting, [{ gender: 'x', name: 'Lovelace' }], 'de-DE').text).toBe('Guten Tag Lovelace');
  });

  it("issue 21 item 7: today's positional {0} strings are filled exactly as before", () => {
    expect(formatTranslation('Due on {0}', ['31 December 2026'], 'en-GB')).toEqual({ text: 'Due on 31 December 2026', problem: null });
    expect(formatTranslation('{1}: {0} ({2})', [1234.5, 'Total'], 'de-DE')).toEqual({ text: 'Total: 1234.5 ({2})', problem: null });
    expect(formatTranslation("Don't pay {0}", ['twice'], 'en-GB').text).toBe("Don't pay twice");
  });

  it('issue 21 item 7: a message that is not valid ICU, or lacks an argument, is filled positionally and says why', () => {
    const broken = formatTranslation('{0, plural, one {# item} other {# items}', [2], 'en-GB');
    expect(broken.text).toBe('{0, plural, one {# item} other {# items}');
    expect(broken.problem).toMatch(/not valid ICU MessageFormat/);
    expect(formatTranslation('{count, plural, one {# item} other {# items}}', [2], 'en-GB').problem).toMatch(/count/);
  });

  it('issue 21 item 7: t() in a document picks the plural form per language; a broken message is MissingBinding', () => {
    const translations = {
      defaultLanguage: 'en',
      languages: {
        en: { locale: 'en-GB', strings: { lines: items, broken: '{0, plural, one {x}' } },
        de: { locale: 'de-DE', strings: { lines: '{0, plural, =0 {keine Positionen} one {# Position} other {# Positionen}}' } },
      },
    };
    const template = { body: [{ type: 'text', id: 'count', text: "{{ t('lines', count(items)) }}" }] } as Template;
    const text = (data: unknown, language: string) => /<p class="t">([^<]*)<\/p>/.exec(compileDocument({ template, data, translations, language }).html)?.[1];
    expect(text({ items: [1] }, 'en')).toBe('1 item');
    expect(text({ items: [1, 2, 3] }, 'en')).toBe('3 items');
    expect(text({ items: [] }, 'de')).toBe('keine Positionen');
    expect(text({ items: [1, 2] }, 'de')).toBe('2 Positionen');
    const broken = compileDocument({ template: { body: [{ type: 'text', id: 'b', text: "{{ t('broken', 1) }}" }] } as Template, data: {}, translations });
    expect(broken.issues.map((i) => [i.type, i.elementId])).toEqual([[RenderIssueType.MissingBinding, 'b']]);
    expect(broken.issues[0].description).toContain('not valid ICU MessageFormat');
  });
});
