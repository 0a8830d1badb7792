import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } from '@cantoo/pdf-lib';
import { HEADING_MARKER_HOST, type MarkedHeading, withDocumentOutline } from './document-outline';

/** A print as Chromium lays it out (classic cross-reference table): three pages, a heading marker at each `marks`. */
async function printed(marks: { index: number; page: number; top: number }[], options: { objectStreams?: boolean } = {}): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.setTitle('Catalogue');
  const context = document.context;
  const pages = [document.addPage([595, 842]), document.addPage([595, 842]), document.addPage([595, 842])];
  const other = context.register(context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [10, 10, 90, 20], A: { Type: 'Action', S: 'URI', URI: PDFString.of('https://example.com/') } }));
  pages[0].node.set(PDFName.of('Annots'), context.obj([other]));
  for (const { index, page, top } of marks) {
    const link = context.register(
      context.obj({ Type: 'Annot', Subtype: 'Link', Rect: [56, top - 0.75, 539, top], A: { Type: 'Action', S: 'URI', URI: PDFString.of(`https://${HEADING_MARKER_HOST}/${index}`) } }),
    );
    const annotations = pages[page - 1].node.Annots();
    if (annotations) annotations.push(link);
    else pages[page - 1].node.set(PDFName.of('Annots'), context.obj([link]));
  }
  return Buffer.from(await document.save({ useObjectStreams: options.objectStreams ?? false }));
}

type Entry = { title: string; depth: number; page: number; top: number; count: number | null };

/** The outline of a PDF as pdf-lib reads it, depth first, and the root's /Count. */
async function outlineOf(pdf: Buffer): Promise<{ entries: Entry[]; count: number | null; annotations: number[]; title: string | undefined }> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const pageOf = new Map(document.getPages().map((page, index) => [page.ref.toString(), index + 1]));
  const entries: Entry[] = [];
  const walk = (first: PDFDict | undefined, depth: number, parent: PDFDict): void => {
    let previous: PDFDict | undefined;
    for (let item = first; item !== undefined; item = item.lookupMaybe(PDFName.of('Next'), PDFDict)) {
      // each item names its parent and the item before it
      expect(item.lookup(PDFName.of('Parent'))).toBe(parent);
      expect(item.lookupMaybe(PDFName.of('Prev'), PDFDict)).toBe(previous);
      const destination = item.lookup(PDFName.of('Dest'), PDFArray);
      entries.push({
        title: item.lookup(PDFName.of('Title'), PDFString, PDFHexString).decodeText(),
        depth,
        page: pageOf.get(destination.get(0).toString()) ?? 0,
        top: destination.lookup(3, PDFNumber).asNumber(),
        count: item.lookupMaybe(PDFName.of('Count'), PDFNumber)?.asNumber() ?? null,
      });
      walk(item.lookupMaybe(PDFName.of('First'), PDFDict), depth + 1, item);
      previous = item;
    }
    if (previous !== undefined) expect(parent.lookup(PDFName.of('Last'))).toBe(previous);
  };
  const root = document.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  if (root) walk(root.lookupMaybe(PDFName.of('First'), PDFDict), 0, root);
  return {
    entries,
    count: root?.lookupMaybe(PDFName.of('Count'), PDFNumber)?.asNumber() ?? null,
    annotations: document.getPages().map((page) => page.node.Annots()?.size() ?? 0),
    title: document.getTitle(),
  };
}

const HEADINGS: MarkedHeading[] = [
  { level: 1, title: 'Catalogue 2027' },
  { level: 2, title: 'Überblick — 概要' },
  { level: 3, title: 'Hand tools' },
  { level: 3, title: 'Power tools' },
  { level: 2, title: 'Price list' },
  { level: 4, title: 'Terms (deeper than the level before)' },
  { level: 1, title: 'Appendix' },
];

describe('issue 32 item 4: the outline of an untagged print, written from its headings', () => {
  it('nests each heading under the nearest one before it of a lower level, links it to its page and top, and takes the heading markers out', async () => {
    const marks = [
      { index: 0, page: 1, top: 800 },
      { index: 1, page: 1, top: 600 },
      { index: 2, page: 2, top: 780.25 },
      { index: 3, page: 2, top: 300 },
      { index: 4, page: 3, top: 790 },
      { index: 5, page: 3, top: 500 },
      { index: 6, page: 3, top: 100 },
    ];
    const pdf = await printed(marks);
    const written = await withDocumentOutline(pdf, HEADINGS);
    // an incremental update: the print is kept byte for byte
    expect(written.subarray(0, pdf.length).equals(pdf)).toBe(true);
    const { entries, count, annotations, title } = await outlineOf(written);
    expect(entries).toEqual([
      { title: 'Catalogue 2027', depth: 0, page: 1, top: 800, count: 5 },
      { title: 'Überblick — 概要', depth: 1, page: 1, top: 600, count: 2 },
      { title: 'Hand tools', depth: 2, page: 2, top: 780.25, count: null },
      { title: 'Power tools', depth: 2, page: 2, top: 300, count: null },
      { title: 'Price list', depth: 1, page: 3, top: 790, count: 1 },
      { title: 'Terms (deeper than the level before)', depth: 2, page: 3, top: 500, count: null },
      { title: 'Appendix', depth: 0, page: 3, top: 100, count: null },
    ]);
    expect(count).toBe(7);
    // the page's own link stays, every heading marker is gone; the document keeps its title
    expect(annotations).toEqual([1, 0, 0]);
    expect(title).toBe('Catalogue');
  });

  it('leaves out a heading whose marker the print does not hold (not displayed), and writes no outline when none is printed', async () => {
    const some = await outlineOf(await withDocumentOutline(await printed([{ index: 0, page: 1, top: 800 }, { index: 2, page: 2, top: 700 }]), HEADINGS));
    expect(some.entries.map(({ title, depth }) => [title, depth])).toEqual([
      ['Catalogue 2027', 0],
      ['Hand tools', 1],
    ]);
    const none = await outlineOf(await withDocumentOutline(await printed([]), HEADINGS));
    expect(none).toMatchObject({ entries: [], count: null, annotations: [1, 0, 0] });
  });

  it('writes the outline into a print laid out otherwise (object streams) once pdf-lib has written it with classic tables', async () => {
    const { entries, annotations } = await outlineOf(await withDocumentOutline(await printed([{ index: 6, page: 3, top: 100 }], { objectStreams: true }), HEADINGS));
    expect(entries).toEqual([{ title: 'Appendix', depth: 0, page: 3, top: 100, count: null }]);
    expect(annotations).toEqual([1, 0, 0]);
  });
});
