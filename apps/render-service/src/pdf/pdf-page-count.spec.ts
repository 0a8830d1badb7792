import { PDFDocument } from '@cantoo/pdf-lib';
import { pageCountFromClassicXref, readPdfPageCount } from './pdf-page-count';

async function pdfWithPages(pages: number, useObjectStreams: boolean): Promise<Buffer> {
  const document = await PDFDocument.create();
  for (let i = 0; i < pages; i++) document.addPage([595, 842]);
  return Buffer.from(await document.save({ useObjectStreams }));
}

describe('page count read from the produced PDF', () => {
  it('reads /Count of the page tree through the trailer and the classic xref table', async () => {
    const pdf = await pdfWithPages(7, false);
    expect(pageCountFromClassicXref(pdf)).toBe(7);
    await expect(readPdfPageCount(pdf)).resolves.toBe(7);
  });

  it('falls back to a full parse for a PDF with cross-reference streams', async () => {
    const pdf = await pdfWithPages(3, true);
    expect(pageCountFromClassicXref(pdf)).toBeNull();
    await expect(readPdfPageCount(pdf)).resolves.toBe(3);
  });

  it('follows /Prev of an incremental update to the catalog and the page tree', async () => {
    const pdf = await pdfWithPages(2, false);
    const tail = pdf.toString('latin1');
    const xrefAt = Number(/startxref\s+(\d+)/.exec(tail.slice(tail.lastIndexOf('startxref')))?.[1]);
    const root = /\/Root \d+ \d+ R/.exec(tail.slice(tail.lastIndexOf('trailer')))?.[0];
    const updateAt = pdf.length + 1;
    const info = '99 0 obj\n<</Title (updated)>>\nendobj\n';
    const update = Buffer.from(
      `\n${info}xref\n99 1\n${String(updateAt).padStart(10, '0')} 00000 n \ntrailer\n<</Size 100 ${root} /Info 99 0 R /Prev ${xrefAt}>>\n` +
        `startxref\n${updateAt + info.length}\n%%EOF\n`,
      'latin1',
    );
    expect(pageCountFromClassicXref(Buffer.concat([pdf, update]))).toBe(2);
  });

  it('does not trust a trailer whose startxref points at no cross-reference section', async () => {
    const pdf = await pdfWithPages(2, false);
    const tail = pdf.toString('latin1');
    const xrefAt = Number(/startxref\s+(\d+)/.exec(tail.slice(tail.lastIndexOf('startxref')))?.[1]);
    const update = Buffer.from(`\ntrailer\n<< /Size 9 /Root 1 0 R /Prev ${xrefAt} >>\nstartxref\n${xrefAt + 1}\n%%EOF\n`, 'latin1');
    expect(pageCountFromClassicXref(Buffer.concat([pdf, update]))).toBeNull();
  });

  it('rejects what is not a PDF', async () => {
    expect(pageCountFromClassicXref(Buffer.from('hello'))).toBeNull();
    await expect(readPdfPageCount(Buffer.from('hello'))).rejects.toThrow();
  });
});
