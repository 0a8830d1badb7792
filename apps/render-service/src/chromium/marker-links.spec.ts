import { PDFDocument, PDFName, PDFString } from '@cantoo/pdf-lib';
import { markerLinks, printedMarkerLinks, withoutMarkerLinks } from './marker-links';

/** A one-page PDF with a link annotation to each URI, each 10 pt lower than the one before. */
async function pdfWithLinks(uris: string[]): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([600, 800]);
  const annotations = uris.map((uri, i) =>
    pdf.context.register(pdf.context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 790 - 10 * i, 1, 800 - 10 * i], A: { Type: 'Action', S: 'URI', URI: PDFString.of(uri) } })),
  );
  page.node.set(PDFName.of('Annots'), pdf.context.obj(annotations));
  return pdf;
}

describe('marker links (page-aware tables, placed elements, batch prints: where things landed in a print)', () => {
  it('tells each marker link of a host with its key, page and top in CSS pixels, and nothing of other links', async () => {
    const pdf = await pdfWithLinks(['https://row.docrender.invalid/r:0:5', 'https://example.com/', 'https://row.docrender.invalid/c:0:9']);
    expect(markerLinks(pdf, 'row.docrender.invalid')).toEqual([
      { key: 'r:0:5', page: 1, top: 0 },
      { key: 'c:0:9', page: 1, top: expect.closeTo((20 * 96) / 72, 6) as number },
    ]);
  });

  it('takes the marker links out of a page and their objects out of the PDF, leaving the document\'s own links', async () => {
    const pdf = await pdfWithLinks(['https://row.docrender.invalid/r:0:5', 'https://example.com/', 'https://placed.docrender.invalid/x']);
    const objects = pdf.context.enumerateIndirectObjects().length;
    withoutMarkerLinks(pdf.getPage(0), ['row.docrender.invalid', 'placed.docrender.invalid']);
    const saved = await PDFDocument.load(await pdf.save());
    expect(saved.getPage(0).node.Annots()?.size()).toBe(1);
    expect(pdf.context.enumerateIndirectObjects().length).toBe(objects - 2);
    expect(markerLinks(saved, 'row.docrender.invalid')).toEqual([]);
  });

  it.each([
    ['classic cross-reference tables, as Chromium writes them (read without parsing, an incremental update)', false],
    ['object streams (parsed and written anew by pdf-lib)', true],
  ])('reads a print\'s marker links as markerLinks does and gives the print without them: %s', async (_layout, useObjectStreams) => {
    const pdf = await pdfWithLinks(['https://row.docrender.invalid/r:0:5', 'https://example.com/', 'https://row.docrender.invalid/c:0:9']);
    const printed = Buffer.from(await pdf.save({ useObjectStreams }));
    const read = await printedMarkerLinks(printed, 'row.docrender.invalid');
    expect(read.links).toEqual(markerLinks(await PDFDocument.load(printed), 'row.docrender.invalid'));
    expect(read.links.map((link) => link.key)).toEqual(['r:0:5', 'c:0:9']);
    const without = await PDFDocument.load(await read.without());
    expect(markerLinks(without, 'row.docrender.invalid')).toEqual([]);
    expect(markerLinks(without, 'example.com')).toEqual([{ key: '', page: 1, top: expect.closeTo((10 * 96) / 72, 6) as number }]);
  });

  it('leaves a page without an annotations array once its last link is taken out', async () => {
    const pdf = await pdfWithLinks(['https://row.docrender.invalid/r:0:0']);
    withoutMarkerLinks(pdf.getPage(0), ['row.docrender.invalid']);
    expect(pdf.getPage(0).node.Annots()).toBeUndefined();
  });
});
