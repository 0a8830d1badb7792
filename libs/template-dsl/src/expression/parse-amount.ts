import { MAX_NUMERIC_TEXT } from './values';

/**
 * Reads an amount written for people in a locale ("1.234,50 €" in de-DE, "$1,234.50" in en-US, "12,50"), with the
 * locale's separators as Intl writes them. Only `parseNumber(text, locale)` calls it: aggregates never guess what a
 * text amount means, because "1.234" is a thousand in one locale and one in another.
 *
 * Accepted: an optional sign (`-`, `−`, `+`) and an optional currency (a symbol such as `€`, `$`, `£`, or a
 * three-letter code such as `EUR`) before or after the number, spaces around them; digits, grouped by the locale's
 * group separator in the locale's group sizes (3, or 2 then 3 in en-IN) or not grouped at all; at most one decimal
 * separator (the locale's) followed by digits. Anything else (the other locale's separators, a group of the wrong
 * size, letters, two currencies) is not an amount: the caller reports it instead of guessing.
 */

interface Separators {
  group: string;
  /** Characters accepted as the group separator (a narrow or no-break space also as a plain space). */
  groups: ReadonlySet<string>;
  decimal: string;
  /** Sizes of the last group and of the groups before it (3 and 3; 3 and 2 in en-IN). */
  last: number;
  middle: number;
}

const separatorsByLocale = new Map<string, Separators>();
const SPACES = new Set([' ', '\u00a0', '\u202f']);

function separatorsOf(locale: string): Separators {
  let known = separatorsByLocale.get(locale);
  if (known) return known;
  const parts = new Intl.NumberFormat(locale, { numberingSystem: 'latn', useGrouping: true }).formatToParts(123456789.5);
  const group = parts.find((p) => p.type === 'group')?.value ?? ',';
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const sizes = parts.filter((p) => p.type === 'integer').map((p) => p.value.length);
  const last = sizes[sizes.length - 1] ?? 3;
  const middle = sizes.length > 2 ? sizes[sizes.length - 2] : last;
  const groups = new Set([group]);
  if (SPACES.has(group)) for (const s of SPACES) groups.add(s);
  if (group === '\u2019') groups.add("'");
  known = { group, groups, decimal, last, middle };
  if (separatorsByLocale.size >= 200) separatorsByLocale.clear();
  separatorsByLocale.set(locale, known);
  return known;
}

const CURRENCY_AT_START = /^(?:\p{Sc}|[A-Z]{3}(?![A-Za-z]))/u;
const CURRENCY_AT_END = /(?:\p{Sc}|(?<![A-Za-z])[A-Z]{3})$/u;
const DIGITS = /^\d+$/;

/** The amount a text gives in a locale, or null when it is not one. Constant work: longer texts are refused. */
export function parseAmount(text: string, locale: string): number | null {
  if (text.length > MAX_NUMERIC_TEXT) return null;
  let s = text.trim();
  let negative = false;
  let signs = 0;
  let currencies = 0;
  // sign and currency, in either order, before the number
  for (let guard = 0; guard < 4 && s !== ''; guard++) {
    if (s[0] === '-' || s[0] === '\u2212' || s[0] === '+') {
      negative = s[0] !== '+';
      signs++;
      s = s.slice(1).trimStart();
      continue;
    }
    const currency = CURRENCY_AT_START.exec(s);
    if (!currency) break;
    currencies++;
    s = s.slice(currency[0].length).trimStart();
  }
  // and after it
  for (let guard = 0; guard < 4 && s !== ''; guard++) {
    const lastChar = s[s.length - 1];
    if (lastChar === '-' || lastChar === '\u2212') {
      negative = true;
      signs++;
      s = s.slice(0, -1).trimEnd();
      continue;
    }
    const currency = CURRENCY_AT_END.exec(s);
    if (!currency) break;
    currencies++;
    s = s.slice(0, s.length - currency[0].length).trimEnd();
  }
  if (signs > 1 || currencies > 1 || s === '') return null;
  const { groups, decimal, last, middle } = separatorsOf(locale);
  const decimalAt = s.indexOf(decimal);
  const integer = decimalAt < 0 ? s : s.slice(0, decimalAt);
  const fraction = decimalAt < 0 ? '' : s.slice(decimalAt + decimal.length);
  if (decimalAt >= 0 && !DIGITS.test(fraction)) return null;
  // the integer part: digits, or groups of the locale's sizes
  const chunks: string[] = [];
  let chunk = '';
  for (const ch of integer) {
    if (groups.has(ch)) {
      chunks.push(chunk);
      chunk = '';
    } else {
      chunk += ch;
    }
  }
  chunks.push(chunk);
  if (!chunks.every((c) => DIGITS.test(c))) return null;
  if (chunks.length > 1) {
    const [head, ...rest] = chunks;
    if (head.length > middle || rest[rest.length - 1].length !== last || rest.slice(0, -1).some((c) => c.length !== middle)) return null;
  }
  const n = Number(`${chunks.join('')}${fraction ? `.${fraction}` : ''}`);
  if (!Number.isFinite(n)) return null;
  return negative && n !== 0 ? -n : n;
}
