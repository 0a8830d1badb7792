import { drawObject, PDFArray, type PDFDocument, type PDFDict, PDFName, PDFNumber, PDFObjectCopier, type PDFPage, type PDFPageLeaf, PDFRawStream, popGraphicsState, pushGraphicsState } from '@cantoo/pdf-lib';

/** Draws a page of another PDF over a page of the document it was made for, at the page's origin. */
export type PageStamp = (page: PDFPage) => void;

/**
 * Pages of `source` made ready to draw over pages of `own`, each as it was printed (a form XObject, ISO 32000-1 8.10,
 * laid over a page of its size): the band pages of a batch print, stamped on each document's pages. When every page's
 * content is one encoded stream, as Chromium prints them, the forms keep the streams' bytes and filters as they are
 * and copy the pages' resources with one copier (the fonts and images the pages share are copied once). pdf-lib's
 * embedPages, taken for any other page, decodes every page and deflates it anew, for each document of a batch again.
 */
export async function pageStamps(own: PDFDocument, source: PDFDocument, indices: number[]): Promise<PageStamp[]> {
  const pages = indices.map((index) => source.getPage(index));
  const streams = pages.map(({ node }) => oneEncodedStream(source, node));
  if (streams.some((stream) => stream === null)) {
    const embedded = await own.embedPages(pages);
    return embedded.map((page) => (target) => target.drawPage(page));
  }
  const copier = PDFObjectCopier.for(source.context, own.context);
  return pages.map(({ node }, i) => {
    const stream = streams[i] as PDFRawStream;
    const [x0, y0, x1, y1] = [0, 1, 2, 3].map((n) => node.MediaBox().lookup(n, PDFNumber).asNumber());
    const [left, bottom] = [Math.min(x0, x1), Math.min(y0, y1)];
    const form: PDFDict = own.context.obj({
      Type: 'XObject',
      Subtype: 'Form',
      FormType: 1,
      BBox: [left, bottom, Math.max(x0, x1), Math.max(y0, y1)],
      Matrix: [1, 0, 0, 1, -left, -bottom],
    });
    const resources = node.Resources();
    if (resources !== undefined) form.set(PDFName.of('Resources'), copier.copy(resources));
    for (const key of ['Filter', 'DecodeParms']) {
      const value = stream.dict.get(PDFName.of(key));
      if (value !== undefined) form.set(PDFName.of(key), copier.copy(value));
    }
    const ref = own.context.register(PDFRawStream.of(form, stream.contents));
    return (target) => {
      const name = target.node.newXObject('Band', ref);
      target.pushOperators(pushGraphicsState(), drawObject(name), popGraphicsState());
    };
  });
}

/** The page's content when it is one stream as parsed (its bytes still encoded), else null. */
function oneEncodedStream(source: PDFDocument, page: PDFPageLeaf): PDFRawStream | null {
  const contents = page.Contents();
  const stream = contents instanceof PDFArray ? (contents.size() === 1 ? source.context.lookup(contents.get(0)) : null) : contents;
  return stream instanceof PDFRawStream ? stream : null;
}
