/** The part of `hyphen` that hyphenation.ts uses: its hyphenator factory (decision 0039). */
declare module 'hyphen/hyphen.js' {
  /**
   * A hyphenator for one language's patterns (a `hyphen/patterns/<language>.js` module): it returns `text` with
   * `hyphenChar` at every place its words may break; with `html` it skips the text of tags.
   */
  function createHyphenator(patterns: unknown, options?: { html?: boolean; hyphenChar?: string; minWordLength?: number; async?: false }): (text: string) => string;
  export = createHyphenator;
}
