/**
 * Translations of a template version (docs/template-dsl.md, "Translations"):
 *
 *   { "defaultLanguage": "en",
 *     "languages": { "en": { "locale": "en-GB", "strings": { "invoice": { "title": "Invoice" } } },
 *                    "de": { "locale": "de-DE", "strings": { "invoice": { "title": "Rechnung" } } } } }
 *
 * Nested string objects are flattened to dotted keys ("invoice.title"). `{0}`, `{1}`… in a string are
 * replaced by the extra arguments of `t('key', arg0, arg1)`. Accepts the object or its JSON text.
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

/** Replaces {0}, {1}… with the arguments. */
export function interpolate(text: string, args: readonly string[]): string {
  if (args.length === 0 || !text.includes('{')) return text;
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const i = Number(index);
    return i < args.length ? args[i] : whole;
  });
}
