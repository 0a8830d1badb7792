import jsep from 'jsep';
import { Binding } from '../binding/binding-syntax';
import { Direction } from '../model/template.types';

/** A resolved base direction. */
export type BaseDirection = 'ltr' | 'rtl';

/** Letters of the right-to-left scripts (Unicode bidi class R or AL), and the right-to-left marks. */
const RTL_STRONG =
  /[\u200f\u061c]|(?=\p{L})(?:\p{Script=Arabic}|\p{Script=Hebrew}|\p{Script=Syriac}|\p{Script=Thaana}|\p{Script=Nko}|\p{Script=Samaritan}|\p{Script=Mandaic}|\p{Script=Adlam}|\p{Script=Hanifi_Rohingya}|\p{Script=Mende_Kikakui}|\p{Script=Yezidi}|\p{Script=Old_Hungarian}|\p{Script=Imperial_Aramaic}|\p{Script=Phoenician}|\p{Script=Avestan}|\p{Script=Kharoshthi}|\p{Script=Sogdian}|\p{Script=Old_Sogdian}|\p{Script=Manichaean}|\p{Script=Nabataean}|\p{Script=Palmyrene}|\p{Script=Elymaic})/u;
/** The first strong character: a letter (or a directional mark) of either direction. */
const FIRST_STRONG = /[\u200e\u200f\u061c]|\p{L}/u;

/** The direction of the first strong character of `text`, or null when it has none (digits, punctuation, spaces). */
export function firstStrongDirection(text: string): BaseDirection | null {
  const match = FIRST_STRONG.exec(text);
  if (!match) return null;
  return RTL_STRONG.test(match[0]) ? 'rtl' : 'ltr';
}

/** Whether `text` holds a right-to-left letter (or mark). */
export function hasRtl(text: string): boolean {
  return RTL_STRONG.test(text);
}

/**
 * The direction a language is written in (CLDR's, through Intl.Locale's text info): rtl for ar, he, fa, ur, ps, sd,
 * yi, ckb, dv, ug…; ltr for any other tag, and for what is not a language tag.
 */
export function languageDirection(tag: string | null | undefined): BaseDirection {
  if (!tag) return 'ltr';
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & { getTextInfo?: () => { direction?: string }; textInfo?: { direction?: string } };
    const info = typeof locale.getTextInfo === 'function' ? locale.getTextInfo() : locale.textInfo;
    return info?.direction === 'rtl' ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

/**
 * The base direction of the document: the template's `direction` when it is ltr or rtl; with `auto` (the default)
 * the direction of the render's language (the translation language chosen), else of its locale.
 */
export function documentDirection(direction: Direction | undefined, language: string | null, locale: string | null): BaseDirection {
  if (direction === 'ltr' || direction === 'rtl') return direction;
  return languageDirection(language ?? locale);
}

/** Formatters whose output is one value that never breaks inside: numbers, amounts, percentages, dates and times. */
const UNBROKEN_FORMATTERS = new Set(['number', 'currency', 'percent', 'date', 'time', 'datetime']);

/** The formatter applied last in a binding (`{{ total | currency('EUR') }}` → currency), or null. */
export function lastFormatter(binding: Binding): string | null {
  const e = binding.expression;
  if (e.type !== 'BinaryExpression' || (e as jsep.BinaryExpression).operator !== '|') return null;
  const right = (e as jsep.BinaryExpression).right;
  if (right.type === 'Identifier') return (right as jsep.Identifier).name;
  if (right.type === 'CallExpression' && (right as jsep.CallExpression).callee.type === 'Identifier') {
    return ((right as jsep.CallExpression).callee as jsep.Identifier).name;
  }
  return null;
}

/** Longest value kept on one line by its shape: longer text is prose, and may wrap. */
const MOST_UNBROKEN = 60;
/** A word of a code or amount: it holds a digit, or it is a currency code or sign standing beside the digits. */
const CODE_WORD = /^(?:.*\p{Nd}.*|[A-Z]{3}|\p{Sc}+|[\u2212+\-])$/u;

/**
 * Whether a bound value is kept on one line (issue 33 item 4): a number, the output of a number, currency, percent,
 * date, time or datetime formatter, or a code or identifier — up to 60 characters of which every word holds a digit,
 * a currency code or sign beside them (INV-2026-0042, 01/01/2026, DE89 3704 0044 0532 0130 00, 1 234,50 SAR).
 */
export function keptUnbroken(value: unknown, text: string, binding: Binding): boolean {
  // several lines are several values (a list joined by line breaks), each free to wrap
  if (text === '' || text.length > MOST_UNBROKEN * 2 || text.includes('\n')) return false;
  if (typeof value === 'number') return true;
  const formatter = lastFormatter(binding);
  if (formatter !== null && UNBROKEN_FORMATTERS.has(formatter)) return true;
  if (text.length > MOST_UNBROKEN || !/\p{Nd}/u.test(text)) return false;
  const words = text.trim().split(/\s+/u);
  return words.every((w) => CODE_WORD.test(w));
}

/** Whether a value kept on one line reads left to right in any paragraph: it has no right-to-left letter. */
export function readsLeftToRight(text: string): boolean {
  return !hasRtl(text);
}
