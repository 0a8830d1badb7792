import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, type PDFRawStream, PDFStream, StandardFonts } from '@cantoo/pdf-lib';
import { loadPdf, savePdf } from './paced-pdf';
import { pageStamps } from './page-forms';

/**
 * A printed PDF (written and parsed again, so its content streams are encoded as read from a file) of one page per
 * text, the text in one content stream; with `square`, a second stream fills a square.
 */
async function printed(texts: string[], square = false): Promise<PDFDocument> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const text of texts) {
    const page = document.addPage([300, 200]);
    page.drawText(text, { x: 20, y: 150, size: 12, font });
    if (square) page.node.addContentStream(document.context.register(document.context.flateStream('10 10 40 40 re f')));
  }
  return loadPdf(await savePdf(document));
}

/** The form XObjects page `index` of `document` draws, by their decoded content. */
function formsDrawnOn(document: PDFDocument, index: number): { raw: Uint8Array; content: string; dict: PDFDict }[] {
  const xObjects = document.getPage(index).node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  return (xObjects?.values() ?? []).map((ref) => {
    const stream = document.context.lookup(ref, PDFStream) as PDFRawStream;
    return { raw: stream.contents, content: Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'), dict: stream.dict };
  });
}

/** The decoded content streams of page `index` of `document`, joined. */
function pageContent(document: PDFDocument, index: number): string {
  const contents = document.getPage(index).node.Contents();
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  return refs.map((ref) => Buffer.from(decodePDFRawStream(document.context.lookup(ref) as PDFRawStream).decode()).toString('latin1')).join('\n');
}

async function stamped(bands: PDFDocument, indices: number[]): Promise<PDFDocument> {
  const own = await PDFDocument.create({ updateMetadata: false });
  const stamps = await pageStamps(own, bands, indices);
  for (const stamp of stamps) {
    const page = own.addPage([300, 200]);
    stamp(page);
  }
  return loadPdf(await savePdf(own));
}

describe('page-forms: band pages of a batch print stamped on each document\'s pages (decision 0015)', () => {
  it('a page printed as one encoded stream (as Chromium prints) is drawn as a form keeping the stream\'s bytes and filter, with its resources, over the page of its size', async () => {
    const bands = await printed(['Page 1 of 2', 'Page 2 of 2']);
    const document = await stamped(bands, [1, 0]);
    for (const [index, band] of [1, 0].entries()) {
      const source = bands.getPage(band).node;
      const sourceStream = bands.context.lookup((source.Contents() as PDFArray).get(0)) as PDFRawStream;
      const [form] = formsDrawnOn(document, index);
      expect(Buffer.from(form.raw).equals(Buffer.from(sourceStream.contents))).toBe(true);
      expect(form.dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
      expect(form.dict.lookup(PDFName.of('BBox'), PDFArray).asArray().map(String)).toEqual(['0', '0', '300', '200']);
      expect(form.content).toContain('Tj');
      const fonts = form.dict.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('Font'), PDFDict);
      expect(fonts.keys().length).toBe(1);
      expect(pageContent(document, index)).toMatch(/^q\s+\/Band-\d+ Do\s+Q\s*$/);
    }
    // the two forms share the band print's one font, copied once
    const fontOf = (index: number): string => String(formsDrawnOn(document, index)[0].dict.lookup(PDFName.of('Resources'), PDFDict).lookup(PDFName.of('Font'), PDFDict).values()[0]);
    expect(fontOf(0)).toBe(fontOf(1));
  });

  it('a page whose content is in several streams is embedded by pdf-lib (decoded and joined), and drawn all the same', async () => {
    const bands = await printed(['Footer'], true);
    expect((bands.getPage(0).node.Contents() as PDFArray).size()).toBe(2);
    const document = await stamped(bands, [0]);
    const [form] = formsDrawnOn(document, 0);
    expect(form.content).toContain('Tj');
    expect(form.content).toContain('10 10 40 40 re f');
    expect(pageContent(document, 0)).toMatch(/\/EmbeddedPdfPage-\d+ Do/);
  });
});
