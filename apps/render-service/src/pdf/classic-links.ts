import { classicPages, type ClassicPages, inlineNumbers } from './classic-pages';
import { appendClassicUpdate, type UpdatedObject } from './pdf-xref';

/**
 * The URI links of a PDF in Chromium's layout (classic cross-reference tables, pdf-xref.ts), read and taken out
 * without parsing the file: the pages as classicPages reads them and their annotations are the only objects read.
 * A tagged print of a long document holds a structure element per cell (130,000 objects for 10,000 statement rows,
 * about 3 s for pdf-lib to parse); finding a few marker links in it, and taking them out, needs none of them.
 */

/** One URI link annotation: its page (1-based), its /Rect, the page's height in points, its object number. */
export type ClassicLink = { uri: string; page: number; rect: number[]; pageHeight: number; object: number };

/** What classicLinks read: the pages as classicPages read them, and their URI links. */
export type ClassicLinks = Omit<ClassicPages, 'object'> & { links: ClassicLink[] };

/**
 * Every URI link annotation of the PDF, page by page, or null when the PDF is not in the layout read here
 * (classicPages; an annotation written otherwise): the caller then parses it with pdf-lib.
 */
export function classicLinks(pdf: Buffer): ClassicLinks | null {
  const read = classicPages(pdf);
  if (read === null) return null;
  const links: ClassicLink[] = [];
  for (const [index, page] of read.pages.entries()) {
    for (const annotation of page.annotations) {
      const dictionary = read.object(annotation);
      if (dictionary === null) return null;
      const uri = /\/URI\s*\(((?:[^()\\]|\\.)*)\)/s.exec(dictionary);
      const rect = inlineNumbers(dictionary, 'Rect');
      if (uri === null || !/\/Subtype\s*\/Link[\s/>]/.test(dictionary)) continue;
      if (rect === null || rect.length !== 4) return null;
      links.push({ uri: literalString(uri[1]), page: index + 1, rect, pageHeight: page.height, object: annotation });
    }
  }
  const { trailer, catalog, pages, generations } = read;
  return { trailer, catalog, pages, links, generations };
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
