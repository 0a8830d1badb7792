import type { CDPSession, Page } from 'puppeteer-core';
import { PDFDocument } from '@cantoo/pdf-lib';
import { PAGE_STYLE_ID, PageVariant } from '@docrender/template-dsl';
import { readPdfPageCount } from '../pdf/pdf-page-count';
import { countMeasuringPrints, type MeasuringPrint, placeTableBreakRows } from './page-aware-tables';
import { markHeadings, withDocumentOutline } from './document-outline';
import { resolvePageReferences, SHOW_PLACEHOLDER_PAGES, showPlaceholderPages } from './page-references';
import { loadEveryFont } from './in-page';
import { placedBeyondFirstPage } from './placed-elements';
import { PrintLayout } from './print-layout';
import { RenderBudgetEstimateError } from './render-timeout.error';
import { loadPdf, savePdf } from '../pdf/paced-pdf';
import { copyDestinations } from '../pdf/named-destinations';

/**
 * What page N of M prints with, when pages differ (CompiledDocument.pageVariant). Asynchronous when the compiled
 * document lives on a compile thread (DocumentCompiler), which works the variants out once the page count is known.
 */
export type PageVariantOf = (pageNumber: number, totalPages: number) => PageVariant | Promise<PageVariant>;

export type PdfPrintOptions = {
  /** The compiled document; Chromium writes its <title> as the PDF /Title. */
  html: string;
  /** Tagged (accessible) PDF: a structure tree for screen readers; costs print time and file size. */
  tagged: boolean;
  /** Chromium header/footer templates repeated on every page (they sit in the page margins), or null. */
  headerHtml: string | null;
  footerHtml: string | null;
  /** Null or absent when every page prints alike; else what page N of M prints with (CompiledDocument.pageVariant). */
  pageVariant?: PageVariantOf | null;
  /** The document has tables with lines at page breaks (CompiledDocument.pageAwareTables). */
  pageAwareTables?: boolean;
  /** The document has page references to fill in (CompiledDocument.pageReferences). */
  pageReferences?: boolean;
  /** A PDF outline (bookmarks) from the headings (CompiledDocument.outline). */
  outline?: boolean;
  /** Told the anchors whose page the print did not tell (their references show UNRESOLVED_PAGE; anchorNotPrintedIssue). */
  onAnchorsNotPrinted?: (anchors: string[]) => void;
  /**
   * Given when the document has placed elements of unknown height (CompiledDocument.placedToMeasure): called with
   * the ids of those that reach below the first page's content area (placedBeyondFirstPage), before the real print.
   */
  onPlacedBeyondPage?: (elementIds: string[]) => void;
  /** Told how many times the document was printed only to measure it (also counted in docrender_render_measuring_prints_total). */
  onMeasuringPrints?: (prints: number) => void;
  /**
   * The render's budget: when the document was printed to measure it, and what is left of the budget is shorter
   * than that print took, the real print (which lays out the same document) cannot finish in time, so the render
   * fails before it with RenderBudgetEstimateError (issue 32 item 3).
   */
  budget?: { deadline: number; budgetMs: number };
};

export type PageScreenshotOptions = {
  html: string;
  /** The first page's size in CSS pixels (96 per inch). */
  widthPx: number;
  heightPx: number;
  /** The page margins in millimetres, applied around the content as on paper. */
  marginMm: { top: number; right: number; bottom: number; left: number };
  /** Chromium header/footer templates, drawn in the top and bottom margins as on paper, or null. */
  headerHtml: string | null;
  footerHtml: string | null;
  /** When pages differ (CompiledDocument.pageVariant): the first page's bands and page style come from here. */
  pageVariant?: PageVariantOf | null;
  /** Tables with lines at page breaks (CompiledDocument.pageAwareTables): placed as for the PDF before the picture. */
  pageAwareTables?: boolean;
  /** Page references (CompiledDocument.pageReferences): filled in as for the PDF before the picture. */
  pageReferences?: boolean;
};

const EMPTY_BAND = '<span></span>';

/**
 * Loads compiled HTML into a page with `setContent` (never a navigation, so `file:` and other URLs are never
 * loaded as the document), kept off the screen (laidOutForPrintOnly), and prints it once its fonts are loaded. Page
 * size and margins come from the document's CSS `@page` rule. No puppeteer timeouts: the pool bounds the whole
 * render by the document's deadline. What a reused page keeps of the document is cleared by the pool after the
 * render (pooled-browser.ts), not here.
 *
 * The print is asked for through DevTools directly rather than with puppeteer's `page.pdf()`, which asks Chromium
 * for a stream and then reads it back (`IO.read` until the end, then `IO.close`): two more round trips to the
 * browser per document while the page, already done, waits to be handed the next one. Here the PDF comes back in
 * the print command's own answer. The print options are the ones `page.pdf()` sends for the same settings (paper
 * size and margins only matter when the document has no `@page` size, which compiled documents always have).
 */
export async function printPdfOnPage(page: Page, options: PdfPrintOptions): Promise<Buffer> {
  await page.setContent(laidOutForPrintOnly(options.html), { waitUntil: 'load', timeout: 0 });
  const devTools = await devToolsOf(page);
  await loadEveryFont(devTools);
  // page-aware tables and page references are measured in the document laid out for print, one layout held from the
  // first measure through the real print (print-layout.ts) and given back after it; a render that fails leaves the
  // page to the pool, which replaces it
  const layout = new PrintLayout(devTools);
  const printed = await printMeasured(devTools, options, layout);
  await layout.restore();
  return printed;
}

/** printPdfOnPage once the document is loaded: measured where it needs to be (in `layout`), then printed. */
async function printMeasured(devTools: CDPSession, options: PdfPrintOptions, layout: PrintLayout): Promise<Buffer> {
  let lastMeasuringPrintMs = 0;
  const measuringPrint = async (): Promise<Buffer> => {
    const started = Date.now();
    const printed = await printToMeasure(devTools, layout);
    lastMeasuringPrintMs = Date.now() - started;
    return printed;
  };
  // a print of the document as it will be laid out, without bands: page groups count their pages from it
  let unbanded: Buffer | null = null;
  let measuringPrints = 0;
  // the outline of a document printed untagged, or put together from several prints (pages that differ), is the
  // service's own (document-outline.ts): its headings marked before any print, so that every print is laid out
  // alike; a tagged document printed whole gets Chromium's (its print is tagged anyway)
  const headings = options.outline && (!options.tagged || options.pageVariant) ? await markHeadings(devTools) : null;
  const outline = (options.outline ?? false) && headings === null;
  const withOutline = (printed: Buffer): Promise<Buffer> => (headings === null ? Promise.resolve(printed) : withDocumentOutline(printed, headings));
  // page references print with numbers of about their width from the start: every measuring print can tell their pages;
  // with page-aware tables (and nothing printed before them) they are shown in the layout that measures the tables
  let placeholdersWithTables = (options.pageReferences ?? false) && (options.pageAwareTables ?? false) && !options.onPlacedBeyondPage;
  if (options.pageReferences && !placeholdersWithTables) await showPlaceholderPages(devTools, layout);
  if (options.onPlacedBeyondPage) {
    const placed = await placedBeyondFirstPage(devTools, measuringPrint);
    options.onPlacedBeyondPage(placed.elementIds);
    unbanded = placed.printed;
    measuringPrints++;
  }
  if (options.pageAwareTables && !options.onPlacedBeyondPage && !options.pageReferences && !options.pageVariant) {
    // the document's own print confirms the breaks (its marker links taken out): only prints that did not are
    // measuring ones; a table still to be found is found by a measuring print (untagged, no bands, no outline)
    const placed = await placeTableBreakRows(devTools, realPrintUnlessOutOfTime(devTools, options, outline, () => lastMeasuringPrintMs), layout, {
      printIsReal: true,
      findingPrint: measuringPrint,
    });
    countMeasuringPrints(placed.measuringPrints);
    options.onMeasuringPrints?.(placed.measuringPrints);
    return withOutline(placed.printed);
  }
  const placeTables = (): ReturnType<typeof placeTableBreakRows> => {
    const beforeMeasuring = placeholdersWithTables ? SHOW_PLACEHOLDER_PAGES : undefined;
    placeholdersWithTables = false;
    return placeTableBreakRows(devTools, measuringPrint, layout, { beforeMeasuring });
  };
  if (options.pageAwareTables) {
    // its last print is laid out as the real one: page groups count their pages from it
    const placed = await placeTables();
    unbanded = placed.printed;
    measuringPrints += placed.measuringPrints;
  }
  if (options.pageReferences) {
    // from the last measuring print when there is one (the pages of the placed tables), else from one of their own
    const resolved = await resolvePageReferences(devTools, unbanded, measuringPrint, layout, options.pageAwareTables ? placeTables : null);
    unbanded = resolved.printed;
    measuringPrints += resolved.measuringPrints;
    options.onAnchorsNotPrinted?.(resolved.notPrinted);
  }
  countMeasuringPrints(measuringPrints);
  options.onMeasuringPrints?.(measuringPrints);
  if (options.budget && measuringPrints > 0) refuseWhatCannotFinish(lastMeasuringPrintMs, options.budget);
  if (!options.pageVariant) {
    await layout.beforePrint();
    return withOutline(await printOnce(devTools, options.tagged, options.headerHtml, options.footerHtml, '', outline));
  }
  // page groups count their pages from a print laid out as the real ones
  const counted = unbanded ?? (await measuringPrint());
  await layout.beforePrint();
  return withOutline(await printPageVariants(devTools, options.tagged, options.pageVariant, counted, options.pageReferences ?? false));
}

/**
 * The real print (bands, tagged when the document is, Chromium's outline when `outline`) as page-aware tables'
 * confirming print: a print after one whose breaks did not hold, or after a measuring print (`measuringPrintMs`: how
 * long the last one took, 0 for none), is refused, as a real print after a measuring one is (refuseWhatCannotFinish),
 * when less of the budget is left than the print before took.
 */
function realPrintUnlessOutOfTime(devTools: CDPSession, options: PdfPrintOptions, outline: boolean, measuringPrintMs: () => number): MeasuringPrint {
  let lastPrintMs: number | null = null;
  return async () => {
    const before = Math.max(lastPrintMs ?? 0, measuringPrintMs());
    if (options.budget && before > 0) refuseWhatCannotFinish(before, options.budget);
    const started = Date.now();
    const printed = await printOnce(devTools, options.tagged, options.headerHtml, options.footerHtml, '', outline);
    lastPrintMs = Date.now() - started;
    return printed;
  };
}

/**
 * The real print lays out the whole document again, as the last measuring print did, and paints all of it (the
 * measuring print painted only its marker links) and the bands too: it takes at least as long as that print. Less
 * than that left of the budget, the render cannot finish.
 */
export function refuseWhatCannotFinish(measuringPrintMs: number, budget: { deadline: number; budgetMs: number }, now = Date.now()): void {
  const leftMs = budget.deadline - now;
  if (leftMs >= measuringPrintMs) return;
  const seconds = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
  throw new RenderBudgetEstimateError(
    budget.budgetMs,
    `printing it to measure it took ${seconds(measuringPrintMs)}, the real print takes at least as long, and ${seconds(leftMs)} of the budget were left`,
  );
}

/**
 * A print made only to measure the loaded document (pages, named destinations, marker links): untagged, without
 * bands, laid out as printed and painting nothing else (PrintLayout.beforeMeasuringPrint).
 */
async function printToMeasure(devTools: CDPSession, layout: PrintLayout): Promise<Buffer> {
  await layout.beforeMeasuringPrint();
  return printOnce(devTools, false, null, null, '');
}

/**
 * One Page.printToPDF of the loaded document: every page, or those of `pageRanges` ("1,3-4"). `outline`: bookmarks
 * from the headings (Chromium builds them from the structure tree, so the PDF is tagged too).
 */
export async function printOnce(
  devTools: CDPSession,
  tagged: boolean,
  headerHtml: string | null,
  footerHtml: string | null,
  pageRanges: string,
  outline = false,
): Promise<Buffer> {
  const bands = headerHtml !== null || footerHtml !== null;
  const { data } = await devTools.send('Page.printToPDF', {
    transferMode: 'ReturnAsBase64',
    printBackground: true,
    preferCSSPageSize: true,
    // Chromium builds the outline from the structure tree: without tags it writes none (puppeteer's outline option tags too)
    generateTaggedPDF: tagged || outline,
    generateDocumentOutline: outline,
    displayHeaderFooter: bands,
    headerTemplate: bands ? (headerHtml ?? EMPTY_BAND) : '',
    footerTemplate: bands ? (footerHtml ?? EMPTY_BAND) : '',
    landscape: false,
    scale: 1,
    paperWidth: 8.5,
    paperHeight: 11,
    marginTop: 0,
    marginBottom: 0,
    marginLeft: 0,
    marginRight: 0,
    pageRanges,
  });
  return Buffer.from(data, 'base64');
}

/**
 * Pages that differ (first/last/odd/even bands, backgrounds, watermarks; band conditions on the page counters):
 * Chromium prints one header and one footer template for every page, so the document is printed once without bands
 * (`unbanded`) to count its pages, then once per group of pages that print alike (`pageRanges`, which keeps the real page numbers
 * and page count in the bands), with that group's bands and page style; the pages are then put in order (pdf-lib).
 * The layout is the same in every print: bands sit in the margins and page styles only paint (backgrounds,
 * watermarks shown or hidden). Costs one print more than the number of groups (docs/decisions/0011-page-roles.md).
 */
async function printPageVariants(
  devTools: CDPSession,
  tagged: boolean,
  variantOf: PageVariantOf,
  unbanded: Buffer,
  pageReferences: boolean,
): Promise<Buffer> {
  const totalPages = await readPdfPageCount(unbanded);
  const groups = new Map<string, { variant: PageVariant; pages: number[] }>();
  for (let pageNumber = 1; pageNumber <= totalPages; pageNumber++) {
    const variant = await variantOf(pageNumber, totalPages);
    const key = JSON.stringify(variant);
    const group = groups.get(key);
    if (group) group.pages.push(pageNumber);
    else groups.set(key, { variant, pages: [pageNumber] });
  }
  const merged = await PDFDocument.create({ updateMetadata: false });
  const placed = new Map<number, Awaited<ReturnType<typeof merged.copyPages>>[number]>();
  for (const { variant, pages } of groups.values()) {
    await devTools.send('Runtime.evaluate', { expression: setPageStyle(variant.pageCss) });
    const printed = await loadPdf(await printOnce(devTools, tagged, variant.headerHtml, variant.footerHtml, pages.join(',')));
    const copies = await merged.copyPages(printed, printed.getPageIndices());
    copies.forEach((page, i) => placed.set(pages[i], page));
  }
  for (let pageNumber = 1; pageNumber <= totalPages; pageNumber++) merged.addPage(placed.get(pageNumber));
  // the links of page references name destinations the catalog of each print held
  if (pageReferences) await copyDestinations(unbanded, merged);
  return savePdf(merged);
}

/** DevTools expression: the page style element of a document whose pages differ gets this page group's CSS. */
export function setPageStyle(css: string): string {
  return `(() => { const style = document.getElementById(${JSON.stringify(PAGE_STYLE_ID)}); if (style) style.textContent = ${JSON.stringify(css)}; })()`;
}

/**
 * The rule that keeps a document off the screen: on screen media the root element is not displayed, so loading the
 * document costs no screen layout and paint. Printing switches to print media, where the rule does not apply.
 */
const NOT_ON_SCREEN = '<style>@media screen{:root{display:none!important}}</style>';

/**
 * The document with NOT_ON_SCREEN added, for printing only. A page that loads a document lays it out and paints it
 * for the screen (its window, 800 × 600) as it loads, then printing lays it out again, for paper: the first layout
 * and paint are thrown away. Kept off the screen, loading is 3–4 times faster and printing slower (styles and text
 * shaping now happen there): 4–10 % less per invoice, 0–12 % per report across runs (docs/performance.md).
 * Fonts and images are data: URLs (nothing else loads); the fonts are loaded before printing (loadEveryFont),
 * the page background and images by print layout. The printed pages are the same pixel for pixel as those of the
 * document loaded on screen (page-printer.int-spec.ts, from a fresh browser's first render).
 * The rule goes at the end of the head, or, in a document without one, right after the doctype: before it, the
 * document would be laid out in quirks mode.
 */
export function laidOutForPrintOnly(html: string): string {
  const headEnd = headEndOf(html);
  if (headEnd >= 0) return `${html.slice(0, headEnd)}${NOT_ON_SCREEN}${html.slice(headEnd)}`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype === null ? 0 : doctype[0].length;
  return `${html.slice(0, at)}${NOT_ON_SCREEN}${html.slice(at)}`;
}

const CLOSING_HEAD_TAG = /<\/head\s*>/iy;

/**
 * Where the first closing head tag (any case, spaces before the `>`) starts, or -1. Only where a closing tag starts
 * (`</`, found by a plain substring search) is the tag itself matched: a case-insensitive search of the whole document
 * walks the head's 64 kB of font data character by character for every document (1.9 % of the render service's CPU).
 */
function headEndOf(html: string): number {
  for (let at = html.indexOf('</'); at >= 0; at = html.indexOf('</', at + 2)) {
    CLOSING_HEAD_TAG.lastIndex = at;
    if (CLOSING_HEAD_TAG.test(html)) return at;
  }
  return -1;
}

/** One DevTools session of our own per page, opened at its first print and kept while the page lives. */
const devToolsSessions = new WeakMap<Page, Promise<CDPSession>>();

export function devToolsOf(page: Page): Promise<CDPSession> {
  let session = devToolsSessions.get(page);
  if (session === undefined) {
    session = page.createCDPSession();
    devToolsSessions.set(page, session);
  }
  return session;
}

/**
 * A PNG of the first page: the document laid out for print at the page's width, inside the page margins, with
 * what the printer would put on later pages covered (page breaks, rows that do not fit: hideWhatPrintsOnLaterPages),
 * and the header and footer bands in the margins as Chromium prints them. Page-aware tables get their rows at page
 * breaks placed by printing first, as for the PDF (placeTableBreakRows), so page 1 ends with its carried rows.
 *
 * How the bands get into the picture: Chromium draws its header/footer templates only into a PDF, and headless
 * Chromium cannot rasterise a PDF back (navigations are refused in pooled pages, and its PDF viewer would draw its
 * own frame); pdf.js would need JavaScript and a worker in the page, poppler a new runtime dependency of the image.
 * So the bands are laid out the way Chromium lays them out when printing (its
 * components/printing/resources/print_header_footer_template_page.html): header and footer templates in one
 * document the width of the page, the header from 15 pt below the top edge in a box as tall as the top margin, the
 * footer ending 15 pt above the bottom edge in a box as tall as the bottom margin, the classes `pageNumber`,
 * `totalPages`, `title`, `date` and `url` filled with text. The content (screenshot first, cut at the bottom
 * margin as on paper) is that document's background. `totalPages` is the real count: read from the last print made to
 * measure the document, or from one made for it when a band uses it (or pages differ). JavaScript stays as the
 * render asked (the fields are filled through the DevTools protocol) and everything is inline data, so nothing is
 * fetched. The integration test compares the band areas and the content area with the printed PDF's first page
 * rasterised by pdftoppm.
 */
export async function screenshotFirstPageOnPage(page: Page, options: PageScreenshotOptions): Promise<Buffer> {
  const { widthPx, heightPx } = options;
  await page.setViewport({ width: widthPx, height: heightPx, deviceScaleFactor: 1 });
  await page.emulateMediaType('print');
  await page.setContent(options.html, { waitUntil: 'load', timeout: 0 });
  const devTools = await devToolsOf(page);
  // measured as for the PDF (printPdfOnPage), in a layout held until the picture is laid out
  const layout = new PrintLayout(devTools, 'print');
  const measure = (): Promise<Buffer> => printToMeasure(devTools, layout);
  if (options.pageReferences) await showPlaceholderPages(devTools, layout);
  const placeTables = (): ReturnType<typeof placeTableBreakRows> => placeTableBreakRows(devTools, measure, layout);
  // the last print made to measure: laid out as the PDF, it tells the page count
  let printed: Buffer | null = null;
  if (options.pageAwareTables) {
    // the carried and "continued" rows at the foot of page 1, and the forced break before page 2, as printed
    const placed = await placeTables();
    countMeasuringPrints(placed.measuringPrints);
    printed = placed.printed;
  }
  if (options.pageReferences) {
    // the pages as the PDF shows them
    const resolved = await resolvePageReferences(devTools, printed, measure, layout, options.pageAwareTables ? placeTables : null);
    countMeasuringPrints(resolved.measuringPrints);
    printed = resolved.printed;
  }
  const usesTotalPages = (bands: Pick<PageScreenshotOptions, 'headerHtml' | 'footerHtml'>): boolean =>
    /\btotalPages\b/.test(`${bands.headerHtml ?? ''}${bands.footerHtml ?? ''}`);
  // the first page's variant needs the page count (is page 1 also the last?), and so does a band showing it; counted
  // before the margins are added below, which would change the layout (a page group's style only paints)
  const pageCount = options.pageVariant || usesTotalPages(options) ? await readPdfPageCount(printed ?? (await measure())) : 1;
  await layout.restore();
  if (options.pageVariant) {
    const variant = await options.pageVariant(1, pageCount);
    await page.evaluate(setPageStyle(variant.pageCss));
    options = { ...options, headerHtml: variant.headerHtml, footerHtml: variant.footerHtml, pageVariant: null };
  }
  const bands = options.headerHtml !== null || options.footerHtml !== null;
  const totalPages = usesTotalPages(options) ? pageCount : 1;
  const { top, right, bottom, left } = options.marginMm;
  await page.addStyleTag({ content: `html{padding:${top}mm ${right}mm ${bottom}mm ${left}mm;background:#fff}` });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(hideWhatPrintsOnLaterPages, heightPx - Math.round(bottom * CSS_PX_PER_MM), Math.round(top * CSS_PX_PER_MM));
  await page.evaluate(paintFirstPageBackground, widthPx, heightPx);
  if (!bands) return screenshot(page, heightPx);

  const fields = await page.evaluate(
    (pageCount) => ({
      pageNumber: '1',
      totalPages: String(pageCount),
      title: document.title,
      // Chromium's own format: the browser's locale, short date and time
      date: new Date().toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' }),
      url: location.href,
    }),
    totalPages,
  );
  const content = await screenshot(page, Math.max(1, heightPx - Math.round(bottom * CSS_PX_PER_MM)));
  await page.setContent(bandsPage(options, content), { waitUntil: 'load', timeout: 0 });
  await page.evaluate((values: Record<string, string>) => {
    for (const [name, value] of Object.entries(values)) {
      for (const element of Array.from(document.getElementsByClassName(name))) element.textContent = value;
    }
    return document.fonts.ready.then(() => undefined);
  }, fields);
  return screenshot(page, heightPx);
}

const CSS_PX_PER_MM = 96 / 25.4;

/**
 * Runs in the page: the sheet background of the first page (the DSL's page background, an `@page` or `@page :first`
 * rule, which only printing paints) becomes the picture's background, the whole sheet as on paper.
 */
function paintFirstPageBackground(widthPx: number, heightPx: number): void {
  let image = '';
  for (const sheet of Array.from(document.styleSheets)) {
    for (const rule of Array.from(sheet.cssRules)) {
      if (!(rule instanceof CSSPageRule) || (rule.selectorText !== '' && rule.selectorText !== ':first')) continue;
      const background = rule.style.backgroundImage;
      if (background !== '' && background !== 'none') image = background;
    }
  }
  if (image === '') return;
  const root = document.documentElement.style;
  root.backgroundImage = image;
  root.backgroundPosition = '0 0';
  root.backgroundSize = `${widthPx}px ${heightPx}px`;
  root.backgroundRepeat = 'no-repeat';
}

/**
 * Runs in the page (through the DevTools protocol, whatever the document's JavaScript setting): the screen layout
 * is one long page, so what the printer puts on page 2 and later is covered with white. The first page ends at the
 * earliest of: the bottom of its content area (`contentBottom`, CSS pixels from the top of the picture); the top of
 * the first element with a forced break before it (the DSL's pageBreak), or the bottom of one with a forced break
 * after it; the top of an element that may not be split (a table row, `keepTogether`) and crosses that line, unless
 * it is taller than a page's content area (then the printer splits it too). `contentTop` is the top margin.
 */
function hideWhatPrintsOnLaterPages(contentBottom: number, contentTop: number): void {
  const forced = new Set(['page', 'always', 'left', 'right', 'recto', 'verso']);
  const elements = Array.from(document.body.querySelectorAll('*'));
  let cut = contentBottom;
  for (const element of elements) {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    if (box.height === 0 && box.width === 0 && style.display === 'none') continue;
    if (forced.has(style.breakBefore) && box.top > contentTop && box.top < cut) cut = box.top;
    if (forced.has(style.breakAfter) && box.bottom < cut) cut = box.bottom;
  }
  for (const element of elements) {
    const style = getComputedStyle(element);
    if (style.breakInside !== 'avoid' && style.breakInside !== 'avoid-page') continue;
    const box = element.getBoundingClientRect();
    const fitsOnAPage = box.height <= contentBottom - contentTop;
    if (fitsOnAPage && box.top > contentTop && box.top < cut && box.bottom > cut) cut = box.top;
  }
  if (cut >= contentBottom) return;
  const cover = document.createElement('div');
  cover.style.cssText = `position:absolute;left:0;top:${cut + window.scrollY}px;width:100%;height:${document.documentElement.scrollHeight}px;background:#fff;z-index:2147483647`;
  document.documentElement.appendChild(cover);
}

async function screenshot(page: Page, heightPx: number): Promise<Buffer> {
  const width = page.viewport()?.width ?? 0;
  const png = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width, height: heightPx }, captureBeyondViewport: false });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** The band document: Chromium's header/footer template page around the compiled bands, the content behind. */
function bandsPage(options: PageScreenshotOptions, content: Buffer): string {
  const { widthPx, heightPx, marginMm } = options;
  return (
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'">\n` +
    '<style>\n' +
    `body{margin:0;display:flex;flex-direction:column;justify-content:space-between;width:${widthPx}px;height:${heightPx}px;` +
    `background:#fff url("data:image/png;base64,${content.toString('base64')}") no-repeat 0 0}\n` +
    '#header,#footer{display:flex;flex:none}\n' +
    `#header{align-items:flex-start;padding-top:15pt;height:${marginMm.top}mm}\n` +
    `#footer{align-items:flex-end;padding-bottom:15pt;height:${marginMm.bottom}mm}\n` +
    '</style></head>\n' +
    `<body><div id="header">${options.headerHtml ?? ''}</div><div id="footer">${options.footerHtml ?? ''}</div></body></html>\n`
  );
}
