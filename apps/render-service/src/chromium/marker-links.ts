import { PDFArray, PDFDict, type PDFDocument, PDFHexString, PDFName, PDFNumber, type PDFPage, PDFRef, PDFString } from '@cantoo/pdf-lib';
import { classicLinks, withoutClassicLinks } from '../pdf/classic-links';
import { loadPdf, savePdf } from '../pdf/paced-pdf';

/**
 * Marker links: 1 px links to `https://<host>/<key>` put in a document before a print to learn where things landed
 * (a PDF link annotation knows its page and position). Page-aware tables, placed elements and batch prints use them.
 */

/** CSS pixels per PDF point: Chromium prints 96 CSS pixels to the inch. */
const PX_PER_PT = 96 / 72;

/** The top of a link in CSS pixels from the top of its page: the page's height and the link's upper edge, in points. */
function topOf(pageHeight: number, rectTop: number): number {
  return (pageHeight - rectTop) * PX_PER_PT;
}

/**
 * The links to `https://<host>/<key>` in a printed PDF, in page order: each key with its page number (1-based) and
 * the top of the link in CSS pixels from the top of the page (whole pixels: Chromium rounds the link's box).
 */
export function markerLinks(document: PDFDocument, host: string): { key: string; page: number; top: number }[] {
  const links: { key: string; page: number; top: number }[] = [];
  document.getPages().forEach((page, index) => {
    const annotations = page.node.Annots();
    if (!annotations) return;
    const height = page.getMediaBox().height;
    for (let i = 0; i < annotations.size(); i++) {
      const annotation = annotations.lookupMaybe(i, PDFDict);
      const key = markerKeyOf(annotation, host);
      if (key === null) continue;
      const rect = annotation?.lookupMaybe(PDFName.of('Rect'), PDFArray);
      const y = rect?.lookupMaybe(3, PDFNumber)?.asNumber() ?? height;
      links.push({ key, page: index + 1, top: topOf(height, y) });
    }
  });
  return links;
}

/** The marker links of a printed PDF (markerLinks), and the PDF without them. */
export type PrintedMarkerLinks = { links: { key: string; page: number; top: number }[]; without: () => Promise<Buffer> };

/**
 * The links to `https://<host>/<key>` in a printed PDF, as markerLinks finds them, and the PDF without them. A print
 * in Chromium's layout is read without parsing it (classic-links.ts: a tagged print of a long document has a
 * structure element per cell) and the links go out in an incremental update; any other PDF is parsed with pdf-lib
 * and written anew without them.
 */
export async function printedMarkerLinks(printed: Buffer, host: string): Promise<PrintedMarkerLinks> {
  const read = classicLinks(printed);
  if (read !== null) {
    const prefix = `https://${host}/`;
    const markers = read.links.filter((link) => link.uri.startsWith(prefix));
    return {
      links: markers.map((link) => ({ key: link.uri.slice(prefix.length), page: link.page, top: topOf(link.pageHeight, link.rect[3]) })),
      without: () => Promise.resolve(withoutClassicLinks(printed, read, new Set(markers.map((link) => link.object)))),
    };
  }
  const document = await loadPdf(printed);
  return {
    links: markerLinks(document, host),
    without: async () => {
      for (const page of document.getPages()) withoutMarkerLinks(page, [host]);
      return savePdf(document);
    },
  };
}

/** Takes the links to any of `hosts` out of a page's annotations, and their objects out of its document. */
export function withoutMarkerLinks(page: PDFPage, hosts: string[]): void {
  const annotations = page.node.Annots();
  if (!annotations) return;
  for (let i = annotations.size() - 1; i >= 0; i--) {
    if (!isMarkerLink(annotations.lookupMaybe(i, PDFDict), hosts)) continue;
    const ref = annotations.get(i);
    annotations.remove(i);
    if (ref instanceof PDFRef) page.doc.context.delete(ref);
  }
  if (annotations.size() === 0) page.node.delete(PDFName.of('Annots'));
}

/** The key of a marker link to `host` (`https://<host>/<key>`), or null for any other annotation. */
export function markerKeyOf(annotation: PDFDict | undefined, host: string): string | null {
  const uri = linkUri(annotation);
  const prefix = `https://${host}/`;
  return uri?.startsWith(prefix) ? uri.slice(prefix.length) : null;
}

/** Whether an annotation is a link to any of `hosts` (`https://<host>/<key>`). */
export function isMarkerLink(annotation: PDFDict | undefined, hosts: string[]): boolean {
  return hosts.some((host) => markerKeyOf(annotation, host) !== null);
}

/** The URI a link annotation opens, or null. */
function linkUri(annotation: PDFDict | undefined): string | null {
  const uri = annotation?.lookupMaybe(PDFName.of('A'), PDFDict)?.lookup(PDFName.of('URI'));
  return uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : null;
}
