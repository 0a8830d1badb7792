import { MemoryBlobStore } from '@docrender/storage';
import { testLogger } from '@docrender/testing';
import { RenderedPdfReader } from './rendered-pdf.reader';

const reader = (blobs: MemoryBlobStore) => new RenderedPdfReader(blobs, testLogger('reader'));

describe('RenderedPdfReader', () => {
  const key = 'organisations/org-1/documents/doc-1.pdf';
  const stored = Buffer.from('%PDF-1.7 stored');

  it('render.document inlinePdfMaxBytes: answers with the PDF that came back in the render reply, without reading the blob store', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(reader(blobs).read({ pdfBlobKey: key, inlinePdf: { bytes: inline }, transient: false })).resolves.toBe(inline);
    expect(blobs.reads).toEqual([]);
    expect(blobs.blobs.has(key)).toBe(true);
  });

  it('0022 rolling upgrade: a PDF that came back base64 (an older render service) is decoded for a raw PDF answer', async () => {
    const blobs = new MemoryBlobStore();
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(reader(blobs).read({ pdfBlobKey: key, inlinePdf: { base64: inline.toString('base64') }, transient: false })).resolves.toEqual(inline);
    expect(blobs.reads).toEqual([]);
  });

  it('spec 2.6 documentBase64: raw bytes that came back inline are encoded once, without reading the blob store', async () => {
    const blobs = new MemoryBlobStore();
    const inline = Buffer.from('%PDF-1.7 inline');
    await expect(reader(blobs).readBase64({ pdfBlobKey: key, inlinePdf: { bytes: inline }, transient: false })).resolves.toBe(inline.toString('base64'));
    expect(blobs.reads).toEqual([]);
  });

  it('spec 2.6 documentBase64: base64 an older render service replied with is the answer as it is (no decode and encode again)', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    const inlineBase64 = Buffer.from('%PDF-1.7 inline').toString('base64');
    await expect(reader(blobs).readBase64({ pdfBlobKey: key, inlinePdf: { base64: inlineBase64 }, transient: false })).resolves.toBe(inlineBase64);
    expect(blobs.reads).toEqual([]);
  });

  it('spec 2.6 documentBase64: a PDF that did not come back inline is read from the blob store and encoded', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await expect(reader(blobs).readBase64({ pdfBlobKey: key, inlinePdf: null, transient: false })).resolves.toBe(stored.toString('base64'));
    expect(blobs.reads).toEqual([key]);
  });

  it('render.document inlinePdfMaxBytes: a PDF that did not come back inline (above the cap) is read from the blob store', async () => {
    const blobs = new MemoryBlobStore();
    await blobs.put(key, stored, 'application/pdf');
    await expect(reader(blobs).read({ pdfBlobKey: key, inlinePdf: null, transient: false })).resolves.toEqual(stored);
    expect(blobs.reads).toEqual([key]);
  });

  it('4.2 persist=false: the stored PDF is kept while the answer is made (it may fail, and its retry reads it again: decision 0041) and deleted once the answer holds it', async () => {
    const blobs = new MemoryBlobStore();
    const other = 'organisations/org-1/documents/doc-2.pdf';
    await blobs.put(key, stored, 'application/pdf');
    await blobs.put(other, stored, 'application/pdf');
    const transient = { pdfBlobKey: key, inlinePdf: null, transient: true };
    await reader(blobs).readBase64(transient);
    await reader(blobs).read(transient);
    expect(blobs.blobs.has(key)).toBe(true);
    await reader(blobs).discard([transient, { pdfBlobKey: other, inlinePdf: null, transient: false }]);
    expect([blobs.blobs.has(key), blobs.blobs.has(other)]).toEqual([false, true]);
  });
});
