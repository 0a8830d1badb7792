import { PDFDocument } from '@cantoo/pdf-lib';
import { pdfDate, pdfTextString, withPdfMetadata } from './pdf-metadata';
import { pageCountFromClassicXref } from './pdf-page-count';
import { readClassicObject, readClassicTrailer } from './pdf-xref';

const METADATA = {
  title: 'Invoice INV-2026-00042',
  producer: 'docrender render-service 1.2.3',
  creator: 'docrender render-service 1.2.3',
  created: new Date(Date.UTC(2026, 10, 21, 9, 5, 7)),
};

/** A PDF in the layout Chromium writes (one classic xref table) or with a cross-reference stream. */
async function pdfWithPages(pages: number, useObjectStreams = false): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) document.addPage([595, 842]);
  return Buffer.from(await document.save({ useObjectStreams }));
}

function written(pdf: Buffer, metadata = METADATA): Buffer {
  const outcome = withPdfMetadata(pdf, metadata);
  if (!outcome.written) throw new Error(outcome.reason);
  return outcome.pdf;
}

describe('issue 4: PDF metadata written as an incremental update', () => {
  it('keeps the original bytes and appends an Info object, an xref section for it and a trailer pointing back', async () => {
    const original = await pdfWithPages(3);
    const before = readClassicTrailer(original);
    const pdf = written(original);
    expect(pdf.subarray(0, original.length).equals(original)).toBe(true);

    const after = readClassicTrailer(pdf);
    expect(after).toMatchObject({ size: (before?.size ?? 0) + 1, root: before?.root, prev: before?.xrefOffset });
    expect(pdf.toString('latin1', after?.xrefOffset, (after?.xrefOffset ?? 0) + 4)).toBe('xref');
    expect(pdf.toString('latin1').endsWith('%%EOF\n')).toBe(true);
    const info = readClassicObject(pdf, after?.xrefOffset ?? 0, before?.size ?? 0);
    expect(info).toContain('/Title (Invoice INV-2026-00042)');
    expect(info).toContain("/CreationDate (D:20261121090507+00'00')");
  });

  it('gives title, producer, creator and dates that a full PDF parser reads; the page count is unchanged and still read from the tail', async () => {
    const pdf = written(await pdfWithPages(4));
    const document = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(document.getTitle()).toBe(METADATA.title);
    expect(document.getProducer()).toBe(METADATA.producer);
    expect(document.getCreator()).toBe(METADATA.creator);
    expect(document.getCreationDate()?.toISOString()).toBe('2026-11-21T09:05:07.000Z');
    expect(document.getModificationDate()?.toISOString()).toBe('2026-11-21T09:05:07.000Z');
    expect(document.getPageCount()).toBe(4);
    expect(pageCountFromClassicXref(pdf)).toBe(4);
  });

  it('writes a title that is not plain ASCII as UTF-16BE with a byte order mark', async () => {
    const title = 'Rechnung (Ä) \\ 株式会社 😀';
    const pdf = written(await pdfWithPages(1), { ...METADATA, title });
    expect((await PDFDocument.load(pdf, { updateMetadata: false })).getTitle()).toBe(title);
  });

  it('updates an already updated file again: /Prev points at the last section, the newest Info wins', async () => {
    const once = written(await pdfWithPages(2));
    const twice = written(once, { ...METADATA, title: 'Second' });
    expect(readClassicTrailer(twice)?.prev).toBe(readClassicTrailer(once)?.xrefOffset);
    expect((await PDFDocument.load(twice, { updateMetadata: false })).getTitle()).toBe('Second');
    expect(pageCountFromClassicXref(twice)).toBe(2);
  });

  it('copies /ID of the last trailer', async () => {
    const original = await pdfWithPages(1);
    const withId = Buffer.from(original.toString('latin1').replace(/trailer\s*<</, '$&\n/ID [<00112233> <44556677>]'), 'latin1');
    const pdf = written(withId);
    expect(readClassicTrailer(pdf)?.id).toBe('[<00112233> <44556677>]');
  });

  it('returns a PDF whose last section is a cross-reference stream unchanged, with the reason', async () => {
    const original = await pdfWithPages(2, true);
    const outcome = withPdfMetadata(original, METADATA);
    expect(outcome).toEqual({ written: false, pdf: original, reason: expect.stringContaining('cross-reference stream') });
  });

  it('returns an encrypted PDF and what is not a PDF unchanged', async () => {
    const original = await pdfWithPages(1);
    const encrypted = Buffer.from(original.toString('latin1').replace(/trailer\s*<</, '$&\n/Encrypt 99 0 R'), 'latin1');
    expect(withPdfMetadata(encrypted, METADATA)).toMatchObject({ written: false, pdf: encrypted, reason: 'the PDF is encrypted' });
    const junk = Buffer.from('hello');
    expect(withPdfMetadata(junk, METADATA)).toMatchObject({ written: false, pdf: junk });
  });
});

describe('PDF text strings and dates (ISO 32000-1 7.9)', () => {
  it('escapes backslashes and parentheses of a plain ASCII string', () => {
    expect(pdfTextString('a (b) \\c')).toBe('(a \\(b\\) \\\\c)');
    expect(pdfTextString('')).toBe('()');
  });

  it('writes any other string as UTF-16BE with a byte order mark, surrogate pairs included', () => {
    expect(pdfTextString('Ä')).toBe('<FEFF00C4>');
    expect(pdfTextString('a\nb')).toBe('<FEFF0061000A0062>');
    expect(pdfTextString('😀')).toBe('<FEFFD83DDE00>');
  });

  it('dates are UTC in D:YYYYMMDDHHmmSS+00\'00\'', () => {
    expect(pdfDate(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe("D:20260102030405+00'00'");
  });
});
