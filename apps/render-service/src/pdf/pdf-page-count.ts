import { PDFDocument } from 'pdf-lib';

const TAIL_BYTES = 2048;
const XREF_ENTRY_BYTES = 20;

/**
 * The page count written in a PDF: the /Count of the page tree root, reached through the last trailer's /Root and
 * the classic cross-reference table Chromium (Skia) writes. This reads a few hundred bytes however long the PDF is;
 * a PDF in another layout (cross-reference streams, incremental updates) is parsed in full with pdf-lib instead.
 */
export async function readPdfPageCount(pdf: Buffer): Promise<number> {
  const quick = pageCountFromClassicXref(pdf);
  if (quick !== null) return quick;
  const document = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  return document.getPageCount();
}

/** null when the PDF is not a single classic xref section with a plain trailer. */
export function pageCountFromClassicXref(pdf: Buffer): number | null {
  const tailStart = Math.max(0, pdf.length - TAIL_BYTES);
  const tail = pdf.toString('latin1', tailStart);
  const startxrefAt = tail.lastIndexOf('startxref');
  if (startxrefAt < 0) return null;
  const xrefOffset = Number(/^startxref\s+(\d+)/.exec(tail.slice(startxrefAt))?.[1]);
  if (!Number.isSafeInteger(xrefOffset) || xrefOffset >= pdf.length) return null;

  const trailerAt = tail.lastIndexOf('trailer', startxrefAt);
  if (trailerAt < 0) return null;
  const trailer = tail.slice(trailerAt, startxrefAt);
  if (/\/Prev\s/.test(trailer)) return null;
  const root = /\/Root\s+(\d+)\s+\d+\s+R/.exec(trailer);
  if (root === null) return null;

  const catalog = readObject(pdf, xrefOffset, Number(root[1]));
  const pagesRef = catalog === null ? null : /\/Pages\s+(\d+)\s+\d+\s+R/.exec(catalog);
  if (pagesRef === null) return null;
  const pages = readObject(pdf, xrefOffset, Number(pagesRef[1]));
  const count = pages === null ? null : /\/Count\s+(\d+)/.exec(pages);
  return count === null ? null : Number(count[1]);
}

/** The text of indirect object `objectNumber` (up to its `endobj`), found through the xref table at `xrefOffset`. */
function readObject(pdf: Buffer, xrefOffset: number, objectNumber: number): string | null {
  const offset = objectOffset(pdf, xrefOffset, objectNumber);
  if (offset === null) return null;
  const end = pdf.indexOf('endobj', offset, 'latin1');
  if (end < 0) return null;
  const text = pdf.toString('latin1', offset, end);
  return text.startsWith(`${objectNumber} `) ? text : null;
}

function objectOffset(pdf: Buffer, xrefOffset: number, objectNumber: number): number | null {
  let position = xrefOffset;
  const keyword = pdf.toString('latin1', position, position + 4);
  if (keyword !== 'xref') return null;
  position += 4;
  for (;;) {
    const header = /^\s*(\d+) (\d+)\s*?(\r\n|\r|\n| \n| \r)/.exec(pdf.toString('latin1', position, position + 40));
    if (header === null) return null;
    const first = Number(header[1]);
    const count = Number(header[2]);
    position += header[0].length;
    if (objectNumber >= first && objectNumber < first + count) {
      const entryAt = position + (objectNumber - first) * XREF_ENTRY_BYTES;
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(pdf.toString('latin1', entryAt, entryAt + XREF_ENTRY_BYTES));
      if (entry === null || entry[3] !== 'n') return null;
      return Number(entry[1]);
    }
    position += count * XREF_ENTRY_BYTES;
  }
}
