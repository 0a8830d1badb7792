/** The HTML a print hands to Chromium: the document's body and its header and footer bands. */
export type PrintedParts = { html: string; headerHtml: string | null; footerHtml: string | null };

/** Characters of HTML a print hands to Chromium (what DocumentCaps.maxPrintedHtmlChars bounds). */
export function printedHtmlChars(parts: PrintedParts): number {
  return parts.html.length + (parts.headerHtml?.length ?? 0) + (parts.footerHtml?.length ?? 0);
}

/**
 * A reused page that printed at least this many characters of HTML is closed afterwards and a new one opened in its
 * place, so its renderer process ends and gives back the memory the print took. Blink keeps that memory for the page's
 * life otherwise, through new documents and about:blank alike: measured on examples/statement (no `pageBreaks`),
 * Chromium's renderer held 0.47 GB PSS after 3,000 rows (0.9 MB of HTML), 2.0 GB after 10,000 (2.8 MB) and 5.9 GB after
 * 20,000 (5.6 MB), and about 50 MB once the page was closed. A new page costs tens of milliseconds; a document this
 * size prints for seconds.
 */
export const RELEASE_PAGE_AFTER_CHARS = 1_000_000;

/** Whether the page that prints these documents is closed after the print (RELEASE_PAGE_AFTER_CHARS). */
export function releasesPage(documents: readonly PrintedParts[]): boolean {
  return documents.reduce((chars, document) => chars + printedHtmlChars(document), 0) >= RELEASE_PAGE_AFTER_CHARS;
}
