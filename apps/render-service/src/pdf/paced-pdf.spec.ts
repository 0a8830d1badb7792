import { PDFDocument } from '@cantoo/pdf-lib';
import { loadPdf, PDF_OBJECTS_PER_TICK, savePdf } from './paced-pdf';
import { readClassicTrailer } from './pdf-xref';

/** A document of about `objects` indirect objects (small dictionaries, as a tagged PDF's structure elements are). */
async function documentOf(objects: number): Promise<PDFDocument> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.addPage();
  for (let i = 0; i < objects; i++) document.context.register(document.context.obj({ Type: 'StructElem', S: 'P', K: i }));
  return document;
}

/** The times `work` gave the event loop back through a timer (pdf-lib yields with setTimeout). */
async function yieldsOf(work: () => Promise<unknown>): Promise<number> {
  const timers = jest.spyOn(global, 'setTimeout');
  try {
    await work();
    return timers.mock.calls.length;
  } finally {
    timers.mockRestore();
  }
}

describe('paced-pdf: pdf-lib parsing and writing with few yields, classic cross-reference tables', () => {
  it(`yields once per ${PDF_OBJECTS_PER_TICK} objects parsed or written, not every 100 parsed and 50 written (pdf-lib's defaults)`, async () => {
    const document = await documentOf(2_000);
    const written = await savePdf(document);
    const slices = Math.ceil(2_010 / PDF_OBJECTS_PER_TICK);
    // writing walks the objects twice (their sizes, then their bytes)
    expect(await yieldsOf(() => savePdf(document))).toBeLessThanOrEqual(2 * slices);
    expect(await yieldsOf(() => loadPdf(written))).toBeLessThanOrEqual(slices);
    // pdf-lib at its defaults, for comparison: the yields this saves
    expect(await yieldsOf(() => document.save({ useObjectStreams: false }))).toBeGreaterThanOrEqual(40);
  });

  it('writes classic cross-reference tables (the metadata update and the archival stage read no cross-reference streams) and keeps the metadata as it was', async () => {
    const document = await documentOf(10);
    document.setTitle('Paced');
    const written = await savePdf(document);
    expect(readClassicTrailer(written)).not.toBeNull();
    const loaded = await loadPdf(written);
    expect(loaded.getTitle()).toBe('Paced');
    expect(loaded.getProducer()).toBe(document.getProducer());
  });
});
