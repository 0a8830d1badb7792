import { decimalPlaces, formatDecimal, parseDecimal, percentOf, productToCent, roundToCent } from './decimal';

const d = (text: string) => parseDecimal(text) as bigint;

describe('issue 34 item 3: exact decimals for invoice amounts', () => {
  it('reads numbers and canonical text, and removes binary noise within six decimals', () => {
    expect(parseDecimal(0.1 + 0.2)).toBe(d('0.3'));
    expect(parseDecimal(59.99999999999999)).toBe(d('60'));
    expect(parseDecimal('-12.5')).toBe(-d('12.5'));
    expect(parseDecimal(' 4448.66 ')).toBe(d('4448.66'));
  });

  it('refuses what is not a canonical decimal (locale text, exponents, booleans, more than six decimals)', () => {
    for (const bad of ['1.234,50', '€ 3', '1e3', '12.', '.5', '0.1234567', true, null, {}, Number.NaN, Infinity]) expect(parseDecimal(bad)).toBeUndefined();
  });

  it('rounds half away from zero to the cent, as EN 16931 rounds VAT and line amounts', () => {
    expect(roundToCent(d('388.075'))).toBe(d('388.08'));
    expect(roundToCent(d('-388.075'))).toBe(-d('388.08'));
    expect(roundToCent(d('8.374999'))).toBe(d('8.37'));
    expect(percentOf(d('2042.50'), d('19'))).toBe(d('388.08'));
    expect(percentOf(d('119.70'), d('7'))).toBe(d('8.38'));
    expect(productToCent(d('3'), d('39.9'))).toBe(d('119.70'));
    expect(productToCent(d('7'), d('12.345'), d('10'))).toBe(d('8.64'));
  });

  it('formats with at least the decimals asked and never loses one', () => {
    expect(formatDecimal(d('1234.5'))).toBe('1234.50');
    expect(formatDecimal(d('19'), 0)).toBe('19');
    expect(formatDecimal(d('0.1234'), 2)).toBe('0.1234');
    expect(formatDecimal(-d('0.5'))).toBe('-0.50');
    expect(decimalPlaces(d('1.230'))).toBe(2);
  });
});
