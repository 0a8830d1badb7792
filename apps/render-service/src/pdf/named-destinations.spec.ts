import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNull, PDFNumber, PDFRef } from '@cantoo/pdf-lib';
import { classicNamedDestinations, copyDestinations, namedDestinations } from './named-destinations';

/**
 * A PDF laid out as Chromium writes one (classic cross-reference table) whose catalog names destinations on its
 * three pages, or (`objectStreams`) the same with its objects in streams, which only a parser reads.
 */
async function withDestinations(dests: (document: PDFDocument) => Record<string, unknown> | null, objectStreams = false): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < 3; i++) document.addPage([612, 792]);
  const entries = dests(document);
  if (entries !== null) document.catalog.set(PDFName.of('Dests'), document.context.register(document.context.obj(entries as never)));
  return Buffer.from(await document.save({ useObjectStreams: objectStreams }));
}

const chromiumLike = (document: PDFDocument): Record<string, unknown> => {
  const [first, , third] = document.getPages().map((page) => page.ref);
  return {
    'docrender-a-6162': [third, 'XYZ', 6, 136.919983, 0],
    // a fragment with characters a name escapes (`#`, `(`, a space, `%`): Chromium writes the URL's fragment as the name
    'weird(1) 100%': [first, 'XYZ', 0, 792, null],
    'fit-page': [first, 'Fit'],
  };
};

describe('issue 32 item 4: the pages of page references read from a print without parsing it', () => {
  it('reads every named destination of the catalog with its page and view, names unescaped', async () => {
    const read = classicNamedDestinations(await withDestinations(chromiumLike));
    expect(read).toEqual(
      new Map([
        ['docrender-a-6162', { page: 3, view: ['XYZ', 6, 136.919983, 0] }],
        ['weird(1) 100%', { page: 1, view: ['XYZ', 0, 792, null] }],
        ['fit-page', { page: 1, view: ['Fit'] }],
      ]),
    );
  });

  it('answers what pdf-lib parses: the same destinations from a PDF whose objects are in streams, which the reader leaves to pdf-lib', async () => {
    const streams = await withDestinations(chromiumLike, true);
    expect(classicNamedDestinations(streams)).toBeNull();
    expect(await namedDestinations(streams)).toEqual(classicNamedDestinations(await withDestinations(chromiumLike)));
  });

  it('leaves a /Dests written otherwise (a destination dictionary) to pdf-lib, which still reads it; no /Dests is no destination', async () => {
    const dictionaries = await withDestinations((document) => ({ d: { D: [document.getPage(1).ref, 'Fit'] } }));
    expect(classicNamedDestinations(dictionaries)).toBeNull();
    expect(await namedDestinations(dictionaries)).toEqual(new Map([['d', { page: 2, view: ['Fit'] }]]));
    expect(classicNamedDestinations(await withDestinations(() => null))).toEqual(new Map());
  });

  it('drops a destination whose page is not one of the document\'s', async () => {
    const read = classicNamedDestinations(await withDestinations(() => ({ gone: [PDFRef.of(999), 'Fit'] })));
    expect(read).toEqual(new Map());
  });

  it('copies the destinations into a document put together from other prints, each to its page there', async () => {
    const merged = await PDFDocument.create({ updateMetadata: false });
    for (let i = 0; i < 3; i++) merged.addPage([612, 792]);
    await copyDestinations(await withDestinations(chromiumLike), merged);
    const dests = merged.catalog.lookup(PDFName.of('Dests'), PDFDict);
    const target = (name: string) => dests.lookup(PDFName.of(name), PDFArray).asArray();
    expect(target('docrender-a-6162')).toEqual([merged.getPage(2).ref, PDFName.of('XYZ'), PDFNumber.of(6), PDFNumber.of(136.919983), PDFNumber.of(0)]);
    expect(target('weird(1) 100%')).toEqual([merged.getPage(0).ref, PDFName.of('XYZ'), PDFNumber.of(0), PDFNumber.of(792), PDFNull]);
    // written back, the name is escaped again: a reader finds it under the same name
    const saved = Buffer.from(await merged.save({ useObjectStreams: false }));
    expect(classicNamedDestinations(saved)?.get('weird(1) 100%')).toEqual({ page: 1, view: ['XYZ', 0, 792, null] });
  });
});
