import { MemoryBlobStore } from '@docrender/storage';
import { RenderedPdfReader } from './rendered-pdf.reader';

describe('RenderedPdfReader', () => {
  const key = 'organisations/org-1/documents/doc-1.pdf';
  const stored = Buffer.from('%PDF-1.7 stored');

  it('render.document inlinePdfMaxBytes: answers with the PDF that came back in the render reply, without reading the blob store', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(new RenderedPdfReader(blobs).read({ pdfBlobKey: key, inlinePdf: inline, transient: false })).resolves.toBe(inline);
    expect(blobs.reads).toEqual([]);
    expect(blobs.blobs.has(key)).toBe(true);
  });

  it('render.document inlinePdfMaxBytes: a PDF that did not come back inline (above the cap) is read from the blob store', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await expect(new RenderedPdfReader(blobs).read({ pdfBlobKey: key, inlinePdf: null, transient: false })).resolves.toEqual(stored);
    expect(blobs.reads).toEqual([key]);
  });

  it.each([
    ['inline', Buffer.from('%PDF-1.7 inline')],
    ['from the blob store', null],
  ])('4.2 persist=false: the stored PDF is deleted once read (%s)', async (_way, inlinePdf) => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await new RenderedPdfReader(blobs).read({ pdfBlobKey: key, inlinePdf, transient: true });
    expect(blobs.blobs.has(key)).toBe(false);
  });
});
