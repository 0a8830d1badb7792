import createHyphenator from 'hyphen/hyphen.js';

/**
 * Hyphenation by language (issue 33 item 4, decision 0039). The Chromium the service prints with has no hyphenation
 * dictionaries (`hyphens: auto` does nothing), so the compiler writes soft hyphens (U+00AD) into the words of texts
 * whose style asks for it, from the TeX patterns (Liang's algorithm) of the `hyphen` package. Chromium breaks a line
 * at a soft hyphen and prints a hyphen there; elsewhere a soft hyphen is not drawn.
 */

/** The soft hyphen: a place a line may break, shown as a hyphen only there. */
export const SOFT_HYPHEN = '\u00ad';

/**
 * The pattern file of `hyphen` per language, by the language subtag, language-script or language-region (lower case).
 * Thai and Chinese are left out on purpose: Thai is not hyphenated in print (Chromium breaks its lines by
 * dictionary), and `hyphen`'s Chinese patterns are for Pinyin, not Han text.
 */
const PATTERN_FILES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'af', 'as', 'be', 'bg', 'bn', 'ca', 'cs', 'cy', 'da', 'es', 'et', 'eu', 'fi', 'fr', 'fur', 'ga', 'gl', 'gu', 'hi', 'hr', 'hsb',
      'hu', 'hy', 'ia', 'id', 'is', 'it', 'ka', 'kmr', 'kn', 'la', 'lt', 'lv', 'mk', 'ml', 'mr', 'nb', 'nl', 'nn', 'no', 'oc', 'or',
      'pa', 'pl', 'pms', 'pt', 'rm', 'ro', 'ru', 'sa', 'sk', 'sl', 'sq', 'sv', 'ta', 'te', 'tk', 'tr', 'uk',
    ].map((language) => [language, language]),
  ),
  de: 'de-1996',
  el: 'el-monoton',
  en: 'en-us',
  'en-gb': 'en-gb',
  mn: 'mn-cyrl',
  sr: 'sr-cyrl',
  'sr-cyrl': 'sr-cyrl',
  'sr-latn': 'sh-latn',
};

/** The languages hyphenated, as the docs list them. */
export const HYPHENATED_LANGUAGES = Object.keys(PATTERN_FILES).sort();

/** The pattern file for a language tag (`de-CH`, `en-GB`, `sr-Latn-RS`), or null when `hyphen` has none for it. */
export function patternFileFor(tag: string): string | null {
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(tag);
  } catch {
    return null;
  }
  const language = locale.language.toLowerCase();
  const candidates = [locale.script ? `${language}-${locale.script}` : null, locale.region ? `${language}-${locale.region}` : null, language];
  for (const key of candidates) {
    const file = key === null ? undefined : PATTERN_FILES[key.toLowerCase()];
    if (file !== undefined) return file;
  }
  return null;
}

/** Shortest word hyphenated (shorter ones would keep two letters either side of a break anyway). */
const SHORTEST_WORD = 5;
/** Longest word hyphenated: longer runs of letters are not words, and break anywhere like any overlong word. */
const LONGEST_WORD = 64;
/**
 * Words a hyphenator may have seen before it is made anew: `hyphen` keeps every word it hyphenated in its caches, and
 * a long-running service sees every word of its data.
 */
const WORDS_PER_HYPHENATOR = 20_000;

interface Hyphenator {
  hyphenate: (word: string) => string;
  words: number;
}

/** Loaded pattern files (module state: once per process and per compile thread). */
const patternsByFile = new Map<string, unknown>();
const hyphenators = new Map<string, Hyphenator>();

function loadPatterns(file: string): unknown {
  let patterns = patternsByFile.get(file);
  if (patterns === undefined) {
    // a pattern file is a CommonJS module of arrays, 10 kB to 750 kB; only the languages asked for are loaded
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    patterns = require(`hyphen/patterns/${file}.js`) as unknown;
    patternsByFile.set(file, patterns);
  }
  return patterns;
}

function hyphenateWord(file: string, word: string): string {
  let hyphenator = hyphenators.get(file);
  if (hyphenator === undefined || hyphenator.words >= WORDS_PER_HYPHENATOR) {
    hyphenator = { hyphenate: createHyphenator(loadPatterns(file), { html: false, hyphenChar: SOFT_HYPHEN, minWordLength: SHORTEST_WORD }), words: 0 };
    hyphenators.set(file, hyphenator);
  }
  hyphenator.words++;
  return hyphenator.hyphenate(word);
}

/** A word to hyphenate: letters (and their marks) only, not right after `&` (an entity's name). */
const WORD = /(?<![&\p{L}\p{M}])\p{L}[\p{L}\p{M}]*/gu;
/** Tokens never hyphenated: those holding a digit (codes, amounts, dates), addresses (URLs, e-mail, domain names). */
const NOT_WORDS = /\p{Nd}|:\/\/|^www\.|@|\.[a-z]{2,}\b/iu;

/** Plain text (escaped for HTML) with soft hyphens in its words, in the language of `file`. */
function hyphenateText(text: string, file: string): string {
  return text.replace(/[^\s]+/gu, (token) => {
    if (NOT_WORDS.test(token)) return token;
    return token.replace(WORD, (word) => (word.length < SHORTEST_WORD || word.length > LONGEST_WORD ? word : hyphenateWord(file, word)));
  });
}

/** Elements whose text is never hyphenated: values kept on one line (`<nobr>`, `<bdi class="nb">`), code. */
const KEPT = /^<(?:nobr|bdi class="nb"|code|pre)(?=[\s>])/;
/** Elements that have no end tag. */
const VOID = /^<(?:br|img|hr|col|wbr|input|meta|link|source)(?=[\s>/])/;

/**
 * HTML (a paragraph's or a cell's content, as the compiler writes it) with soft hyphens in the words of its text, in
 * the language of pattern file `file`. Numbers, amounts, dates and codes kept on one line (decision 0031), code, and
 * words holding digits or looking like addresses (URLs, e-mail) are left as they are.
 */
export function hyphenateHtml(html: string, file: string): string {
  let out = '';
  /** For each open element, whether its text is kept. */
  const open: boolean[] = [];
  let kept = 0;
  for (const piece of html.split(/(<[^>]*>)/)) {
    if (piece === '') continue;
    if (piece.startsWith('<')) {
      if (piece.startsWith('</')) {
        if (open.pop()) kept--;
      } else if (!VOID.test(piece) && !piece.endsWith('/>')) {
        const keeps = KEPT.test(piece);
        open.push(keeps);
        if (keeps) kept++;
      }
      out += piece;
    } else out += kept > 0 ? piece : hyphenateText(piece, file);
  }
  return out;
}
