import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNull, PDFRef, PDFString } from '@cantoo/pdf-lib';
import { classicLinks, withoutClassicLinks } from './classic-links';

/** A PDF as Chromium lays it out (classic cross-reference table): two pages, URI links and a text annotation. */
async function printed(): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.setTitle('Statement');
  const context = document.context;
  const link = (uri: string, rect: number[]) =>
    context.register(context.obj({ Type: 'Annot', Subtype: 'Link', Rect: rect, A: { Type: 'Action', S: 'URI', URI: PDFString.of(uri) } }));
  const first = document.addPage([612, 792]);
  first.node.set(PDFName.of('Annots'), context.obj([link('https://row.docrender.invalid/r:0:1', [8, 700, 40, 701]), link('https://example.com/a\\(b\\)', [6, 400, 24, 413])]));
  const second = document.addPage([612, 792]);
  const note = context.register(context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10] }));
  second.node.set(PDFName.of('Annots'), context.obj([note, link('https://row.docrender.invalid/c:0:40', [8, 100.5, 40, 101.25])]));
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

describe('issue 32 item 2: marker links of a print read and taken out without parsing the PDF', () => {
  it('reads every URI link with its page, rectangle and page height, in page order, and no other annotation', async () => {
    const read = classicLinks(await printed());
    expect(read?.links.map(({ uri, page, rect, pageHeight }) => ({ uri, page, rect, pageHeight }))).toEqual([
      { uri: 'https://row.docrender.invalid/r:0:1', page: 1, rect: [8, 700, 40, 701], pageHeight: 792 },
      { uri: 'https://example.com/a(b)', page: 1, rect: [6, 400, 24, 413], pageHeight: 792 },
      { uri: 'https://row.docrender.invalid/c:0:40', page: 2, rect: [8, 100.5, 40, 101.25], pageHeight: 792 },
    ]);
  });

  it('takes the chosen links out in an incremental update that keeps the rest of the file, its title and its other annotations', async () => {
    const pdf = await printed();
    const read = classicLinks(pdf);
    if (read === null) throw new Error('not read');
    const markers = read.links.filter((link) => link.uri.startsWith('https://row.docrender.invalid/'));
    const updated = withoutClassicLinks(pdf, read, new Set(markers.map((link) => link.object)));
    expect(updated.subarray(0, pdf.length).equals(pdf)).toBe(true);
    expect(classicLinks(updated)?.links.map((link) => link.uri)).toEqual(['https://example.com/a(b)']);

    // a reader that parses the whole file finds the same: no marker link listed or left as an annotation object
    const document = await PDFDocument.load(updated, { updateMetadata: false });
    expect(document.getTitle()).toBe('Statement');
    expect(document.getPageCount()).toBe(2);
    const annotations = document.getPages().map((page) => page.node.Annots()?.size() ?? 0);
    expect(annotations).toEqual([1, 1]);
    for (const link of markers) expect(document.context.lookup(PDFRef.of(link.object))).toBe(PDFNull);
    const kept = document.getPage(1).node.lookup(PDFName.of('Annots'), PDFArray).lookup(0, PDFDict);
    expect(kept.get(PDFName.of('Subtype'))).toBe(PDFName.of('Text'));

    // a page left with no annotation loses its /Annots, through a second update on top of the first
    const again = classicLinks(updated);
    if (again === null) throw new Error('not read');
    const twice = await PDFDocument.load(withoutClassicLinks(updated, again, new Set(again.links.map((link) => link.object))), { updateMetadata: false });
    expect(twice.getPage(0).node.has(PDFName.of('Annots'))).toBe(false);
    expect(twice.getPage(1).node.Annots()?.size()).toBe(1);
  });

  it('answers null for a PDF whose objects are in streams (pdf-lib parses those)', async () => {
    const document = await PDFDocument.load(await printed());
    expect(classicLinks(Buffer.from(await document.save({ useObjectStreams: true })))).toBeNull();
  });
});
