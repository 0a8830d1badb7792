import { PDFArray, PDFDict, type PDFDocument, PDFName, PDFNull, PDFNumber, PDFRef } from '@cantoo/pdf-lib';
import { classicPages } from './classic-pages';
import { loadPdf } from './paced-pdf';

/**
 * A named destination (ISO 32000-1 12.3.2.3): its page (1-based) and the rest of its explicit destination array
 * (12.3.2.2), e.g. `XYZ, left, top, zoom`: names as their text, numbers, nulls.
 */
export type NamedDestination = { page: number; view: (string | number | null)[] };

/**
 * The named destinations of a PDF's catalog (/Dests: Chromium writes one for each id a link of the document points
 * to), name → destination. A print in Chromium's layout is read without parsing it (classicNamedDestinations: a
 * long catalogue's print is read in milliseconds where pdf-lib takes seconds to parse it); any other PDF is parsed
 * with pdf-lib.
 */
export async function namedDestinations(pdf: Buffer): Promise<Map<string, NamedDestination>> {
  return classicNamedDestinations(pdf) ?? parsedNamedDestinations(pdf);
}

/** PDF names' own characters: anything but white space and delimiters (ISO 32000-1 7.2.2, 7.3.5). */
const NAME = String.raw`\/[^\s\/\[\]()<>{}%]*`;
const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)`;
/**
 * One entry of the /Dests dictionary as Chromium writes it: `/name [page 0 R /XYZ left top zoom]`. A number or null
 * follows white space, so each token of the array is matched one way only (no backtracking over a long entry).
 */
const ENTRY = new RegExp(String.raw`\s*(${NAME})\s*\[\s*(\d+)\s+\d+\s+R((?:\s*${NAME}|\s+${NUMBER}|\s+null)*)\s*\]`, 'y');
const VIEW_TOKEN = new RegExp(String.raw`${NAME}|${NUMBER}|null`, 'g');

/** The text of a name token (`/a#20b` → `a b`): its `#xx` escapes resolved, one character per byte, as pdf-lib decodes it. */
function nameText(token: string): string {
  return token.slice(1).replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The named destinations of a PDF in Chromium's layout (classicPages: the catalog, the pages and the /Dests
 * dictionary are the only objects read), or null when it is not in that layout or its /Dests is written otherwise
 * (inline, with destination dictionaries or indirect arrays): the caller then parses it.
 */
export function classicNamedDestinations(pdf: Buffer): Map<string, NamedDestination> | null {
  const read = classicPages(pdf);
  if (read === null) return null;
  const destinations = new Map<string, NamedDestination>();
  if (!/\/Dests[\s/<\d]/.test(read.catalog)) return destinations;
  const dests = /\/Dests\s+(\d+)\s+\d+\s+R/.exec(read.catalog);
  const text = dests === null ? null : read.object(Number(dests[1]));
  const body = text === null ? null : /^\d+\s+\d+\s+obj\s*<<([\s\S]*)>>\s*$/.exec(text)?.[1];
  if (body === undefined || body === null) return null;
  const pageOf = new Map(read.pages.map((page, index) => [page.object, index + 1]));
  ENTRY.lastIndex = 0;
  let end = 0;
  for (let entry = ENTRY.exec(body); entry !== null; entry = ENTRY.exec(body)) {
    end = ENTRY.lastIndex;
    const page = pageOf.get(Number(entry[2]));
    if (page === undefined) continue;
    const view = Array.from(entry[3].matchAll(VIEW_TOKEN), ([token]) => (token === 'null' ? null : token.startsWith('/') ? nameText(token) : Number(token)));
    destinations.set(nameText(entry[1]), { page, view });
  }
  return body.slice(end).trim() === '' ? destinations : null;
}

/** The named destinations of any PDF, parsed with pdf-lib: those whose page is one of the document's. */
async function parsedNamedDestinations(pdf: Buffer): Promise<Map<string, NamedDestination>> {
  const document = await loadPdf(pdf);
  const destinations = new Map<string, NamedDestination>();
  const pageOf = new Map<string, number>(document.getPages().map((page, index) => [page.ref.toString(), index + 1]));
  const dests = document.catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
  if (dests === undefined) return destinations;
  for (const [name, value] of dests.entries()) {
    const target = value instanceof PDFRef ? document.context.lookup(value) : value;
    const array = target instanceof PDFDict ? target.lookupMaybe(PDFName.of('D'), PDFArray) : target instanceof PDFArray ? target : undefined;
    const first = array?.get(0);
    const page = first instanceof PDFRef ? pageOf.get(first.toString()) : undefined;
    if (array === undefined || page === undefined) continue;
    const view = array
      .asArray()
      .slice(1)
      .map((item) => (item instanceof PDFName ? item.decodeText() : item instanceof PDFNumber ? item.asNumber() : item === PDFNull ? null : undefined));
    if (view.every((item) => item !== undefined)) destinations.set(name.decodeText(), { page, view });
  }
  return destinations;
}

/**
 * The named destinations of `from` (a print of every page of the document) written into `to`, which has the same
 * pages in the same order (pages that differ, put together from several prints): its copied link annotations name
 * them, and pdf-lib's page copy does not bring the catalog's /Dests along.
 */
export async function copyDestinations(from: Buffer, to: PDFDocument): Promise<void> {
  const destinations = await namedDestinations(from);
  if (destinations.size === 0) return;
  const targets = to.getPages();
  const copied = to.context.obj({});
  for (const [name, { page, view }] of destinations) {
    const target = targets[page - 1];
    if (target !== undefined) copied.set(PDFName.of(name), to.context.obj([target.ref, ...view]));
  }
  to.catalog.set(PDFName.of('Dests'), to.context.register(copied));
}
