import { appendClassicUpdate, type ClassicTrailer, readClassicObject, readClassicTrailer, type UpdatedObject } from './pdf-xref';

/**
 * The URI links of a PDF in Chromium's layout (classic cross-reference tables, pdf-xref.ts), read and taken out
 * without parsing the file: the catalog, the page tree, the pages and their annotations are the only objects read.
 * A tagged print of a long document holds a structure element per cell (130,000 objects for 10,000 statement rows,
 * about 3 s for pdf-lib to parse); finding a few marker links in it, and taking them out, needs none of them.
 */

/** One URI link annotation: its page (1-based), its /Rect, the page's height in points, its object number. */
export type ClassicLink = { uri: string; page: number; rect: number[]; pageHeight: number; object: number };

/** A page object: its number, its text (`N G obj …`, up to its `endobj`) and its /Annots object numbers. */
type ClassicPage = { object: number; text: string; annotations: number[] };

/** What classicLinks read: the last trailer, the catalog's text, the pages in order, their URI links, every object's generation number. */
export type ClassicLinks = { trailer: ClassicTrailer; catalog: string; pages: ClassicPage[]; links: ClassicLink[]; generations: Map<number, number> };


/** Page tree levels followed before giving up (a loop or a damaged tree ends here). */
const MAX_DEPTH = 32;

const REF = /(\d+)\s+\d+\s+R/g;

/** The object numbers of the references in `text` (`12 0 R 13 0 R`), in order. */
function refs(text: string): number[] {
  return Array.from(text.matchAll(REF), (match) => Number(match[1]));
}

/** The numbers of an array entry written inline (`/Key [1 2 3]`), or null. */
function numbers(dictionary: string, key: string): number[] | null {
  const match = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dictionary);
  return match === null ? null : match[1].trim().split(/\s+/).map(Number);
}

/**
 * Every URI link annotation of the PDF, page by page, or null when the PDF is not in the layout read here
 * (cross-reference streams, an encrypted file, a page tree or annotation written otherwise): the caller then parses
 * it with pdf-lib.
 */
export function classicLinks(pdf: Buffer): ClassicLinks | null {
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
  const links: ClassicLink[] = [];
  const seen = new Set<number>();
  const visit = (number: number, mediaBox: number[] | null, depth: number): boolean => {
    const text = object(number);
    if (text === null || depth > MAX_DEPTH || seen.has(number)) return false;
    seen.add(number);
    const box = numbers(text, 'MediaBox') ?? mediaBox;
    if (/\/Type\s*\/Pages[\s/>]/.test(text)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(text);
      return kids !== null && refs(kids[1]).every((kid) => visit(kid, box, depth + 1));
    }
    if (!/\/Type\s*\/Page[\s/>]/.test(text) || box === null || box.length !== 4) return false;
    const inline = /\/Annots\s*\[([^\]]*)\]/.exec(text);
    if (inline === null && /\/Annots[\s\d]/.test(text)) return false; // an array of its own: not Chromium's
    const annotations = inline === null ? [] : refs(inline[1]);
    pages.push({ object: number, text, annotations });
    for (const annotation of annotations) {
      const dictionary = object(annotation);
      if (dictionary === null) return false;
      const uri = /\/URI\s*\(((?:[^()\\]|\\.)*)\)/s.exec(dictionary);
      const rect = numbers(dictionary, 'Rect');
      if (uri === null || !/\/Subtype\s*\/Link[\s/>]/.test(dictionary)) continue;
      if (rect === null || rect.length !== 4) return false;
      links.push({ uri: literalString(uri[1]), page: pages.length, rect, pageHeight: box[3] - box[1], object: annotation });
    }
    return true;
  };
  return visit(Number(root[1]), null, 0) ? { trailer, catalog, pages, links, generations } : null;
}

/** The bytes of a literal string's body (ISO 32000-1 7.3.4.2): its escapes and octal codes resolved. */
function literalString(body: string): string {
  const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
  return body.replace(/\\([0-7]{1,3}|[\s\S])/g, (_, escaped: string) =>
    /^[0-7]/.test(escaped) ? String.fromCharCode(parseInt(escaped, 8)) : (escapes[escaped] ?? (escaped === '\n' || escaped === '\r' ? '' : escaped)),
  );
}

/**
 * The PDF without the annotations `removed` (object numbers from classicLinks), as an incremental update (ISO
 * 32000-1 7.5.6) that keeps the file byte for byte: each page that listed one is written anew without it in its
 * /Annots (the entry dropped when none is left), and each removed annotation's object becomes `null`, so that a
 * reader that parses the whole file finds no annotation nobody lists. `written`: objects written in the same update,
 * new ones (numbered from the trailer's /Size up) or others written anew (not a page that loses an annotation). The
 * trailer keeps /Root, /Info and /ID.
 */
export function withoutClassicLinks(pdf: Buffer, read: ClassicLinks, removed: ReadonlySet<number>, written: readonly UpdatedObject[] = []): Buffer {
  const { trailer } = read;
  const objects: UpdatedObject[] = [...written];
  for (const page of read.pages) {
    if (!page.annotations.some((annotation) => removed.has(annotation))) continue;
    const kept = page.annotations.filter((annotation) => !removed.has(annotation));
    const body = page.text
      .replace(/^\d+\s+\d+\s+obj\s*/, '')
      .replace(/\/Annots\s*\[[^\]]*\]/, kept.length === 0 ? '' : `/Annots [${kept.map((annotation) => `${annotation} 0 R`).join(' ')}]`)
      .trimEnd();
    objects.push({ number: page.object, body });
  }
  for (const number of removed) objects.push({ number, body: 'null' });
  if (objects.length === 0) return pdf;
  return appendClassicUpdate(
    pdf,
    trailer,
    objects.map((object) => ({ ...object, generation: read.generations.get(object.number) ?? 0 })),
  );
}
