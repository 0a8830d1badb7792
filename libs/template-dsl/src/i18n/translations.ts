import { IntlMessageFormat } from 'intl-messageformat';

/**
 * Translations of a template version (docs/template-dsl.md, "Translations"):
 *
 *   { "defaultLanguage": "en",
 *     "languages": { "en": { "locale": "en-GB", "strings": { "invoice": { "title": "Invoice" } } },
 *                    "de": { "locale": "de-DE", "strings": { "invoice": { "title": "Rechnung" } } } } }
 *
 * Nested string objects are flattened to dotted keys ("invoice.title"). Strings are ICU MessageFormat
 * (`formatTranslation`): `{0}`, `{1}`… are the extra arguments of `t('key', arg0, arg1)`, with plurals and
 * selects. Accepts the object or its JSON text.
 */

const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const MAX_NESTING = 32;

export interface LanguageStrings {
  language: string;
  locale: string | null;
  strings: ReadonlyMap<string, string>;
}

export interface TranslationSet {
  defaultLanguage: string;
  languages: ReadonlyMap<string, LanguageStrings>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Flattens nested string objects to dotted keys, iteratively and to a bounded depth. */
function flattenStrings(root: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const stack: { prefix: string; value: Record<string, unknown>; depth: number }[] = [{ prefix: '', value: root, depth: 1 }];
  while (stack.length > 0) {
    const { prefix, value, depth } = stack.pop() as { prefix: string; value: Record<string, unknown>; depth: number };
    for (const key of Object.keys(value)) {
      const child = value[key];
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof child === 'string') out.set(path, child);
      else if (typeof child === 'number' || typeof child === 'boolean') out.set(path, String(child));
      else if (isRecord(child) && depth < MAX_NESTING) stack.push({ prefix: path, value: child, depth: depth + 1 });
    }
  }
  return out;
}

function validLocale(locale: string): boolean {
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
}

const parsedByObject = new WeakMap<object, TranslationSet | null>();
const parsedByText = new Map<string, TranslationSet | null>();

function parse(value: unknown): TranslationSet | null {
  if (!isRecord(value) || !isRecord(value.languages)) return null;
  const languages = new Map<string, LanguageStrings>();
  for (const code of Object.keys(value.languages)) {
    const entry = value.languages[code];
    if (!LANGUAGE_CODE.test(code) || !isRecord(entry)) continue;
    const locale = typeof entry.locale === 'string' && validLocale(entry.locale) ? entry.locale : validLocale(code) ? code : null;
    const strings = isRecord(entry.strings) ? flattenStrings(entry.strings) : new Map<string, string>();
    languages.set(code, { language: code, locale, strings });
  }
  if (languages.size === 0) return null;
  const requestedDefault = typeof value.defaultLanguage === 'string' ? value.defaultLanguage : '';
  const defaultLanguage = languages.has(requestedDefault) ? requestedDefault : [...languages.keys()].sort()[0];
  return { defaultLanguage, languages };
}

/** Parses translations (object or JSON text); null when absent or not in the documented format. */
export function parseTranslations(translations: unknown): TranslationSet | null {
  if (translations === null || translations === undefined) return null;
  if (typeof translations === 'string') {
    const hit = parsedByText.get(translations);
    if (hit !== undefined) return hit;
    let parsed: TranslationSet | null = null;
    try {
      parsed = parse(JSON.parse(translations));
    } catch {
      parsed = null;
    }
    if (parsedByText.size > 200) parsedByText.clear();
    parsedByText.set(translations, parsed);
    return parsed;
  }
  if (typeof translations !== 'object') return null;
  const hit = parsedByObject.get(translations);
  if (hit !== undefined) return hit;
  const parsed = parse(translations);
  parsedByObject.set(translations, parsed);
  return parsed;
}

/**
 * The languages a version defines, sorted. An API `language` outside this list is a 400 ValidationError;
 * a version without translations defines none.
 */
export function languagesOf(translations: unknown): string[] {
  const set = parseTranslations(translations);
  return set ? [...set.languages.keys()].sort() : [];
}

/** Finds a language case-insensitively; null when the set does not define it. */
export function findLanguage(set: TranslationSet, language: string): LanguageStrings | null {
  const exact = set.languages.get(language);
  if (exact) return exact;
  const wanted = language.toLowerCase();
  for (const [code, strings] of set.languages) if (code.toLowerCase() === wanted) return strings;
  return null;
}

/** The strings a render uses: the requested language, then the default language. */
export interface ActiveTranslations {
  language: string | null;
  locale: string | null;
  lookup(key: string): string | undefined;
}

export function activeTranslations(translations: unknown, language: string | null | undefined): ActiveTranslations {
  const set = parseTranslations(translations);
  if (!set) return { language: language ?? null, locale: null, lookup: () => undefined };
  const fallback = set.languages.get(set.defaultLanguage) as LanguageStrings;
  const chosen = (language ? findLanguage(set, language) : null) ?? fallback;
  return {
    language: chosen.language,
    locale: chosen.locale ?? fallback.locale,
    lookup: (key) => chosen.strings.get(key) ?? fallback.strings.get(key),
  };
}

/** Replaces {0}, {1}… with the arguments: the translations of before ICU MessageFormat, kept exactly. */
function positional(text: string, args: readonly unknown[]): string {
  if (args.length === 0 || !text.includes('{')) return text;
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const i = Number(index);
    return i < args.length ? plainText(args[i]) : whole;
  });
}

function plainText(value: unknown): string {
  return value === undefined || value === null || typeof value === 'object' ? '' : String(value);
}

/** Text with no ICU syntax beyond positional `{0}` placeholders. */
const POSITIONAL_ONLY = /^(?:[^{}]|\{\d+\})*$/;
const MAX_CACHED_MESSAGES = 500;
const messages = new Map<string, IntlMessageFormat | string>();

/** The parsed message, or why it does not parse; one parse per (locale, text). */
function message(text: string, locale: string): IntlMessageFormat | string {
  const key = `${locale}\u0000${text}`;
  let parsed = messages.get(key);
  if (parsed === undefined) {
    try {
      parsed = new IntlMessageFormat(text, locale, undefined, { ignoreTag: true });
    } catch (error) {
      parsed = error instanceof Error ? error.message : String(error);
    }
    if (messages.size >= MAX_CACHED_MESSAGES) messages.clear();
    messages.set(key, parsed);
  }
  return parsed;
}

export interface FormattedTranslation {
  text: string;
  /** Why the message could not be formatted as ICU MessageFormat (the text then has only `{0}`… replaced). */
  problem: string | null;
}

/**
 * A translation string with the arguments of `t('key', arg0, arg1…)`: ICU MessageFormat (plural, select,
 * selectordinal, number and date arguments, in the document's locale) with the arguments named 0, 1…, or by the
 * names of one object argument (`t('key', { count: n })`). Strings with only `{0}` placeholders are filled as they
 * always were. A message that is not valid ICU, or lacks an argument, is filled positionally and has a problem.
 */
export function formatTranslation(text: string, args: readonly unknown[], locale: string): FormattedTranslation {
  if (POSITIONAL_ONLY.test(text)) return { text: positional(text, args), problem: null };
  const parsed = message(text, locale);
  if (typeof parsed === 'string') return { text: positional(text, args), problem: `it is not valid ICU MessageFormat (${parsed})` };
  const [first] = args;
  const named = args.length === 1 && typeof first === 'object' && first !== null && !Array.isArray(first);
  const values: Record<string, string | number | boolean | Date> = {};
  const entries = named ? Object.entries(first as Record<string, unknown>) : args.map((v, i) => [String(i), v] as const);
  for (const [name, v] of entries) values[name] = typeof v === 'number' || typeof v === 'boolean' ? v : plainText(v);
  try {
    const out = parsed.format(values);
    return { text: typeof out === 'string' ? out : (Array.isArray(out) ? out : [out]).map(plainText).join(''), problem: null };
  } catch (error) {
    return { text: positional(text, args), problem: error instanceof Error ? error.message : String(error) };
  }
}
