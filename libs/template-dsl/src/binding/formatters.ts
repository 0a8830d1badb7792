import { toDate, toNumber } from '../expression/values';

export const FORMATTER_NAMES = ['number', 'currency', 'percent', 'date', 'time', 'datetime', 'upper', 'lower', 'default', 'markdown'] as const;
export type FormatterName = (typeof FORMATTER_NAMES)[number];

/** A formatter applied with `value | name(args)`. */
export interface FormatterCall {
  name: FormatterName;
  args: (string | number)[];
}

/** Locale, time zone and default currency a document is formatted with. */
export interface FormatSettings {
  locale: string;
  timeZone: string;
  currency: string | null;
}

export type FormatOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

const DATE_STYLES = ['short', 'medium', 'long', 'full'] as const;
type DateStyle = (typeof DATE_STYLES)[number];

// Intl formatters are expensive to create and cheap to use: one per (locale, options), at most INTL_CACHE_LIMIT of each kind.
const INTL_CACHE_LIMIT = 500;

/** A cache of one kind of Intl formatter by (locale, options), emptied when it reaches INTL_CACHE_LIMIT. */
function intlCache<O, F>(create: (locale: string, options: O) => F): (locale: string, options: O) => F {
  const formats = new Map<string, F>();
  return (locale, options) => {
    const key = `${locale}\u0000${JSON.stringify(options)}`;
    let f = formats.get(key);
    if (!f) {
      if (formats.size >= INTL_CACHE_LIMIT) formats.clear();
      f = create(locale, options);
      formats.set(key, f);
    }
    return f;
  };
}

const numberFormat = intlCache((locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options));
const dateFormat = intlCache((locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options));

/** Formatters per formatter call (calls come from the parse cache), so the hot path skips building cache keys. */
const perCall = new WeakMap<FormatterCall, Map<string, Intl.NumberFormat | Intl.DateTimeFormat>>();

function forCall<T extends Intl.NumberFormat | Intl.DateTimeFormat>(call: FormatterCall, key: string, create: () => T): T {
  let byKey = perCall.get(call);
  if (!byKey) {
    byKey = new Map();
    perCall.set(call, byKey);
  }
  let f = byKey.get(key) as T | undefined;
  if (!f) {
    f = create();
    byKey.set(key, f);
  }
  return f;
}

export function isValidLocale(locale: string): boolean {
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export function isValidCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && KNOWN_CURRENCIES.has(code);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** Which argument lists each formatter accepts; checked when a template is validated. */
export function checkFormatterArguments(call: FormatterCall): string | null {
  const [a, b] = call.args;
  const count = call.args.length;
  const isDecimals = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 20;
  switch (call.name) {
    case 'number':
      if (count > 2 || (count >= 1 && !isDecimals(a)) || (count === 2 && (!isDecimals(b) || (b as number) < (a as number)))) {
        return 'number takes up to two whole numbers 0-20: minimum and maximum decimals, e.g. number(2)';
      }
      return null;
    case 'currency':
      if (count > 2 || (count >= 1 && (typeof a !== 'string' || !isValidCurrency(a))) || (count === 2 && !isDecimals(b))) {
        return "currency takes an ISO 4217 code and optional decimals, e.g. currency('EUR')";
      }
      return null;
    case 'percent':
      if (count > 1 || (count === 1 && !isDecimals(a))) return 'percent takes optional decimals, e.g. percent(1)';
      return null;
    case 'date':
    case 'time':
    case 'datetime':
      if (count > 2 || (count >= 1 && (typeof a !== 'string' || !([...DATE_STYLES, 'iso'] as string[]).includes(a)))) {
        return `${call.name} takes a style (short, medium, long, full or iso) and an optional IANA time zone, e.g. ${call.name}('long', 'Europe/Berlin')`;
      }
      if (count === 2 && (typeof b !== 'string' || !isValidTimeZone(b))) return `"${String(b)}" is not an IANA time zone`;
      return null;
    case 'upper':
    case 'lower':
      return count === 0 ? null : `${call.name} takes no arguments`;
    case 'default':
      return count === 1 ? null : "default takes one value, e.g. default('—')";
    case 'markdown':
      return count === 0 ? null : 'markdown takes no arguments';
  }
}

function formatDate(call: FormatterCall, name: 'date' | 'time' | 'datetime', value: unknown, args: (string | number)[], settings: FormatSettings): FormatOutcome {
  const parsed = toDate(value);
  if (!parsed) return { ok: false, reason: `${describe(value)} is not an ISO 8601 date or a timestamp` };
  const style = (args[0] as DateStyle | 'iso' | undefined) ?? 'medium';
  // A calendar day has no time of day: it is shown as written, whatever the time zone.
  const timeZone = parsed.dateOnly ? 'UTC' : ((args[1] as string | undefined) ?? settings.timeZone);
  if (parsed.dateOnly && name !== 'date') return { ok: false, reason: `${describe(value)} has no time of day` };
  if (style === 'iso') {
    const parts = dateFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(parsed.date);
    const get = (t: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === t)?.value ?? '';
    const day = `${get('year')}-${get('month')}-${get('day')}`;
    const clock = `${get('hour')}:${get('minute')}:${get('second')}`;
    return { ok: true, value: name === 'date' ? day : name === 'time' ? clock : `${day} ${clock}` };
  }
  const format = forCall(call, `${settings.locale}|${timeZone}`, () => {
    const options: Intl.DateTimeFormatOptions = { timeZone };
    if (name !== 'time') options.dateStyle = style;
    if (name !== 'date') options.timeStyle = style;
    return dateFormat(settings.locale, options);
  });
  return { ok: true, value: format.format(parsed.date) };
}

/**
 * Applies one formatter. A value that cannot be formatted as asked is reported (UnformattedValue by the
 * caller) and shown as is.
 */
export function applyFormatter(call: FormatterCall, value: unknown, settings: FormatSettings): FormatOutcome {
  const name: FormatterName = call.name;
  const args = call.args;
  switch (name) {
    case 'default':
      return { ok: true, value: value === undefined || value === null || value === '' ? args[0] : value };
    case 'markdown':
      // Marks the value as Markdown for rich text (render/markdown.ts); the value itself is unchanged.
      return { ok: true, value };
    case 'upper':
      return { ok: true, value: value === undefined || value === null ? value : String(value).toLocaleUpperCase(settings.locale) };
    case 'lower':
      return { ok: true, value: value === undefined || value === null ? value : String(value).toLocaleLowerCase(settings.locale) };
    case 'number':
    case 'currency':
    case 'percent': {
      if (value === undefined || value === null || value === '') return { ok: true, value };
      const n = toNumber(value);
      if (n === null) return { ok: false, reason: `${describe(value)} is not a number` };
      if (name === 'number') {
        const format = forCall(call, settings.locale, () => {
          const min = args[0] as number | undefined;
          const max = (args[1] as number | undefined) ?? min;
          return numberFormat(settings.locale, min === undefined ? {} : { minimumFractionDigits: min, maximumFractionDigits: max });
        });
        return { ok: true, value: format.format(n) };
      }
      if (name === 'percent') {
        const format = forCall(call, settings.locale, () => {
          const d = (args[0] as number | undefined) ?? 0;
          return numberFormat(settings.locale, { style: 'percent', minimumFractionDigits: d, maximumFractionDigits: d });
        });
        return { ok: true, value: format.format(n) };
      }
      const code = (args[0] as string | undefined) ?? settings.currency;
      if (!code) return { ok: false, reason: 'no currency given and the template sets no default currency' };
      const format = forCall(call, `${settings.locale}|${code}`, () => {
        const options: Intl.NumberFormatOptions = { style: 'currency', currency: code };
        if (args[1] !== undefined) {
          options.minimumFractionDigits = args[1] as number;
          options.maximumFractionDigits = args[1] as number;
        }
        return numberFormat(settings.locale, options);
      });
      return { ok: true, value: format.format(n) };
    }
    case 'date':
    case 'time':
    case 'datetime':
      if (value === undefined || value === null || value === '') return { ok: true, value };
      return formatDate(call, name, value, args, settings);
  }
}
