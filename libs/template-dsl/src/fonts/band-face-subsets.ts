import { readFileSync } from 'node:fs';
import subsetFont from 'subset-font';

/** What Chromium writes into the `pageNumber` and `totalPages` spans of a band: a page count in decimal digits. */
const COUNTER_CHARACTERS = '0123456789';

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi;
/** Markup whose printed characters are not all in it: list items (Chromium draws their markers). */
const GENERATED_TEXT = /<(?:li|ol|ul)[\s>]/i;
/**
 * Characters after which Chromium may draw others than the text's own: combining marks (shaping may compose them
 * with the letter before into a precomposed glyph the text does not name) and the soft hyphen (a hyphen at a break).
 */
const SHAPED_OR_HYPHENATED = /[\p{M}\u00ad]/u;

/**
 * The characters the bands' markup can print (each once, in code point order): their text after the data was applied
 * (entities decoded), the alt text of their images, the digits Chromium fills the page counters with and a space.
 * Null when that set is not certain — a list (markers), an entity other than those the compiler writes, a combining
 * mark or a soft hyphen: the bands then keep the whole faces (a glyph must never be missing).
 */
export function bandCharacters(markups: readonly string[]): string | null {
  const characters = new Set<string>([' ', ...COUNTER_CHARACTERS]);
  for (const markup of markups) {
    if (GENERATED_TEXT.test(markup)) return null;
    let certain = true;
    const text = markup
      .replace(/<[^>]*>/g, (tag) => [...tag.matchAll(/\salt="([^"]*)"/g)].map((m) => m[1]).join(' '))
      .replace(ENTITY, (entity, name: string) => {
        if (name.startsWith('#')) return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10));
        const decoded = NAMED_ENTITIES[name];
        if (decoded === undefined) certain = false;
        return decoded ?? entity;
      });
    if (!certain || SHAPED_OR_HYPHENATED.test(text)) return null;
    for (const c of text) characters.add(c);
  }
  return [...characters].sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0)).join('');
}

/**
 * Built-in font files subset to the characters bands print (decision 0020, "Band faces subset"), as TrueType data URIs,
 * made in the background and kept (bounded, least recently used out). A subset is made the second time it is asked
 * for, so bands whose text changes with every document never pay for one; until it is made, the caller uses the whole
 * face. Only for printers that lay out bands (the render service). A subset that fails is reported to `onFailure`
 * and not tried again for that key: those bands keep the whole face.
 */
export class BandFaceSubsets {
  private readonly made = new Map<string, string>();
  private readonly askedOnce = new Set<string>();
  private readonly making = new Map<string, Promise<void>>();
  private readonly failed = new Set<string>();

  constructor(
    private readonly onFailure: (file: string, error: unknown) => void,
    private readonly limit = 100,
  ) {}

  /** The data URI of `file` (a built-in WOFF2 file) subset to `characters`, or null while there is none. */
  dataUri(file: string, characters: string): string | null {
    const key = `${file}\u0000${characters}`;
    const made = this.made.get(key);
    if (made !== undefined) {
      this.made.delete(key);
      this.made.set(key, made);
      return made;
    }
    if (this.making.has(key) || this.failed.has(key)) return null;
    if (!this.askedOnce.has(key)) {
      if (this.askedOnce.size >= this.limit) this.askedOnce.clear();
      this.askedOnce.add(key);
      return null;
    }
    this.askedOnce.delete(key);
    const making = subsetFont(readFileSync(file), characters, { targetFormat: 'truetype' })
      .then(
        (bytes) => {
          if (this.made.size >= this.limit) this.made.delete(this.made.keys().next().value as string);
          this.made.set(key, `data:font/ttf;base64,${bytes.toString('base64')}`);
        },
        (error: unknown) => {
          if (this.failed.size >= this.limit) this.failed.clear();
          this.failed.add(key);
          this.onFailure(file, error);
        },
      )
      .finally(() => this.making.delete(key));
    this.making.set(key, making);
    return null;
  }

  /** Settles when every subset being made is made (or has failed). */
  async settled(): Promise<void> {
    await Promise.all(this.making.values());
  }
}
