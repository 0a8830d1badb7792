import { parseAmount } from './parse-amount';

describe('issue 31: parseNumber reads text amounts with the separators of a locale (Intl), never by guessing', () => {
  it.each([
    // the measured invoice lines: "12,50", "1.234,50", "€ 3" in a German document
    ['12,50', 'de-DE', 12.5],
    ['1.234,50', 'de-DE', 1234.5],
    ['€ 3', 'de-DE', 3],
    ['-1.234,50 €', 'de-DE', -1234.5],
    ['1234,5', 'de-DE', 1234.5],
    ['1.234', 'de-DE', 1234],
    ['1,234.50', 'en-US', 1234.5],
    ['$1,234.50', 'en-US', 1234.5],
    ['-$3', 'en-US', -3],
    ['EUR 3.10', 'en-US', 3.1],
    ['3.10 EUR', 'en-US', 3.1],
    ['1.234', 'en-US', 1.234],
    ['1\u202f234,50', 'fr-FR', 1234.5],
    ['1 234,50', 'fr-FR', 1234.5],
    ["1'234.50", 'de-CH', 1234.5],
    ['12,34,567.50', 'en-IN', 1234567.5],
    ['0', 'en-US', 0],
  ])('%s in %s is %d', (text, locale, expected) => {
    expect(parseAmount(text, locale)).toBe(expected);
  });

  it.each([
    // another locale's separators are not an amount here, whatever the digits suggest
    ['1,234.50', 'de-DE'],
    ['12,50', 'en-US'],
    ['12.50', 'de-DE'],
    ['1,2345', 'en-US'],
    ['1.2.3', 'en-US'],
    ['12,5,0', 'de-DE'],
    ['twelve', 'en-US'],
    ['€ € 3', 'de-DE'],
    ['--3', 'en-US'],
    ['3 apples', 'en-US'],
    ['', 'en-US'],
    ['€', 'en-US'],
    ['1,', 'de-DE'],
    ['9'.repeat(401), 'en-US'],
  ])('%s in %s is not an amount', (text, locale) => {
    expect(parseAmount(text, locale)).toBeNull();
  });
});
