import { appendClassicUpdate, readClassicTrailer } from './pdf-xref';

export type PdfMetadata = {
  /** /Title: the document name. */
  title: string;
  /** /Producer: the product that made the PDF (the render service). */
  producer: string;
  /** /Creator: the application that made the original (Chromium writes the service's user agent there). */
  creator: string;
  /** /CreationDate and /ModDate. */
  created: Date;
};

export type PdfMetadataOutcome = { written: true; pdf: Buffer } | { written: false; pdf: Buffer; reason: string };

/**
 * Writes the document information dictionary as a PDF incremental update (ISO 32000-1 7.5.6): the file is kept
 * byte for byte and gets a new Info object, a cross-reference section listing only that object, and a trailer
 * with /Size, /Root and /ID of the last trailer, /Info → the new object and /Prev → the previous section. Costs a
 * copy of the buffer and a read of its tail, where a pdf-lib load + save costs tens of milliseconds to seconds
 * (docs/performance.md).
 *
 * Chromium 156 writes one classic cross-reference table, no /ID and no XMP metadata stream. A file whose last
 * section is a cross-reference stream, or an encrypted file, comes back unchanged with the reason, for the caller
 * to log: such a file would need the update written as an xref stream (or encrypted strings), which Chromium never
 * asks for.
 */
export function withPdfMetadata(pdf: Buffer, metadata: PdfMetadata): PdfMetadataOutcome {
  const trailer = readClassicTrailer(pdf);
  if (trailer === null) {
    return { written: false, pdf, reason: 'the last cross-reference section is not a classic table (cross-reference stream or damaged file)' };
  }
  if (trailer.encrypted) return { written: false, pdf, reason: 'the PDF is encrypted' };

  const infoObject = trailer.size;
  const date = pdfDate(metadata.created);
  // every string is ASCII (non-ASCII text goes out as a hex string), so one character is one byte
  const info =
    `<</Title ${pdfTextString(metadata.title)}\n/Producer ${pdfTextString(metadata.producer)}\n/Creator ${pdfTextString(metadata.creator)}\n` +
    `/CreationDate (${date})\n/ModDate (${date})>>`;
  return { written: true, pdf: appendClassicUpdate(pdf, trailer, [{ number: infoObject, body: info }], `${infoObject} 0 R`) };
}

/**
 * A PDF text string (ISO 32000-1 7.9.2.2): printable ASCII as a literal string with `\`, `(` and `)` escaped;
 * anything else as UTF-16BE with a byte order mark, written as a hex string.
 */
export function pdfTextString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const utf16 = Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
  return `<${utf16.toString('hex').toUpperCase()}>`;
}

/** A PDF date (ISO 32000-1 7.9.4) in UTC: D:YYYYMMDDHHmmSS+00'00'. */
export function pdfDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `D:${String(date.getUTCFullYear()).padStart(4, '0')}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}` +
    `${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}+00'00'`
  );
}
