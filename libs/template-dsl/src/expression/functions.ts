import { formatTranslation } from '../i18n/translations';
import type { ExpressionHost } from './expression-evaluator';
import { CHARACTERS_PER_STEP, cleanNumber, dateText, describeValue, isTruthy, kindOf, MAX_TEXT_LENGTH, toDate, toNumber } from './values';

/**
 * The closed set of functions of the expression language. A function receives its arguments unevaluated
 * (`CallContext`), so list functions can take a field name or a function `x => …` evaluated per item, and
 * `exists`/`empty` can look at a value without it being reported missing. Nothing here reaches beyond the values
 * handed in: no I/O, no clock (documents stay reproducible), no regular expressions built from data.
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
  /** Argument i as a list (null is an empty list); anything else is reported and gives undefined. */
  list(i: number): unknown[] | undefined;
  /** Argument i as a per-item value: a field name ('amount', 'price.net') or a function (x => x.qty * x.price); null when absent. */
  itemValue(i: number): ((item: unknown) => unknown) | null | undefined;
  /** Reports a value of the wrong kind; returns undefined. */
  fail(message: string): undefined;
  report(kind: 'skipped' | 'translation' | 'missing', message: string): void;
  /** Checks the length of produced text. */
  text(value: string): string | undefined;
  spend(n: number): void;
}

type Fn = (call: CallContext) => unknown;

/** The numbers of a list (per item), reporting items without one as skipped. */
function numbersOf(call: CallContext): number[] | undefined {
  const list = call.list(0);
  if (list === undefined) return undefined;
  const by = call.itemValue(1);
  if (by === undefined) return undefined;
  const numbers: number[] = [];
  let skipped = 0;
  for (const item of list) {
    const n = toNumber(by === null ? item : by(item));
    if (n === null) skipped++;
    else numbers.push(n);
  }
  if (skipped > 0) {
    const what = call.argumentCount > 1 ? `a numeric ${call.describe(1).replace(/^'(.*)'$/, '$1')}` : 'a numeric value';
    call.report('skipped', `${call.name}() skipped ${skipped} item(s) of "${call.describe(0)}" without ${what}`);
  }
  return numbers;
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
    call.spend(Math.floor(v.length / CHARACTERS_PER_STEP));
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

function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

function textTest(test: (text: string, part: string) => boolean): Fn {
  return (call) => {
    const container = call.need(0);
    if (container === undefined) return undefined;
    if (Array.isArray(container)) {
      const needle = call.need(1);
      return needle === undefined ? undefined : container.some((v) => v === needle);
    }
    const text = textArg(call, 0);
    const part = textArg(call, 1);
    return text === undefined || part === undefined ? undefined : test(text, part);
  };
}

/** Key of a group: values of one kind compare as themselves; the key is kept as found. */
function groupKey(value: unknown): string {
  return `${kindOf(value)}:${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`;
}

export const FUNCTIONS: Record<string, Fn> = {
  t: (call) => {
    const key = textArg(call, 0);
    if (key === undefined) return undefined;
    const text = key ? call.host.translations.lookup(key) : undefined;
    const args: unknown[] = [];
    for (let i = 1; i < call.argumentCount; i++) args.push(call.need(i));
    if (text === undefined) {
      call.report('translation', `The translation "${key}" is missing for language "${call.host.translations.language ?? 'default'}" and the default language`);
      return key;
    }
    const formatted = formatTranslation(text, args, call.host.settings.locale);
    if (formatted.problem) call.report('translation', `The translation "${key}" cannot be formatted: ${formatted.problem}; only {0}, {1}… are filled in`);
    return formatted.text;
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
    const list = call.list(0);
    if (list === undefined) return undefined;
    const by = call.itemValue(1);
    if (by === undefined) return undefined;
    if (by === null) return call.fail('filter() needs a condition per item, e.g. filter(items, x => x.vatRate == 0.19), or a field and a value');
    if (call.argumentCount > 2) {
      const wanted = call.need(2);
      if (wanted === undefined) return undefined;
      return list.filter((item) => by(item) === wanted);
    }
    return list.filter((item) => isTruthy(by(item)));
  },
  map: (call) => {
    const list = call.list(0);
    if (list === undefined) return undefined;
    const by = call.itemValue(1);
    if (by === undefined) return undefined;
    if (by === null) return call.fail('map() needs a field or a function per item, e.g. map(items, x => x.qty * x.price)');
    return list.map(by);
  },
  groupBy: (call) => {
    const list = call.list(0);
    if (list === undefined) return undefined;
    const by = call.itemValue(1);
    if (by === undefined) return undefined;
    if (by === null) return call.fail("groupBy() needs a field or a function per item, e.g. groupBy(items, 'vatRate')");
    const groups = new Map<string, { key: unknown; items: unknown[]; count: number }>();
    for (const item of list) {
      const key = by(item);
      const k = groupKey(key === undefined ? null : key);
      let group = groups.get(k);
      if (!group) {
        group = { key: key === undefined ? null : key, items: [], count: 0 };
        groups.set(k, group);
      }
      group.items.push(item);
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
    call.spend(list.length * Math.ceil(Math.log2(list.length + 1)));
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
      return sign * String(x).localeCompare(String(y));
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
    const parts = list.map((item) => (by === null ? item : by(item))).filter((v) => v !== undefined && v !== null && v !== '');
    return call.text(parts.map((v) => (typeof v === 'object' ? describeValue(v) : String(v))).join(separator));
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
    if (typeof v === 'object') return Object.keys(v).length === 0;
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
  lower: (call) => {
    const s = textArg(call, 0);
    return s === undefined ? undefined : call.text(s.toLocaleLowerCase(call.host.settings.locale));
  },
  upper: (call) => {
    const s = textArg(call, 0);
    return s === undefined ? undefined : call.text(s.toLocaleUpperCase(call.host.settings.locale));
  },
  trim: (call) => {
    const s = textArg(call, 0);
    return s === undefined ? undefined : s.trim();
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

  // Dates (ISO 8601 text or epoch milliseconds; a calendar day stays a calendar day, computed in UTC)
  addDays: (call) => {
    const d = dateArg(call, 0);
    const n = numberArg(call, 1);
    if (d === undefined || n === undefined) return undefined;
    if (!Number.isInteger(n)) return call.fail(`addDays() adds whole days, not ${n}`);
    return dateText(new Date(d.date.getTime() + n * MS_PER_DAY), d.dateOnly);
  },
  addMonths: (call) => {
    const d = dateArg(call, 0);
    const n = numberArg(call, 1);
    if (d === undefined || n === undefined) return undefined;
    if (!Number.isInteger(n)) return call.fail(`addMonths() adds whole months, not ${n}`);
    return dateText(addMonths(d.date, n), d.dateOnly);
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
