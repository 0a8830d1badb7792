import type { CDPSession, Page } from 'puppeteer-core';
import { PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { pageStamps, type PageStamp } from '../pdf/page-forms';
import { copyTaggedPages } from '../pdf/tagged-pages';
import { markHeadings, withDocumentOutline } from './document-outline';
import { isMarkerLink, markerKeyOf, markerLinks, withoutMarkerLinks } from './marker-links';
import { BREAK_ROWS_CLASS } from '@docrender/template-dsl';
import { evaluateInPage, loadEveryFont } from './in-page';
import { placeBatchTableBreakRows, ROW_MARKER_HOST } from './page-aware-tables';
import { devToolsOf, laidOutForPrintOnly, printOnce, setPageStyle, type PageVariantOf, type PdfPrintOptions } from './page-printer';
import { documentsPlacedBeyondFirstPage, markPlacedElementsInBatch, PLACED_MARKER_HOST } from './placed-elements';
import { loadPdf, savePdf } from '../pdf/paced-pdf';

/**
 * A compiled document that may share a print with others (batchPrintKey is not null for it). Its own PDF /Title is
 * written afterwards, like a document printed alone (withPdfMetadata).
 */
export type BatchPrintDocument = Pick<PdfPrintOptions, 'html' | 'headerHtml' | 'footerHtml'> & {
  /** Null or absent when every page prints alike; else what page N of M of this document prints with. */
  pageVariant?: PageVariantOf | null;
  /** It has placed elements whose height only printing tells (CompiledDocument.placedToMeasure). */
  placedToMeasure?: boolean;
  /** It has tables with lines at page breaks (CompiledDocument.pageAwareTables): the batch places their breaks. */
  pageAwareTables?: boolean;
  /** Tagged (accessible) PDF; the documents of a batch all are or all are not (batchPrintKey). */
  tagged?: boolean;
  /** An outline from the headings, untagged (the service's own, decision 0051); the documents of a batch all have one or none. */
  outline?: boolean;
};

/**
 * What documents must have in common to be printed in one print: everything before `</head>` except the title
 * (styles, font faces, `@page` rules, the page style element, the language), the elements fixed on every page (their
 * watermarks, which may differ by data: a batch print keeps one set), whether their pages differ and whether they are
 * tagged or have an outline. Null for a document that is printed alone: JavaScript (a fresh context per document), page
 * references (their numbers are read from the document's own print and written in before the real one: decision
 * 0036), a tagged document's outline (Chromium writes one for the whole print; an untagged document's is the
 * service's, written into each document's PDF: decision 0051), tagged with pages that differ (alone, its pages are put
 * together from several prints and it is not tagged: decision 0011), `@page` rules for the first, left, right or
 * blank page (in a batch they would apply to the batch's pages, not to each document's), or HTML without the one head
 * and body the template DSL writes. Placed elements to measure and tables with lines at page breaks (decision 0029)
 * may share: the batch's one print measures the ones and confirms the others' breaks (printBatchOnPage). Tagged
 * documents share a tagged print, each taking its part of the structure tree (copyTaggedPages), when their body has
 * at most TAGGED_SHARE_MAX_ELEMENTS elements, or TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE with page-aware tables.
 */
export function batchPrintKey(document: {
  html: string;
  tagged: boolean;
  javaScript: boolean;
  pageAwareTables: boolean;
  placedToMeasure: boolean;
  pageReferences?: boolean;
  outline?: boolean;
  fixedMarkup?: string;
  pageVariant?: unknown;
}): string | null {
  if (document.javaScript || document.pageReferences === true || (document.tagged && (document.outline === true || document.pageVariant))) return null;
  const parts = splitDocument(document.html);
  if (parts === null || PAGE_PSEUDO_CLASS.test(parts.head)) return null;
  if (document.tagged) {
    const most = document.pageAwareTables ? TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE : TAGGED_SHARE_MAX_ELEMENTS;
    if (elementsIn(parts.body, most) > most) return null;
  }
  return `${document.pageVariant ? 'variants' : 'alike'}${document.tagged ? ' tagged' : ''}${document.outline === true ? ' outline' : ''}\n${document.fixedMarkup ?? ''}\n${parts.head.replace(TITLE, '')}`;
}

const PAGE_PSEUDO_CLASS = /@page[^{]*:(first|left|right|blank)/i;

/**
 * The most elements (start tags) the body of a tagged document may have to share a print. Splitting a tagged print
 * costs the service's Node per structure element (pdf-lib parsing the print, copying the document's part, writing it),
 * where sharing saves each document a print's fixed cost. `BENCH_BATCH_TAGGED=1 npm run bench:batch` (2026-11-30, AMD
 * EPYC; docs/performance.md), batches of 10 against the service printing one by one: examples/invoice (444 elements)
 * 1.43 against 1.06 × raw, examples/report cut to 30 transactions (529) 1.12 against 1.19, to 60 (919) 0.84 against
 * 1.15 (and, timed once outside the benches, the whole report of 13,139 elements twice as long in a batch of 2, its
 * split holding the event loop up to 180 ms). Larger tagged documents print alone.
 */
export const TAGGED_SHARE_MAX_ELEMENTS = 500;

/**
 * The same for a document with page-aware tables, which alone costs more than one print (its rows measured in one
 * layout before the print lays it out again), so sharing saves it more. `BENCH_BATCH_DATA=statements
 * BENCH_BATCH_TAGGED=1 BENCH_STATEMENT_ROWS=N npm run bench:batch` (2026-11-30, AMD EPYC; docs/performance.md),
 * batches of 10 against the service printing one by one: examples/statement of 110 rows (1,468 elements) 0.82 against
 * 0.62 × raw, 200 rows (2,638) 0.75 against 0.65, 400 rows (5,238) 0.64 against 0.66.
 */
export const TAGGED_SHARE_MAX_ELEMENTS_PAGE_AWARE = 2_500;

/** How many start tags `html` has, counting no further than one past `limit`. */
function elementsIn(html: string, limit: number): number {
  let count = 0;
  for (let at = html.indexOf('<'); at >= 0 && count <= limit; at = html.indexOf('<', at + 1)) {
    const next = html.charCodeAt(at + 1);
    // a letter: a start tag (end tags, comments and doctypes start with `/` or `!`; text has `&lt;`)
    if ((next >= 97 && next <= 122) || (next >= 65 && next <= 90)) count++;
  }
  return count;
}

/**
 * The documents cannot be printed together after all (a placed element reaches below its document's first page, a
 * table break is not where planned, elements fixed on the page differ although their keys agree); each is printed
 * alone.
 */
export class BatchNotSharedError extends Error {}

const TITLE = /<title>[^<]*<\/title>/i;
const BODY = /<body>([\s\S]*)<\/body>\s*<\/html>\s*$/i;
const MARKER_HOST = 'document.docrender.invalid';
/** Every marker link a batch print may hold: the documents', the placed elements' and the table rows'. */
const MARKER_HOSTS = [MARKER_HOST, PLACED_MARKER_HOST, ROW_MARKER_HOST];

function splitDocument(html: string): { head: string; body: string } | null {
  const headEnd = html.indexOf('</head>');
  const body = BODY.exec(html);
  if (headEnd < 0 || body === null || html.indexOf('<body', headEnd) !== body.index) return null;
  return { head: html.slice(0, headEnd), body: body[1] };
}

/**
 * Prints several documents with the same batchPrintKey on one page with one load, and returns each document's own
 * PDF, in order: the pages, header and footer bands (page numbers, page counts and page roles counted per document)
 * and text it would have printed alone, without its metadata (the caller writes it, as for a document printed
 * alone).
 *
 * How (docs/decisions/0015-batch-printing.md). The documents' bodies are written one after the other into one
 * document with the shared head, each in a block that starts a new page and holds its placed elements
 * (`position:relative`), with a link at its start that takes no room (an absolutely placed 1 px anchor). Elements
 * fixed on the page (watermarks) are kept once. That document is printed once, without bands: the links' annotations
 * tell on which page each document starts, so how many pages it has; placed elements of unknown height get a link at
 * their bottom too, so the same print tells whether each still ends on its document's first page (if one does not, the
 * batch is refused: alone, that document gets a page more and an issue). A print lays the whole document out, whatever
 * its page range, so this is the one print of the batch; only pages whose page style differs (issue 20 page roles)
 * are printed again, once per page style, with `pageRanges`. Chromium fills a band's `pageNumber` and `totalPages`
 * spans with the numbers of the whole print, so the bands are printed apart, on empty pages with the same head: a
 * document whose pages print alike takes page N of its own bands printed on M empty pages (one print per distinct
 * header, footer and page count); one whose bands differ per page takes its page's bands with the counters written
 * as text, on one page. Each document's PDF is its pages copied out of the batch print (the links removed) with its
 * band pages stamped on them (pdf-lib), pages of one print copied in one go so what they share is copied once.
 * Documents with an outline have their headings marked before the print, and each PDF gets the outline of its own
 * headings (document-outline.ts, decision 0051).
 */
export async function printBatchOnPage(page: Page, documents: BatchPrintDocument[]): Promise<Buffer[]> {
  const parts = documents.map((document) => {
    const split = splitDocument(document.html);
    if (split === null) throw new Error('a document without the head and body of the template DSL cannot share a print');
    return split;
  });
  let tablesBefore = 0;
  const bodies = parts.map(({ body }, index) => {
    // the page-aware tables of all the documents numbered apart, in order
    const numbered = documents[index].pageAwareTables ? numberTablesFrom(body, tablesBefore) : { body, tables: 0 };
    tablesBefore += numbered.tables;
    return `<div style="position:relative${index === 0 ? '' : ';break-before:page'}"><a class="docrender-document" href="https://${MARKER_HOST}/${index}" style="position:absolute;width:1px;height:1px"></a>${numbered.body}</div>`;
  });
  await page.setContent(laidOutForPrintOnly(`${parts[0].head}</head><body>${bodies.join('')}</body></html>`), { waitUntil: 'load', timeout: 0 });
  const devTools = await devToolsOf(page);
  const { result } = await devTools.send('Runtime.evaluate', { expression: `(${oneSetOfFixedElements.toString()})()`, returnByValue: true });
  if (result.value !== true) throw new BatchNotSharedError('the documents have different watermarks (elements fixed on every page)');
  const placed = await devTools.send('Runtime.evaluate', { expression: `(${placedAsAlone.toString()})()`, returnByValue: true });
  if (placed.result.value !== true) throw new BatchNotSharedError('a placed element is as wide as the page\'s content area, or of unknown width');
  const measuresPlaced = documents.some((document) => document.placedToMeasure);
  if (measuresPlaced) await markPlacedElementsInBatch(devTools);
  // marked before the print, as alone: each document's outline is written into its own PDF from its headings' markers
  const headings = documents[0].outline === true ? await markHeadings(devTools, true) : null;
  await loadEveryFont(devTools);
  const tables = tablesBefore > 0 ? await placeBatchTableBreakRows(devTools) : null;
  if (tables !== null && 'notPlaced' in tables) throw new BatchNotSharedError(tables.notPlaced);
  const tagged = documents[0].tagged === true;
  let counted: PDFDocument;
  try {
    counted = await loadPdf(await printOnce(devTools, tagged, null, null, ''));
  } finally {
    await tables?.restore();
  }
  const firstPages = documentFirstPages(counted, documents.length);
  const misplaced = tables?.misplacedDocuments(counted, firstPages) ?? [];
  // alone, such a document's breaks are corrected by printing it again
  if (misplaced.length > 0) throw new BatchNotSharedError(`the rows at the table page breaks of documents ${misplaced.map((i) => i + 1).join(', ')} of the batch are not where planned`);
  if (measuresPlaced) {
    // printed alone, such a document gets a page more (and an issue): it is not laid out here as it would be alone
    const beyond = documentsPlacedBeyondFirstPage(counted, firstPages);
    if (beyond.length > 0) throw new BatchNotSharedError(`documents ${beyond.join(', ')} of the batch have placed elements reaching below their first page`);
  }

  // what every page of every document prints with
  const documentPlans = await Promise.all(
    documents.map(async (document, index) => {
      const totalPages = firstPages[index + 1] - firstPages[index];
      const pageVariant = document.pageVariant;
      const variants = pageVariant ? await Promise.all(Array.from({ length: totalPages }, (_, i) => pageVariant(i + 1, totalPages))) : null;
      return { document, index, totalPages, variants };
    }),
  );
  const pagePlan = documentPlans.flatMap(({ document, index, totalPages, variants }) => {
    return Array.from({ length: totalPages }, (_, i) => {
      const pageNumber = i + 1;
      const variant = variants ? variants[i] : null;
      // bands: a document whose pages print alike takes page N of its own bands printed on M empty pages (Chromium
      // numbers those 1 to M); one whose bands differ per page takes its page's bands, numbers written as text
      const bands = variant
        ? { headerHtml: withPageCounters(variant.headerHtml, pageNumber, totalPages), footerHtml: withPageCounters(variant.footerHtml, pageNumber, totalPages), pages: 1, page: 1 }
        : { headerHtml: document.headerHtml, footerHtml: document.footerHtml, pages: totalPages, page: pageNumber };
      return { printed: firstPages[index] + i, bands, pageCss: variant ? variant.pageCss : null };
    });
  });
  // content: pages whose page style differs are printed again with theirs (the links removed first)
  const content = new Map<number, PrintedPage>();
  const byPageCss = groupBy(pagePlan.filter((p) => p.pageCss !== null), (p) => p.pageCss);
  if (byPageCss.size > 0) await evaluate(devTools, `document.querySelectorAll('a.docrender-document, a.docrender-placed-marker, a.docrender-marker').forEach((link) => link.remove())`);
  for (const [pageCss, pages] of byPageCss) {
    await evaluate(devTools, setPageStyle(pageCss ?? ''));
    const source = await loadPdf(await printOnce(devTools, false, null, null, pages.map((p) => p.printed).join(',')));
    pages.forEach((p, index) => content.set(p.printed, { source, index }));
  }
  for (const p of pagePlan) if (!content.has(p.printed)) content.set(p.printed, { source: counted, index: p.printed - 1 });

  // bands: printed on empty pages with the shared head (no page background, no page style), once per distinct
  // header, footer and page count
  const bandPrints = groupBy(
    pagePlan.filter((p) => p.bands.headerHtml !== null || p.bands.footerHtml !== null),
    (p) => JSON.stringify([p.bands.headerHtml, p.bands.footerHtml, p.bands.pages]),
  );
  const bands = new Map<number, PrintedPage>();
  let loadedPages = 0;
  // fewest loads of empty pages: the prints in order of their page count
  for (const pages of [...bandPrints.values()].sort((a, b) => a[0].bands.pages - b[0].bands.pages)) {
    const { headerHtml, footerHtml, pages: count } = pages[0].bands;
    if (count !== loadedPages) {
      const emptyPages = Array.from({ length: count }, (_, i) => `<div style="height:1px${i === 0 ? '' : ';break-before:page'}"></div>`).join('');
      await page.setContent(laidOutForPrintOnly(`${parts[0].head}<style>@page{background:none!important}</style></head><body>${emptyPages}</body></html>`), { waitUntil: 'load', timeout: 0 });
      await loadEveryFont(devTools);
      await evaluate(devTools, setPageStyle(''));
      loadedPages = count;
    }
    const source = await loadPdf(await printOnce(devTools, false, headerHtml, footerHtml, ''));
    if (source.getPageCount() !== count) throw new Error(`the bands printed on ${source.getPageCount()} pages instead of ${count}`);
    for (const p of pages) bands.set(p.printed, { source, index: p.bands.page - 1 });
  }

  const pdfs: Buffer[] = [];
  for (let index = 0; index < documents.length; index++) {
    const own = await PDFDocument.create({ updateMetadata: false });
    const pages = pagePlan.slice(firstPages[index] - 1, firstPages[index + 1] - 1);
    // the pages that come from one print are copied in one go, so the fonts and images they share are copied once
    const copies = new Map<number, PDFPage>();
    if (tagged) {
      // with the document's part of the structure tree (its pages all come from the one print: no page variants)
      const copied = copyTaggedPages(own, counted, pages.map((p) => p.printed - 1), { index, isMarker: (link) => markerKeyOf(link, MARKER_HOST) === String(index) }, (link) => isMarkerLink(link, MARKER_HOSTS));
      if (copied === null) throw new BatchNotSharedError(`the structure tree of the tagged print does not hold document ${index + 1} apart`);
      pages.forEach((p, i) => copies.set(p.printed, copied[i]));
    }
    for (const [source, fromOnePrint] of groupBy(pages.filter((p) => !copies.has(p.printed)).map((p) => ({ p, ...pageOf(content, p.printed) })), (c) => c.source)) {
      const copied = await own.copyPages(source, fromOnePrint.map((c) => c.index));
      fromOnePrint.forEach((c, i) => copies.set(c.p.printed, copied[i]));
    }
    // the same for the band pages: made ready to stamp once per band print, so their fonts and images are copied once
    const stamps = new Map<number, PageStamp>();
    for (const [source, fromOnePrint] of groupBy(pages.filter((p) => bands.has(p.printed)).map((p) => ({ p, ...pageOf(bands, p.printed) })), (b) => b.source)) {
      const ready = await pageStamps(own, source, fromOnePrint.map((b) => b.index));
      fromOnePrint.forEach((b, i) => stamps.set(b.p.printed, ready[i]));
    }
    for (const p of pages) {
      const copy = copies.get(p.printed) as PDFPage; // every page was copied above
      withoutMarkerLinks(copy, MARKER_HOSTS);
      own.addPage(copy);
      stamps.get(p.printed)?.(copy);
    }
    const pdf = await savePdf(own);
    pdfs.push(headings === null ? pdf : await withDocumentOutline(pdf, headings.map((heading) => (heading.document === index ? heading : undefined))));
  }
  return pdfs;
}

const TABLE_ROW = / data-r="(\d+):/g;
const TABLE_BREAK_ROWS = new RegExp(`<template class="${BREAK_ROWS_CLASS}" data-t="(\\d+)">`, 'g');

/**
 * A document's body with its page-aware tables numbered from `first` (its rows' `data-r` and its break rows' holder:
 * CompiledDocument.pageAwareTables), and how many it has. Only the DSL's own attributes match: text and attribute
 * values the data fills are escaped (`"` as `&quot;`, `<` as `&lt;`).
 */
function numberTablesFrom(body: string, first: number): { body: string; tables: number } {
  let tables = 0;
  const renumber = (table: string): number => {
    tables = Math.max(tables, Number(table) + 1);
    return Number(table) + first;
  };
  const numbered = body.replace(TABLE_ROW, (_, table: string) => ` data-r="${renumber(table)}:`).replace(TABLE_BREAK_ROWS, (_, table: string) => `<template class="${BREAK_ROWS_CLASS}" data-t="${renumber(table)}">`);
  return { body: numbered, tables };
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

type PrintedPage = { source: PDFDocument; index: number };

/** Where page `printed` of the batch comes from (every page has its entry). */
function pageOf(pages: Map<number, PrintedPage>, printed: number): PrintedPage {
  const found = pages.get(printed);
  if (found === undefined) throw new Error(`page ${printed} of the batch was not printed`);
  return found;
}

/**
 * The first page of every document in the counting print, from its link, and one past the last page at the end:
 * document i has pages firstPages[i] to firstPages[i + 1] - 1.
 */
function documentFirstPages(printed: PDFDocument, count: number): number[] {
  const firstPages: number[] = [];
  for (const link of markerLinks(printed, MARKER_HOST)) firstPages[Number(link.key)] ??= link.page;
  firstPages.length = count;
  firstPages.push(printed.getPageCount() + 1);
  for (let i = 0; i < count; i++) {
    if (!(firstPages[i] < firstPages[i + 1])) throw new Error(`document ${i} of the batch has no page of its own in the print`);
  }
  return firstPages;
}

/** A band with the page counter spans Chromium would fill written as this document's numbers. */
function withPageCounters(band: string | null, pageNumber: number, totalPages: number): string | null {
  return band === null ? null : band.replaceAll('<span class="pageNumber"></span>', `<span>${pageNumber}</span>`).replaceAll('<span class="totalPages"></span>', `<span>${totalPages}</span>`);
}

function evaluate(devTools: CDPSession, expression: string): Promise<void> {
  return evaluateInPage(devTools, expression, 'printing the batch');
}

// Runs in the page (through the DevTools protocol, whatever the document's JavaScript setting).

/**
 * Whether every placed element (the DSL's `position`: absolutely positioned by a class) is laid out in the batch as
 * alone. Alone, a placed element's containing block is the page's content area in whole pixels (Chromium's initial
 * containing block); in a batch, it is its document's block, as wide as the content area to the fraction of a pixel.
 * An element placed from the left and narrower than the whole pixels is laid out the same in both; one at least as
 * wide is capped by its `max-width:100%` differently (examples/label's reference line, 93.6 mm on a 93.6 mm content
 * area, printed 0.28 pt further right), one of auto width may wrap differently, and one placed from the right edge
 * (right-to-left documents) moves by the fraction. False when there is such an element.
 */
function placedAsAlone(): boolean {
  let pageRule: CSSPageRule | null = null;
  const placedSelectors: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    for (const rule of Array.from(sheet.cssRules)) {
      if (rule instanceof CSSPageRule && rule.selectorText === '' && rule.style.getPropertyValue('size') !== '') pageRule = rule;
      if (rule instanceof CSSStyleRule && rule.style.position === 'absolute') placedSelectors.push(rule.selectorText);
    }
  }
  if (placedSelectors.length === 0) return true;
  if (pageRule === null) return false;
  // a margin of 0 may be written without a unit
  const px = (length: string): number => (Number.parseFloat(length) === 0 ? 0 : CSSNumericValue.parse(length).to('px').value);
  const [pageWidth] = pageRule.style.getPropertyValue('size').trim().split(/\s+/).map(px);
  const contentWidth = pageWidth - px(pageRule.style.getPropertyValue('margin-left')) - px(pageRule.style.getPropertyValue('margin-right'));
  const documents = Array.from(document.body.children);
  return documents.every((container) =>
    Array.from(container.querySelectorAll(placedSelectors.join(','))).every((element) => {
      const { width, right } = getComputedStyle(element);
      return right === 'auto' && width.endsWith('px') && Number.parseFloat(width) < Math.floor(contentWidth);
    }),
  );
}

/**
 * Elements fixed on the page (the DSL's watermarks) print on every page of the print, so in a batch on every page of
 * every document: they are kept in the first document only, when every document has the same ones. False (nothing
 * removed) when they differ.
 */
function oneSetOfFixedElements(): boolean {
  const documents = Array.from(document.body.children);
  const fixed = documents.map((container) => Array.from(container.children).filter((child) => getComputedStyle(child).position === 'fixed'));
  const first = fixed[0].map((element) => element.outerHTML).join('');
  if (fixed.some((elements) => elements.map((element) => element.outerHTML).join('') !== first)) return false;
  fixed.slice(1).forEach((elements) => elements.forEach((element) => element.remove()));
  return true;
}
