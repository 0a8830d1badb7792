/** Conversions and descriptions of data values shared by the evaluator and the functions. */

/** Longest text an expression may produce. */
export const MAX_TEXT_LENGTH = 100_000;
/** Characters of text read or produced that cost one evaluation step, so work on long texts is bounded too. */
export const CHARACTERS_PER_STEP = 16;

/** Steps charged for reading, comparing or producing `length` characters. */
export function textSteps(length: number): number {
  return Math.floor(length / CHARACTERS_PER_STEP);
}

const NUMERIC_STRING = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
/**
 * Longest text read as a number: longer numeric text is a number no double can hold anyway, so the test stays
 * constant work however long the text (a 20 MB text is refused by its length, never scanned).
 */
export const MAX_NUMERIC_TEXT = 400;

/** A number, or numeric text ("12.50"); null for anything else. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.length <= MAX_NUMERIC_TEXT && NUMERIC_STRING.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Key counts of objects already counted: counting a 200,000-key object takes a third of a second, so once. */
const keyCounts = new WeakMap<object, number>();

/**
 * The number of own keys of an object, counted once per object (data objects are never changed while a document
 * is compiled). The first count is the only work in proportion to the keys; its caller charges the count.
 */
export function keyCount(value: object): { count: number; counted: boolean } {
  const known = keyCounts.get(value);
  if (known !== undefined) return { count: known, counted: false };
  const count = Object.keys(value).length;
  keyCounts.set(value, count);
  return { count, counted: true };
}

/**
 * Whether a list holds a value (`===`), charging a step per item and the characters of every text of the needle's
 * length it compares (texts of another length differ at once).
 */
export function includesItem(list: readonly unknown[], needle: unknown, budget: { spend(n: number): void }): boolean {
  budget.spend(list.length);
  if (typeof needle === 'string') {
    const cost = textSteps(needle.length);
    if (cost > 0) for (const v of list) if (typeof v === 'string' && v.length === needle.length) budget.spend(cost);
  }
  return list.includes(needle) && !Number.isNaN(needle);
}

/** Below this an integer has at most 15 digits, so rounding it to 15 significant digits gives it back unchanged. */
const EXACT_INTEGER = 1e15;

/** Removes binary floating-point noise from a computed number (0.1 + 0.2 is 0.3, 19.99 * 3 is 59.97). */
export function cleanNumber(n: number): number {
  // most results are integers (counts, indexes, sums of whole amounts): no text round trip for them; -0 becomes 0,
  // as through the text
  if (Number.isInteger(n) && Math.abs(n) < EXACT_INTEGER) return n === 0 ? 0 : n;
  return Number.isFinite(n) ? Number(n.toPrecision(15)) : n;
}

/** How a value is named in an issue: `text "abc"`, `the number 3`, `a list`… */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  return 'an object';
}

/** The kind of a value for comparisons: values of different kinds are never equal. */
export function kindOf(value: unknown): 'nothing' | 'null' | 'text' | 'number' | 'boolean' | 'list' | 'object' {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return Array.isArray(value) ? 'list' : 'object';
}

export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A date value: ISO 8601 text (a calendar day when it has no time) or epoch milliseconds. */
export function toDate(value: unknown): { date: Date; dateOnly: boolean } | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : { date, dateOnly: false };
  }
  // no date is longer than this, so a long text is refused without being scanned
  if (typeof value !== 'string' || value.length > 64) return null;
  const text = value.trim();
  if (DATE_ONLY.test(text)) {
    const date = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : { date, dateOnly: true };
  }
  if (!ISO_DATE_TIME.test(text)) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : { date, dateOnly: false };
}

/** A date back as text: `2026-11-20` for a calendar day, full ISO 8601 (UTC) otherwise. */
export function dateText(date: Date, dateOnly: boolean): string {
  const iso = date.toISOString();
  return dateOnly ? iso.slice(0, 10) : iso;
}
