import { type ClassicTrailer, readClassicObject, readClassicTrailer } from './pdf-xref';

/**
 * The pages of a PDF in Chromium's layout (classic cross-reference tables, pdf-xref.ts), read without parsing the
 * file: the catalog, the page tree and the pages are the only objects read; what a reader needs besides (the pages'
 * annotations, the catalog's named destinations) it reads through `object`.
 */

/** A page object: its number, its text (`N G obj …`, up to its `endobj`), its height in points and its /Annots object numbers. */
export type ClassicPage = { object: number; text: string; height: number; annotations: number[] };

/**
 * What classicPages read: the last trailer, the catalog's text, the pages in order, a reader of any other object by
 * number (its text, or null), and the generation number of every object read so far.
 */
export type ClassicPages = {
  trailer: ClassicTrailer;
  catalog: string;
  pages: ClassicPage[];
  object: (number: number) => string | null;
  generations: Map<number, number>;
};

/** Page tree levels followed before giving up (a loop or a damaged tree ends here). */
const MAX_DEPTH = 32;

const REF = /(\d+)\s+\d+\s+R/g;

/** The object numbers of the references in `text` (`12 0 R 13 0 R`), in order. */
function refs(text: string): number[] {
  return Array.from(text.matchAll(REF), (match) => Number(match[1]));
}

/** The numbers of an array entry written inline (`/Key [1 2 3]`), or null. */
export function inlineNumbers(dictionary: string, key: string): number[] | null {
  const match = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dictionary);
  return match === null ? null : match[1].trim().split(/\s+/).map(Number);
}

/**
 * The catalog and the pages of the PDF, or null when the PDF is not in the layout read here (cross-reference
 * streams, an encrypted file, a page tree or a page's annotations written otherwise): the caller then parses it
 * with pdf-lib.
 */
export function classicPages(pdf: Buffer): ClassicPages | null {
  const trailer = readClassicTrailer(pdf);
  if (trailer === null || trailer.encrypted) return null;
  const generations = new Map<number, number>();
  const object = (number: number): string | null => {
    const text = readClassicObject(pdf, trailer.xrefOffset, number);
    if (text !== null) generations.set(number, Number(/^\d+\s+(\d+)\s+obj/.exec(text)?.[1] ?? 0));
    return text;
  };
  const catalog = object(trailer.rootObject);
  const root = catalog === null ? null : /\/Pages\s+(\d+)\s+\d+\s+R/.exec(catalog);
  if (catalog === null || root === null) return null;
  const pages: ClassicPage[] = [];
  const seen = new Set<number>();
  const visit = (number: number, mediaBox: number[] | null, depth: number): boolean => {
    const text = object(number);
    if (text === null || depth > MAX_DEPTH || seen.has(number)) return false;
    seen.add(number);
    const box = inlineNumbers(text, 'MediaBox') ?? mediaBox;
    if (/\/Type\s*\/Pages[\s/>]/.test(text)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(text);
      return kids !== null && refs(kids[1]).every((kid) => visit(kid, box, depth + 1));
    }
    if (!/\/Type\s*\/Page[\s/>]/.test(text) || box === null || box.length !== 4) return false;
    const inline = /\/Annots\s*\[([^\]]*)\]/.exec(text);
    if (inline === null && /\/Annots[\s\d]/.test(text)) return false; // an array of its own: not Chromium's
    pages.push({ object: number, text, height: box[3] - box[1], annotations: inline === null ? [] : refs(inline[1]) });
    return true;
  };
  return visit(Number(root[1]), null, 0) ? { trailer, catalog, pages, object, generations } : null;
}
