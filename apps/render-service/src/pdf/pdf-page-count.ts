import { readClassicObject, readClassicTrailer } from './pdf-xref';
import { loadPdf } from './paced-pdf';

/**
 * The page count written in a PDF: the /Count of the page tree root, reached through the last trailer's /Root and
 * the classic cross-reference tables Chromium (Skia) writes, incremental updates included (the service appends one
 * for the metadata, pdf-metadata.ts). This reads a few hundred bytes however long the PDF is; a PDF in another
 * layout (cross-reference streams) is parsed in full with pdf-lib instead.
 */
export async function readPdfPageCount(pdf: Buffer): Promise<number> {
  const quick = pageCountFromClassicXref(pdf);
  if (quick !== null) return quick;
  const document = await loadPdf(pdf, { ignoreEncryption: true });
  return document.getPageCount();
}

/** null when the PDF's cross-reference sections are not classic tables with plain trailers. */
export function pageCountFromClassicXref(pdf: Buffer): number | null {
  const trailer = readClassicTrailer(pdf);
  if (trailer === null) return null;
  const catalog = readClassicObject(pdf, trailer.xrefOffset, trailer.rootObject);
  const pagesRef = catalog === null ? null : /\/Pages\s+(\d+)\s+\d+\s+R/.exec(catalog);
  if (pagesRef === null) return null;
  const pages = readClassicObject(pdf, trailer.xrefOffset, Number(pagesRef[1]));
  const count = pages === null ? null : /\/Count\s+(\d+)/.exec(pages);
  return count === null ? null : Number(count[1]);
}
