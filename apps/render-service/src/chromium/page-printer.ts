import type { Page } from 'puppeteer';

export type PdfPrintOptions = {
  html: string;
  /** Written as the PDF /Title (through document.title). */
  title: string;
  /** Tagged (accessible) PDF: a structure tree for screen readers; costs print time and file size. */
  tagged: boolean;
  /** Chromium header/footer templates repeated on every page (they sit in the page margins), or null. */
  headerHtml: string | null;
  footerHtml: string | null;
};

export type PageScreenshotOptions = {
  html: string;
  /** The first page's size in CSS pixels (96 per inch). */
  widthPx: number;
  heightPx: number;
  /** The page margins in millimetres, applied around the content as on paper. */
  marginMm: { top: number; right: number; bottom: number; left: number };
};

const EMPTY_BAND = '<span></span>';

/**
 * Loads compiled HTML into a page with `setContent` (never a navigation, so `file:` and other URLs are never
 * loaded as the document) and prints it once its fonts are loaded (puppeteer's `waitForFonts`). Page size and
 * margins come from the document's CSS `@page` rule. No puppeteer timeouts: the pool bounds the whole render by
 * the document's deadline.
 */
export async function printPdfOnPage(page: Page, options: PdfPrintOptions): Promise<Buffer> {
  await page.setContent(options.html, { waitUntil: 'load', timeout: 0 });
  await page.evaluate((title) => {
    document.title = title;
    // setContent keeps the page's Window; its resource timeline is the one thing of this document it would keep
    performance.clearResourceTimings();
  }, options.title);
  const bands = options.headerHtml !== null || options.footerHtml !== null;
  const pdf = await page.pdf({
    printBackground: true,
    preferCSSPageSize: true,
    tagged: options.tagged,
    outline: false,
    displayHeaderFooter: bands,
    headerTemplate: bands ? (options.headerHtml ?? EMPTY_BAND) : undefined,
    footerTemplate: bands ? (options.footerHtml ?? EMPTY_BAND) : undefined,
    timeout: 0,
  });
  return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}

/**
 * A PNG of the first page: the document laid out for print at the page's width, inside the page margins, cut at
 * the page's height. Header and footer bands (Chromium print templates) are not part of the picture.
 */
export async function screenshotFirstPageOnPage(page: Page, options: PageScreenshotOptions): Promise<Buffer> {
  await page.setViewport({ width: options.widthPx, height: options.heightPx, deviceScaleFactor: 1 });
  await page.emulateMediaType('print');
  await page.setContent(options.html, { waitUntil: 'load', timeout: 0 });
  const { top, right, bottom, left } = options.marginMm;
  await page.addStyleTag({ content: `html{padding:${top}mm ${right}mm ${bottom}mm ${left}mm;background:#fff}` });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const png = await page.screenshot({
    type: 'png',
    clip: { x: 0, y: 0, width: options.widthPx, height: options.heightPx },
    captureBeyondViewport: false,
  });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}
