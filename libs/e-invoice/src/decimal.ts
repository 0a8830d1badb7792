/**
 * Exact decimal arithmetic for invoice amounts: a value is a bigint counting millionths. JavaScript numbers are binary
 * fractions (0.1 + 0.2 ≠ 0.3); the EN 16931 rules compare sums to the cent, so every sum and product here is exact and
 * rounding happens only where the standard rounds (line net amounts, VAT amounts: half away from zero, to the cent).
 */
export type Decimal = bigint;

const DIGITS = 6;
export const ONE: Decimal = 10n ** BigInt(DIGITS);
const CENT_DIVISOR = 10n ** BigInt(DIGITS - 2);
const CANONICAL = /^(-)?(\d{1,15})(?:\.(\d{1,6}))?$/;

/**
 * Reads a decimal from the data: a finite number (rounded to six decimals, which removes binary noise such as
 * 59.99999999999999 from a template's `qty * price` and keeps every cent), or canonical text ("1234.5", "-3", no
 * group separators, at most six decimals). Anything else is undefined: the caller reports it.
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) >= 1e15) return undefined;
    text = value.toFixed(DIGITS);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return undefined;
  }
  const m = CANONICAL.exec(text);
  if (!m) return undefined;
  const fraction = (m[3] ?? '').padEnd(DIGITS, '0');
  const magnitude = BigInt(m[2]) * ONE + BigInt(fraction);
  return m[1] ? -magnitude : magnitude;
}

/** The number of decimals the value needs (trailing zeros do not count). */
export function decimalPlaces(value: Decimal): number {
  let places = DIGITS;
  let rest = value < 0n ? -value : value;
  while (places > 0 && rest % 10n === 0n) {
    rest /= 10n;
    places--;
  }
  return places;
}

/** n / d rounded half away from zero (d > 0). */
function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** Rounded to the cent, half away from zero (the rounding of EN 16931 for amounts). */
export function roundToCent(value: Decimal): Decimal {
  return roundDiv(value, CENT_DIVISOR) * CENT_DIVISOR;
}

/** a × b ÷ c, rounded to the cent (a line net amount: quantity × price ÷ price base quantity). */
export function productToCent(a: Decimal, b: Decimal, c: Decimal = ONE): Decimal {
  return roundDiv(a * b, c * CENT_DIVISOR) * CENT_DIVISOR;
}

/** An amount at a VAT rate in percent, rounded to the cent (BR-CO-17). */
export function percentOf(amount: Decimal, ratePercent: Decimal): Decimal {
  return productToCent(amount, ratePercent, 100n * ONE);
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((a, b) => a + b, 0n);
}

/** Canonical text with at least `minPlaces` decimals: 1234.5 → "1234.50" (min 2); 19 → "19" (min 0). */
export function formatDecimal(value: Decimal, minPlaces = 2): string {
  const places = Math.max(minPlaces, decimalPlaces(value));
  const magnitude = value < 0n ? -value : value;
  const whole = magnitude / ONE;
  const fraction = (magnitude % ONE).toString().padStart(DIGITS, '0').slice(0, places);
  return `${value < 0n ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`;
}
