import { activeTranslations, languagesOf } from './translations';

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
