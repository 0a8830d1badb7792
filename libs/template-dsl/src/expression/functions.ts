import { isValidLocale } from '../binding/formatters';
import { formatTranslation } from '../i18n/translations';
import { addMonthsUtc } from './calendar';
import type { ExpressionHost } from './expression-evaluator';
import { parseAmount } from './parse-amount';
import { cleanNumber, dateText, describeValue, includesItem, isTruthy, keyCount, MAX_NUMERIC_TEXT, MAX_TEXT_LENGTH, textSteps, toDate, toNumber } from './values';

/**
 * The closed set of functions of the expression language. A function receives its arguments unevaluated
 * (`CallContext`), so list functions can take a field name or a function `x => …` evaluated per item, and
 * `exists`/`empty` can look at a value without it being reported missing. Nothing here reaches beyond the values
 * handed in: no I/O, no clock (documents stay reproducible), no regular expressions built from data.
 *
 * Each function charges the step budget (`call.spend`) by the work it does before doing it: a step per list item it
 * visits, per key it counts, per CHARACTERS_PER_STEP characters it reads, compares or produces, n·log2 n for a
 * sort; text it would produce past MAX_TEXT_LENGTH is refused before it is built. `first`, `last`, `count` and the
 * number and date functions do constant work.
 */

export interface CallContext {
  readonly name: string;
  readonly argumentCount: number;
  readonly host: ExpressionHost;
  /** The text of the call, or of argument i, for issue descriptions. */
  describe(i?: number): string;
  /** Argument i evaluated; undefined when missing (not reported). */
  value(i: number): unknown;
  /** Argument i evaluated; a missing value is reported. */
  need(i: number): unknown;
  /** Argument i as a list (null is an empty list); anything else is reported and gives undefined. Charges nothing. */
  list(i: number): unknown[] | undefined;
  /** Argument i as a per-item value: a field name ('amount', 'price.net') or a function (x => x.qty * x.price); null when absent. */
  itemValue(i: number): ((item: unknown) => unknown) | null | undefined;
  /** Reports a value of the wrong kind; returns undefined. */
  fail(message: string): undefined;
  report(kind: 'translation' | 'missing', message: string): void;
  /** Checks the length of produced text and charges it. */
  text(value: string): string | undefined;
  /** True when text of this length may be produced; reports the cap otherwise. Call it before building the text. */
  fits(length: number): boolean;
  spend(n: number): void;
}

type Fn = (call: CallContext) => unknown;

/**
 * The numbers of a list (per item) for an aggregate. Money is never silently wrong: every item must give a number.
 * A text (even "12.50": "1.234" is a thousand in one locale and one in another), null or a missing value is a
 * problem naming the first such item, and the aggregate has no value; text amounts are read with parseNumber().
 */
function numbersOf(call: CallContext): number[] | undefined {
  const list = call.list(0);
  if (list === undefined) return undefined;
  const by = call.itemValue(1);
  if (by === undefined) return undefined;
  call.spend(list.length);
  const numbers: number[] = [];
  let first = -1;
  let firstValue: unknown;
  let bad = 0;
  for (let i = 0; i < list.length; i++) {
    const v = by === null ? list[i] : by(list[i]);
    if (typeof v === 'number' && Number.isFinite(v)) {
      numbers.push(v);
    } else {
      if (first < 0) {
        first = i;
        firstValue = v;
      }
      bad++;
    }
  }
  if (bad === 0) return numbers;
  const quoted = call.argumentCount > 1 ? /^'(.*)'$|^"(.*)"$/.exec(call.describe(1)) : null;
  const field = quoted ? (quoted[1] ?? quoted[2]) : null;
  const source = call.describe(0);
  const where = call.argumentCount < 2 ? `"${source}[${first}]"` : field !== null ? `"${source}[${first}].${field}"` : `"${call.describe(1)}" for "${source}[${first}]"`;
  const what = firstValue === undefined ? 'has no value' : `is ${describeValue(firstValue)}`;
  const more = bad > 1 ? ` (${bad - 1} more item(s) give no number either)` : '';
  const value = field !== null ? `x.${field}` : 'x';
  const hint =
    typeof firstValue === 'string'
      ? `; read text amounts with parseNumber, e.g. ${call.name}(${source}, x => parseNumber(${value}, '${call.host.settings.locale}'))`
      : firstValue === undefined || firstValue === null
        ? `; count a missing value as zero with ??, e.g. ${call.name}(${source}, x => ${value} ?? 0)`
        : '';
  return call.fail(`${call.name}() takes numbers only, and ${where} ${what}${more}, so it has no value${hint}`);
}

/**
 * The list (argument 0) and the per-item value (argument 1, required: `usage` is the problem when it is absent) of a
 * call that works on every item, such as filter(items, x => …); charges a step per item.
 */
function listPerItem(call: CallContext, usage: string): { list: unknown[]; by: (item: unknown) => unknown } | undefined {
  const list = call.list(0);
  if (list === undefined) return undefined;
  const by = call.itemValue(1);
  if (by === undefined) return undefined;
  if (by === null) return call.fail(usage);
  call.spend(list.length);
  return { list, by };
}

/** min/max: of a list (optionally per item), or of several numbers. */
function extreme(pick: (a: number, b: number) => number): Fn {
  return (call) => {
    const first = call.need(0);
    if (first === undefined) return undefined;
    let numbers: number[] | undefined;
    if (Array.isArray(first) || first === null) {
      numbers = numbersOf(call);
    } else {
      numbers = [];
      for (let i = 0; i < call.argumentCount; i++) {
        const v = i === 0 ? first : call.need(i);
        if (v === undefined) return undefined;
        const n = toNumber(v);
        if (n === null) return call.fail(`${call.name}() takes a list or numbers, and "${call.describe(i)}" is ${describeValue(v)}`);
        numbers.push(n);
      }
    }
    if (numbers === undefined || numbers.length === 0) return numbers === undefined ? undefined : null;
    return numbers.reduce(pick);
  };
}

function numberArg(call: CallContext, i: number): number | undefined {
  const v = call.need(i);
  if (v === undefined) return undefined;
  const n = toNumber(v);
  return n === null ? call.fail(`${call.name}() needs a number but "${call.describe(i)}" is ${describeValue(v)}`) : n;
}

function textArg(call: CallContext, i: number): string | undefined {
  const v = call.need(i);
  if (v === undefined) return undefined;
  if (v === null) return '';
  if (typeof v === 'string') {
    // reading text costs in proportion to its length, so functions over long texts stay bounded in time
    call.spend(textSteps(v.length));
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return call.fail(`${call.name}() needs a text but "${call.describe(i)}" is ${describeValue(v)}`);
}

function math(op: (n: number) => number): Fn {
  return (call) => {
    const n = numberArg(call, 0);
    if (n === undefined) return undefined;
    const r = op(n);
    return Number.isFinite(r) ? cleanNumber(r) : call.fail(`${call.describe()} is not a finite number`);
  };
}

function dateArg(call: CallContext, i: number): { date: Date; dateOnly: boolean } | undefined {
  const v = call.need(i);
  if (v === undefined) return undefined;
  const d = toDate(v);
  return d ?? call.fail(`${call.name}() needs a date (ISO 8601 text such as 2026-11-20, or a timestamp) but "${call.describe(i)}" is ${describeValue(v)}`);
}

function datePart(part: (d: Date) => number): Fn {
  return (call) => {
    const d = dateArg(call, 0);
    return d === undefined ? undefined : part(d.date);
  };
}

const MS_PER_DAY = 86_400_000;


function textTest(test: (text: string, part: string) => boolean): Fn {
  return (call) => {
    const container = call.need(0);
    if (container === undefined) return undefined;
    if (Array.isArray(container)) {
      const needle = call.need(1);
      return needle === undefined ? undefined : includesItem(container, needle, call.host.budget);
    }
    const text = textArg(call, 0);
    const part = textArg(call, 1);
    return text === undefined || part === undefined ? undefined : test(text, part);
  };
}

/** A date computed by a date function, or a problem when it lies beyond the range of dates (±275,000 years). */
function dateResult(call: CallContext, date: Date, dateOnly: boolean): string | undefined {
  return Number.isNaN(date.getTime()) ? call.fail(`${call.describe()} is outside the range of dates`) : dateText(date, dateOnly);
}

/** One collator for sorting texts, as String.prototype.localeCompare without arguments compares, created once. */
const collator = new Intl.Collator();

/** Steps for a new group of groupBy, on top of the item's step and its lookup. */
const GROUP_STEPS = 4;
/** Steps for reading one amount with parseNumber (the locale's separators, the scan, the checks). */
const PARSE_NUMBER_STEPS = 4;

/** Steps for sorting n items: the comparisons of a merge sort. */
function sortSteps(n: number): number {
  return n * Math.ceil(Math.log2(n + 1));
}

export const FUNCTIONS: Record<string, Fn> = {
  /**
   * The page an anchor lands on is known only once the document is printed: a printer fills it in where
   * `{{ pageOf('…') }}` stands on its own in the text of the page body (binding-evaluator.ts, pageReferenceOf). Anywhere
   * else — inside an expression, with a formatter, in an attribute or a band — it has no value, and says so.
   */
  pageOf: (call) =>
    call.fail(`pageOf() shows the page an anchor is on only as a binding of its own in the text of the page body ({{ ${call.describe()} }}); the page is known after printing, so it has no value inside an expression, a formatter, an attribute or a header or footer`),
  t: (call) => {
    const key = textArg(call, 0);
    if (key === undefined) return undefined;
    const text = key ? call.host.translations.lookup(key) : undefined;
    const args: unknown[] = [];
    // the arguments are read into the message: their text, and the entries of an object of named arguments; the
    // message can repeat them, so each placeholder ("{") is charged the longest argument (a number's text: 32)
    let longest = 0;
    for (let i = 1; i < call.argumentCount; i++) {
      const arg = call.need(i);
      if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
        call.spend(keyCount(arg).count);
        for (const v of Object.values(arg)) longest = Math.max(longest, typeof v === 'string' ? v.length : 32);
      } else {
        longest = Math.max(longest, typeof arg === 'string' ? arg.length : 32);
      }
      args.push(arg);
    }
    let placeholders = 0;
    for (let at = text?.indexOf('{') ?? -1; text !== undefined && at >= 0; at = text.indexOf('{', at + 1)) placeholders++;
    call.spend(textSteps((text?.length ?? 0) + placeholders * longest));
    if (text === undefined) {
      call.report('translation', `The translation "${key}" is missing for language "${call.host.translations.language ?? 'default'}" and the default language`);
      return key;
    }
    const formatted = formatTranslation(text, args, call.host.settings.locale);
    if (formatted.problem) call.report('translation', `The translation "${key}" cannot be formatted: ${formatted.problem}; only {0}, {1}… are filled in`);
    return call.text(formatted.text);
  },

  // Lists
  count: (call) => {
    const v = call.need(0);
    if (v === undefined) return undefined;
    if (v === null) return 0;
    if (Array.isArray(v) || typeof v === 'string') return v.length;
    return call.fail(`count() needs a list (or a text) but "${call.describe(0)}" is ${describeValue(v)}`);
  },
  sum: (call) => {
    const numbers = numbersOf(call);
    return numbers === undefined ? undefined : cleanNumber(numbers.reduce((a, b) => a + b, 0));
  },
  average: (call) => {
    const numbers = numbersOf(call);
    if (numbers === undefined) return undefined;
    return numbers.length === 0 ? null : cleanNumber(numbers.reduce((a, b) => a + b, 0) / numbers.length);
  },
  min: extreme((a, b) => Math.min(a, b)),
  max: extreme((a, b) => Math.max(a, b)),
  filter: (call) => {
    const perItem = listPerItem(call, 'filter() needs a condition per item, e.g. filter(items, x => x.vatRate == 0.19), or a field and a value');
    if (perItem === undefined) return undefined;
    const { list, by } = perItem;
    if (call.argumentCount > 2) {
      const wanted = call.need(2);
      if (wanted === undefined) return undefined;
      const wantedLength = typeof wanted === 'string' ? wanted.length : -1;
      const cost = textSteps(Math.max(0, wantedLength));
      return list.filter((item) => {
        const v = by(item);
        if (cost > 0 && typeof v === 'string' && v.length === wantedLength) call.spend(cost);
        return v === wanted;
      });
    }
    return list.filter((item) => isTruthy(by(item)));
  },
  map: (call) => {
    const perItem = listPerItem(call, 'map() needs a field or a function per item, e.g. map(items, x => x.qty * x.price)');
    if (perItem === undefined) return undefined;
    const { list, by } = perItem;
    return list.map((item) => by(item));
  },
  groupBy: (call) => {
    const perItem = listPerItem(call, "groupBy() needs a field or a function per item, e.g. groupBy(items, 'vatRate')");
    if (perItem === undefined) return undefined;
    const { list, by } = perItem;
    // keys are texts, numbers, booleans or null, which a Map compares as themselves (1 and "1" apart) in constant
    // time per item once a text's hash is computed (charged by its length): linear in the list, never quadratic
    const groups = new Map<unknown, { key: unknown; items: unknown[]; count: number }>();
    for (let i = 0; i < list.length; i++) {
      const found = by(list[i]);
      const key = found === undefined ? null : found;
      if (typeof key === 'object' && key !== null) {
        return call.fail(`groupBy() groups by a text, number or true/false, and "${call.describe(1)}" is ${describeValue(key)} for "${call.describe(0)}[${i}]"; group by one of its fields, e.g. 'customer.id'`);
      }
      // a Map lookup costs about a step, a new group (an object, its list and a Map entry) about four more
      call.spend(1 + (typeof key === 'string' ? textSteps(key.length) : 0));
      let group = groups.get(key);
      if (!group) {
        call.spend(GROUP_STEPS);
        group = { key, items: [], count: 0 };
        groups.set(key, group);
      }
      group.items.push(list[i]);
      group.count++;
    }
    return [...groups.values()];
  },
  sort: (call) => {
    const list = call.list(0);
    if (list === undefined) return undefined;
    const by = call.itemValue(1);
    if (by === undefined) return undefined;
    const direction = call.argumentCount > 2 ? textArg(call, 2) : 'asc';
    if (direction !== 'asc' && direction !== 'desc') return direction === undefined ? undefined : call.fail(`sort() takes 'asc' or 'desc' as its third argument, not "${direction}"`);
    call.spend(list.length + sortSteps(list.length));
    const keyed = list.map((item, index) => ({ item, index, key: by === null ? item : by(item) }));
    const sign = direction === 'desc' ? -1 : 1;
    keyed.sort((a, b) => {
      const x = a.key;
      const y = b.key;
      if (x === y) return a.index - b.index;
      if (x === undefined || x === null) return 1;
      if (y === undefined || y === null) return -1;
      const xn = toNumber(x);
      const yn = toNumber(y);
      if (xn !== null && yn !== null) return sign * (xn - yn);
      const xs = String(x);
      const ys = String(y);
      // a comparison is paid by sortSteps; comparing texts by the collator costs a step more, and their characters
      call.spend(1 + textSteps(Math.min(xs.length, ys.length)));
      return sign * collator.compare(xs, ys);
    });
    return keyed.map((k) => k.item);
  },
  first: (call) => {
    const list = call.list(0);
    return list === undefined ? undefined : list.length > 0 ? list[0] : null;
  },
  last: (call) => {
    const list = call.list(0);
    return list === undefined ? undefined : list.length > 0 ? list[list.length - 1] : null;
  },
  join: (call) => {
    const list = call.list(0);
    if (list === undefined) return undefined;
    const separator = call.argumentCount > 1 ? textArg(call, 1) : ', ';
    if (separator === undefined) return undefined;
    const by = call.itemValue(2);
    if (by === undefined) return undefined;
    call.spend(list.length);
    // the parts and the length of the result first: a result over the cap is refused before it is built
    const parts: string[] = [];
    let length = 0;
    for (const item of list) {
      const v = by === null ? item : by(item);
      if (v === undefined || v === null || v === '') continue;
      const part = typeof v === 'object' ? describeValue(v) : String(v);
      length += part.length + (parts.length > 0 ? separator.length : 0);
      if (!call.fits(length)) return undefined;
      parts.push(part);
    }
    return call.text(parts.join(separator));
  },

  // Presence
  exists: (call) => {
    const v = call.value(0);
    return v !== undefined && v !== null;
  },
  empty: (call) => {
    const v = call.value(0);
    if (v === undefined || v === null || v === '') return true;
    if (Array.isArray(v)) return v.length === 0;
    if (typeof v === 'object') {
      // JavaScript has no constant-time "has any key": the keys are counted once per object and charged then
      const keys = keyCount(v);
      if (keys.counted) call.spend(keys.count);
      return keys.count === 0;
    }
    return false;
  },

  // Numbers
  abs: math(Math.abs),
  ceil: math(Math.ceil),
  floor: math(Math.floor),
  sqrt: math(Math.sqrt),
  log: math(Math.log),
  round: (call) => {
    const n = numberArg(call, 0);
    if (n === undefined) return undefined;
    const decimals = call.argumentCount > 1 ? numberArg(call, 1) : 0;
    if (decimals === undefined) return undefined;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 12) return call.fail(`round() takes 0 to 12 decimals, not ${decimals}`);
    const factor = 10 ** decimals;
    // Half away from zero, on the decimal value written (1.005 rounds to 1.01).
    return cleanNumber((Math.sign(n) * Math.round(Number(`${Math.abs(n)}e${decimals}`))) / factor);
  },

  // Text
  // upper and lower never shorten a text, so one over the cap is refused before it is converted
  lower: (call) => {
    const s = textArg(call, 0);
    return s === undefined || !call.fits(s.length) ? undefined : call.text(s.toLocaleLowerCase(call.host.settings.locale));
  },
  upper: (call) => {
    const s = textArg(call, 0);
    return s === undefined || !call.fits(s.length) ? undefined : call.text(s.toLocaleUpperCase(call.host.settings.locale));
  },
  trim: (call) => {
    const s = textArg(call, 0);
    return s === undefined ? undefined : call.text(s.trim());
  },
  contains: textTest((text, part) => text.includes(part)),
  startsWith: textTest((text, part) => text.startsWith(part)),
  endsWith: textTest((text, part) => text.endsWith(part)),
  replace: (call) => {
    const s = textArg(call, 0);
    const find = textArg(call, 1);
    const by = textArg(call, 2);
    if (s === undefined || find === undefined || by === undefined) return undefined;
    if (find === '') return call.fail('replace() needs a non-empty text to find');
    // the length of the result first (the search is paid by reading s, each part it will make by a step): a result
    // over the cap is never built
    let found = 0;
    for (let at = s.indexOf(find); at >= 0; at = s.indexOf(find, at + find.length)) {
      call.spend(1);
      found++;
    }
    if (!call.fits(s.length + found * (by.length - find.length))) return undefined;
    return call.text(s.split(find).join(by));
  },
  substring: (call) => {
    const s = textArg(call, 0);
    const start = numberArg(call, 1);
    const length = call.argumentCount > 2 ? numberArg(call, 2) : undefined;
    if (s === undefined || start === undefined || (call.argumentCount > 2 && length === undefined)) return undefined;
    // by code point, without copying the whole text into a list
    const from = Math.max(0, start);
    const end = length === undefined ? Infinity : from + Math.max(0, length);
    let out = '';
    let i = 0;
    for (const ch of s) {
      if (i >= end || out.length > MAX_TEXT_LENGTH) break;
      if (i >= from) out += ch;
      i++;
    }
    return call.text(out);
  },

  /**
   * An amount written as text for people, read with the separators of a locale (the document's by default):
   * parseNumber('1.234,50 €', 'de-DE') is 1234.5, parseNumber('$1,234.50', 'en-US') 1234.5. A number is returned
   * as it is; a text that is not an amount in that locale is a problem, never a guess.
   */
  parseNumber: (call) => {
    const v = call.need(0);
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v !== 'string') return call.fail(`parseNumber() reads a text amount, and "${call.describe(0)}" is ${describeValue(v)}`);
    const locale = call.argumentCount > 1 ? textArg(call, 1) : call.host.settings.locale;
    if (locale === undefined) return undefined;
    if (!isValidLocale(locale)) return call.fail(`parseNumber() needs a locale such as 'de-DE', not "${locale.slice(0, 40)}"`);
    call.spend(PARSE_NUMBER_STEPS + textSteps(Math.min(v.length, MAX_NUMERIC_TEXT)));
    const n = parseAmount(v, locale);
    return n ?? call.fail(`parseNumber() cannot read "${call.describe(0)}" (${describeValue(v)}) as an amount in ${locale}`);
  },

  // Dates (ISO 8601 text or epoch milliseconds; a calendar day stays a calendar day, computed in UTC)
  addDays: (call) => {
    const d = dateArg(call, 0);
    const n = numberArg(call, 1);
    if (d === undefined || n === undefined) return undefined;
    if (!Number.isInteger(n)) return call.fail(`addDays() adds whole days, not ${n}`);
    return dateResult(call, new Date(d.date.getTime() + n * MS_PER_DAY), d.dateOnly);
  },
  addMonths: (call) => {
    const d = dateArg(call, 0);
    const n = numberArg(call, 1);
    if (d === undefined || n === undefined) return undefined;
    if (!Number.isInteger(n)) return call.fail(`addMonths() adds whole months, not ${n}`);
    return dateResult(call, addMonthsUtc(d.date, n), d.dateOnly);
  },
  daysBetween: (call) => {
    const a = dateArg(call, 0);
    const b = dateArg(call, 1);
    if (a === undefined || b === undefined) return undefined;
    return Math.floor((b.date.getTime() - a.date.getTime()) / MS_PER_DAY);
  },
  year: datePart((d) => d.getUTCFullYear()),
  month: datePart((d) => d.getUTCMonth() + 1),
  day: datePart((d) => d.getUTCDate()),
};

export const FUNCTION_NAMES = Object.keys(FUNCTIONS);
