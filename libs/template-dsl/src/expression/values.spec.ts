import fc from 'fast-check';
import { cleanNumber } from './values';

describe('cleanNumber', () => {
  it('is the number rounded to 15 significant digits through its text, for every number (the integer shortcut changes nothing)', () => {
    const numbers = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.constantFrom(0, -0, 1e15 - 1, 1e15, -1e15, 1e15 + 1, 2 ** 53, 0.1 + 0.2, 19.99 * 3, Infinity, -Infinity, NaN),
    );
    fc.assert(
      fc.property(numbers, (n) => {
        expect(Object.is(cleanNumber(n), Number.isFinite(n) ? Number(n.toPrecision(15)) : n)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
