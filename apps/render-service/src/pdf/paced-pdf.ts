import { PDFDocument, type SaveOptions } from '@cantoo/pdf-lib';

/**
 * How many objects pdf-lib parses or writes before it yields the event loop. It yields with a `setTimeout` of 0,
 * which waits at least 1 ms and costs CPU of its own; at its defaults (every 100 objects parsed, every 50 written)
 * the yields cost more than the work for the documents the service reads and writes back: a tagged invoice of 500
 * objects was written in 5–7 ms of CPU with no yield and 13–14 ms (29–31 ms of wall time) with them, and a tagged
 * batch print of 20 invoices (about 10,000 objects) waited 100 times. Every 500 objects keeps a slice of parsing under
 * about 20 ms (about 40 µs per object, tagged structure elements) and of writing under about 10 ms.
 */
export const PDF_OBJECTS_PER_TICK = 500;

/** A PDF the service printed or wrote, parsed by pdf-lib, its metadata left as it is. */
export function loadPdf(pdf: Uint8Array, options: { ignoreEncryption?: boolean } = {}): Promise<PDFDocument> {
  return PDFDocument.load(pdf, { updateMetadata: false, parseSpeed: PDF_OBJECTS_PER_TICK, ...options });
}

/**
 * A document written by pdf-lib with classic cross-reference tables, as Chromium writes them: the metadata update and
 * the archival stage read them (pdf-xref.ts handles no cross-reference streams).
 */
export async function savePdf(document: PDFDocument, options: Pick<SaveOptions, 'addDefaultPage' | 'updateFieldAppearances'> = {}): Promise<Buffer> {
  return Buffer.from(await document.save({ useObjectStreams: false, objectsPerTick: PDF_OBJECTS_PER_TICK, ...options }));
}
