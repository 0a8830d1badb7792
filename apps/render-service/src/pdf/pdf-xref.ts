/**
 * Reading a PDF through its classic cross-reference tables — the layout Chromium 156 (Skia/PDF) writes: one `xref`
 * section of 20-byte entries, `trailer << … >>`, `startxref <offset>`, `%%EOF`, and sections appended by incremental
 * updates that point back with /Prev. Only the tail, the sections' headers and trailers and the objects asked for
 * are read, whatever the file's size. Cross-reference streams (PDF 1.5 files, hybrid files with /XRefStm) are not
 * handled: every reader answers null for them and its caller decides what to do.
 */

const TAIL_BYTES = 2048;
const XREF_ENTRY_BYTES = 20;
/** How far after the last entry of a section its trailer dictionary may end. */
const TRAILER_BYTES = 4096;
/** Incremental updates followed through /Prev before giving up (a loop in a damaged file ends here). */
const MAX_SECTIONS = 32;

export type ClassicTrailer = {
  /** Offset of the last cross-reference section: the file's final `startxref`. */
  xrefOffset: number;
  /** /Size: one more than the highest object number in use. */
  size: number;
  /** /Root as written, e.g. `9 0 R`, and its object number. */
  root: string;
  rootObject: number;
  /** /ID as written (`[<…> <…>]`), or null; Chromium writes none. */
  id: string | null;
  /** /Info as written (`1 0 R`), or null. */
  info: string | null;
  /** /Prev: the offset of the previous section, or null in a file never updated. */
  prev: number | null;
  /** The file is encrypted (/Encrypt): its strings would need encrypting too. */
  encrypted: boolean;
};

type XrefSubsection = { first: number; count: number; entriesAt: number };
type XrefSection = { subsections: XrefSubsection[]; dictionary: string };

/** The last trailer, when the last cross-reference section is a classic table; null otherwise. */
export function readClassicTrailer(pdf: Buffer): ClassicTrailer | null {
  const tail = pdf.toString('latin1', Math.max(0, pdf.length - TAIL_BYTES));
  const startxrefAt = tail.lastIndexOf('startxref');
  if (startxrefAt < 0) return null;
  const xrefOffset = Number(/^startxref\s+(\d+)/.exec(tail.slice(startxrefAt))?.[1]);
  if (!Number.isSafeInteger(xrefOffset) || xrefOffset >= pdf.length) return null;
  const section = readSection(pdf, xrefOffset);
  if (section === null) return null;
  const dictionary = section.dictionary;
  const size = /\/Size\s+(\d+)/.exec(dictionary);
  const root = /\/Root\s+((\d+)\s+\d+\s+R)/.exec(dictionary);
  if (size === null || root === null) return null;
  const prev = /\/Prev\s+(\d+)/.exec(dictionary);
  return {
    xrefOffset,
    size: Number(size[1]),
    root: root[1],
    rootObject: Number(root[2]),
    id: /\/ID\s*(\[[^\]]*\])/.exec(dictionary)?.[1] ?? null,
    info: /\/Info\s+(\d+\s+\d+\s+R)/.exec(dictionary)?.[1] ?? null,
    prev: prev === null ? null : Number(prev[1]),
    encrypted: /\/Encrypt[\s/<\d]/.test(dictionary),
  };
}

/**
 * The text of indirect object `objectNumber` (from `N G obj` up to its `endobj`), found through the section at
 * `xrefOffset` and the sections before it; null when it is not there, free, or not where the table says.
 */
export function readClassicObject(pdf: Buffer, xrefOffset: number, objectNumber: number): string | null {
  const offset = objectOffset(pdf, xrefOffset, objectNumber);
  if (offset === null) return null;
  const end = pdf.indexOf('endobj', offset, 'latin1');
  if (end < 0) return null;
  const text = pdf.toString('latin1', offset, end);
  return text.startsWith(`${objectNumber} `) ? text : null;
}

function objectOffset(pdf: Buffer, xrefOffset: number, objectNumber: number): number | null {
  let sectionAt: number | null = xrefOffset;
  for (let sections = 0; sectionAt !== null && sections < MAX_SECTIONS; sections++) {
    const section = readSection(pdf, sectionAt);
    if (section === null) return null;
    const subsection = section.subsections.find(({ first, count }) => objectNumber >= first && objectNumber < first + count);
    if (subsection !== undefined) {
      const entryAt = subsection.entriesAt + (objectNumber - subsection.first) * XREF_ENTRY_BYTES;
      const entry = /^(\d{10}) (\d{5}) ([nf])/.exec(pdf.toString('latin1', entryAt, entryAt + XREF_ENTRY_BYTES));
      if (entry === null || entry[3] !== 'n') return null;
      return Number(entry[1]);
    }
    const prev = /\/Prev\s+(\d+)/.exec(section.dictionary);
    sectionAt = prev === null ? null : Number(prev[1]);
  }
  return null;
}

/** The subsections and trailer dictionary of the classic section at `offset`; null for anything else. */
function readSection(pdf: Buffer, offset: number): XrefSection | null {
  if (pdf.toString('latin1', offset, offset + 4) !== 'xref') return null;
  const subsections: XrefSubsection[] = [];
  let position = offset + 4;
  for (;;) {
    const head = pdf.toString('latin1', position, position + 40);
    const header = /^\s*(\d+) (\d+)\s*?(\r\n|\r|\n| \n| \r)/.exec(head);
    if (header === null) {
      const trailer = /^\s*trailer\s*/.exec(head);
      if (trailer === null) return null;
      const text = pdf.toString('latin1', position + trailer[0].length, position + TRAILER_BYTES);
      const end = text.indexOf('startxref');
      const dictionary = (end < 0 ? '' : text.slice(0, end)).trim();
      // a hybrid file's /XRefStm section holds objects this table does not list
      if (!dictionary.startsWith('<<') || !dictionary.endsWith('>>') || /\/XRefStm\s/.test(dictionary)) return null;
      return { subsections, dictionary };
    }
    const first = Number(header[1]);
    const count = Number(header[2]);
    position += header[0].length;
    subsections.push({ first, count, entriesAt: position });
    position += count * XREF_ENTRY_BYTES;
    if (position > pdf.length) return null;
  }
}

/** An object written in an incremental update: its number, generation (0 when absent) and what follows `N G obj`. */
export type UpdatedObject = { number: number; generation?: number; body: string };

/**
 * `pdf` with an incremental update (ISO 32000-1 7.5.6) appended: the file kept byte for byte, then `objects` (bodies
 * in Latin-1: a PDF's own syntax, non-ASCII text written as hex strings), a classic cross-reference section listing
 * only them, and a trailer with /Size (grown to hold any new object), /Root and /ID of `trailer`, /Info (`info`, or
 * the trailer's own) and /Prev → the section before. The one writer of the service's updates (document information,
 * marker links and outlines).
 */
export function appendClassicUpdate(pdf: Buffer, trailer: ClassicTrailer, objects: readonly UpdatedObject[], info: string | null = trailer.info): Buffer {
  const sorted = [...objects].sort((a, b) => a.number - b.number);
  const last = pdf.length === 0 ? -1 : pdf[pdf.length - 1];
  let update = last === 0x0a || last === 0x0d ? '' : '\n';
  let xref = 'xref\n';
  let size = trailer.size;
  for (const { number, generation = 0, body } of sorted) {
    xref += `${number} 1\n${String(pdf.length + Buffer.byteLength(update, 'latin1')).padStart(10, '0')} ${String(generation).padStart(5, '0')} n \n`;
    update += `${number} ${generation} obj\n${body}\nendobj\n`;
    size = Math.max(size, number + 1);
  }
  const xrefAt = pdf.length + Buffer.byteLength(update, 'latin1');
  const dictionary =
    `<</Size ${size}\n/Root ${trailer.root}${info === null ? '' : `\n/Info ${info}`}\n/Prev ${trailer.xrefOffset}` +
    `${trailer.id === null ? '' : `\n/ID ${trailer.id}`}>>`;
  update += `${xref}trailer\n${dictionary}\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(update, 'latin1')]);
}
