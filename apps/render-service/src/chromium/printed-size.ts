/** The HTML a print hands to Chromium: the document's body and its header and footer bands. */
export type PrintedParts = { html: string; headerHtml: string | null; footerHtml: string | null };

/** Characters of HTML a print hands to Chromium (what DocumentCaps.maxPrintedHtmlChars bounds). */
export function printedHtmlChars(parts: PrintedParts): number {
  return parts.html.length + (parts.headerHtml?.length ?? 0) + (parts.footerHtml?.length ?? 0);
}

/**
 * A long print: at least this many characters of HTML. The pool prints one long print at a time (Chromium's memory
 * while it prints grows faster than the document: two at once would need twice the largest), and the reused page
 * that printed it is closed afterwards and a new one opened in its place, so its renderer process ends and gives back
 * the memory the print took; Blink keeps it for the page's life otherwise, through new documents and about:blank
 * alike. `npm run bench:long` saw Chromium at 4.8 GB PSS after a 10,000-row statement (2.8 MB of HTML);
 * browser-pool.int-spec.ts shows the memory given back once the page closes, and one long print at a time. 1 MB is
 * about 3,000 table rows: a new page costs tens of milliseconds, a document this size prints for seconds.
 */
export const LONG_PRINT_CHARS = 1_000_000;

/** Whether printing these documents (one print) is a long print (LONG_PRINT_CHARS). */
export function isLongPrint(documents: readonly PrintedParts[]): boolean {
  return documents.reduce((chars, document) => chars + printedHtmlChars(document), 0) >= LONG_PRINT_CHARS;
}
