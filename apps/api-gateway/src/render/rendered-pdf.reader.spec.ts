import { MemoryBlobStore } from '@docrender/storage';
import { RenderedPdfReader } from './rendered-pdf.reader';

describe('RenderedPdfReader', () => {
  const key = 'organisations/org-1/documents/doc-1.pdf';
  const stored = Buffer.from('%PDF-1.7 stored');

  it('render.document inlinePdfMaxBytes: answers with the PDF that came back in the render reply, without reading the blob store', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(new RenderedPdfReader(blobs).read({ pdfBlobKey: key, inlinePdf: { bytes: inline }, transient: false })).resolves.toBe(inline);
    expect(blobs.reads).toEqual([]);
    expect(blobs.blobs.has(key)).toBe(true);
  });

  it('0022 rolling upgrade: a PDF that came back base64 (an older render service) is decoded for a raw PDF answer', async () => {
    const blobs = new MemoryBlobStore();
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(new RenderedPdfReader(blobs).read({ pdfBlobKey: key, inlinePdf: { base64: inline.toString('base64') }, transient: false })).resolves.toEqual(inline);
    expect(blobs.reads).toEqual([]);
  });

  it('spec 2.6 documentBase64: raw bytes that came back inline are encoded once, without reading the blob store', async () => {
    const blobs = new MemoryBlobStore();
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(new RenderedPdfReader(blobs).readBase64({ pdfBlobKey: key, inlinePdf: { bytes: inline }, transient: false })).resolves.toBe(inline.toString('base64'));
    expect(blobs.reads).toEqual([]);
  });

  it('spec 2.6 documentBase64: base64 an older render service replied with is the answer as it is (no decode and encode again)', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    const inlineBase64 = Buffer.from('%PDF-1.7 inline').toString('base64');
    await expect(new RenderedPdfReader(blobs).readBase64({ pdfBlobKey: key, inlinePdf: { base64: inlineBase64 }, transient: false })).resolves.toBe(inlineBase64);
    expect(blobs.reads).toEqual([]);
  });

  it('spec 2.6 documentBase64: a PDF that did not come back inline is read from the blob store and encoded', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await expect(new RenderedPdfReader(blobs).readBase64({ pdfBlobKey: key, inlinePdf: null, transient: false })).resolves.toBe(stored.toString('base64'));
    expect(blobs.reads).toEqual([key]);
  });

  it('render.document inlinePdfMaxBytes: a PDF that did not come back inline (above the cap) is read from the blob store', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await expect(new RenderedPdfReader(blobs).read({ pdfBlobKey: key, inlinePdf: null, transient: false })).resolves.toEqual(stored);
    expect(blobs.reads).toEqual([key]);
  });

  const inline = Buffer.from('%PDF-1.7 inline');
  it.each([
    ['inline raw, as bytes', { bytes: inline }, 'read'],
    ['inline base64, as bytes', { base64: inline.toString('base64') }, 'read'],
    ['from the blob store, as bytes', null, 'read'],
    ['inline raw, as base64', { bytes: inline }, 'readBase64'],
    ['inline base64, as base64', { base64: inline.toString('base64') }, 'readBase64'],
    ['from the blob store, as base64', null, 'readBase64'],
  ] as const)('4.2 persist=false: the stored PDF is deleted once read (%s)', async (_way, inlinePdf, how) => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await new RenderedPdfReader(blobs)[how]({ pdfBlobKey: key, inlinePdf, transient: true });
    expect(blobs.blobs.has(key)).toBe(false);
  });
});
