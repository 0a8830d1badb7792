import type { Logger } from '@docrender/observability';
import { withPdfMetadata } from '../pdf/pdf-metadata';
import { BrowserPool } from './browser-pool';
import { printPdfOnPage, screenshotFirstPageOnPage, type PageScreenshotOptions, type PageVariantOf } from './page-printer';
import { isLongPrint } from './printed-size';

export type { PageVariantOf } from './page-printer';

export type PrintPdfRequest = {
  html: string;
  /** PDF /Title: the document name (the DSL's title, which defaults to it). */
  title: string;
  tagged: boolean;
  /** Chromium header/footer templates, or null. */
  headerHtml: string | null;
  footerHtml: string | null;
  /** Null when every page prints alike; else what page N of M prints with (CompiledDocument.pageVariant). */
  pageVariant: PageVariantOf | null;
  /** The document has tables with lines at page breaks (CompiledDocument.pageAwareTables). */
  pageAwareTables: boolean;
  /** The document has placed elements whose height only printing tells (CompiledDocument.placedToMeasure). */
  placedToMeasure: boolean;
  /** The document has page references to fill in (CompiledDocument.pageReferences); absent: none. */
  pageReferences?: boolean;
  /** A PDF outline from the headings (CompiledDocument.outline); absent: none. */
  outline?: boolean;
  /** The elements fixed on every page, its watermarks (CompiledDocument.fixedMarkup); absent: none. */
  fixedMarkup?: string;
  /** The compiled HTML needs scripts: it gets a fresh browser context instead of a reused page. */
  javaScript: boolean;
  /** Epoch milliseconds; past it the render fails with RenderTimeoutError. */
  deadline: number;
  budgetMs: number;
};

/** The first page as a picture (PageScreenshotOptions), under the render's deadline. */
export type ScreenshotRequest = PageScreenshotOptions & {
  javaScript: boolean;
  deadline: number;
  budgetMs: number;
};

export type PrintedPdf = {
  pdf: Buffer;
  /** Placed elements found reaching below the first page's content area (only measured when placedToMeasure). */
  placedBeyondPage: string[];
  /** Anchors whose page the print did not tell (only with pageReferences; anchorNotPrintedIssue). */
  anchorsNotPrinted?: string[];
};

/**
 * A document on its way to the printer: announced when its render starts reading its data, before it is compiled.
 * A printer that lets documents share a print may keep a page free a moment for it (BatchingDocumentPrinter).
 */
export interface ExpectedDocument {
  /** The document arrives: the printer stops expecting it and prints it. */
  printPdf(request: PrintPdfRequest): Promise<PrintedPdf>;
  /** The document will not come (blocked, failed, abandoned); nothing once it has arrived. */
  withdraw(): void;
}

/** What the render handlers need from Chromium (a port, so their unit tests can use a fake). */
export interface DocumentPrinter {
  printPdf(request: PrintPdfRequest): Promise<PrintedPdf>;
  /** Announces a document that will ask for a print (ExpectedDocument); every announcement ends in printPdf or withdraw. */
  expect(): ExpectedDocument;
  /** A PNG of the document's first page as printed, header and footer bands included. */
  screenshotFirstPage(request: ScreenshotRequest): Promise<Buffer>;
}

export const DOCUMENT_PRINTER = Symbol('DocumentPrinter');

export type ChromiumDocumentPrinterOptions = {
  /** The service's name and version (`docrender render-service <version>`): the PDF /Producer and /Creator. */
  producer: string;
  logger: Logger;
};

/** The DocumentPrinter on the supervised Chromium pool. */
export class ChromiumDocumentPrinter implements DocumentPrinter {
  constructor(
    private readonly pool: BrowserPool,
    private readonly options: ChromiumDocumentPrinterOptions,
  ) {}

  /**
   * Prints on the pool, then writes the PDF metadata (title, producer, creation date) as an incremental update
   * outside the pool, so a page is not held for it. A PDF the update cannot handle is delivered as Chromium made it
   * (its /Title and /Creator are already right, /Producer is Skia's) with a warning.
   */
  async printPdf(request: PrintPdfRequest): Promise<PrintedPdf> {
    let placedBeyondPage: string[] = [];
    let anchorsNotPrinted: string[] = [];
    const printed = await this.printOnPool(
      request,
      (ids) => (placedBeyondPage = ids),
      (anchors) => (anchorsNotPrinted = anchors),
    );
    return { pdf: this.withMetadata(printed, request.title), placedBeyondPage, anchorsNotPrinted };
  }

  /** Each document is printed as it comes, so nothing waits for an announced one. */
  expect(): ExpectedDocument {
    return { printPdf: (request) => this.printPdf(request), withdraw: () => undefined };
  }

  /** A printed PDF with the document's metadata (also each document of a batch print: BatchingDocumentPrinter). */
  withMetadata(printed: Buffer, title: string): Buffer {
    const outcome = withPdfMetadata(printed, { title, producer: this.options.producer, creator: this.options.producer, created: new Date() });
    if (!outcome.written) this.options.logger.warn('PDF metadata not written', { reason: outcome.reason });
    return outcome.pdf;
  }

  private printOnPool(request: PrintPdfRequest, onPlacedBeyondPage: (elementIds: string[]) => void, onAnchorsNotPrinted: (anchors: string[]) => void): Promise<Buffer> {
    return this.pool.run({
      isolation: request.javaScript ? 'fresh-context' : 'reused-page',
      javaScript: request.javaScript,
      deadline: request.deadline,
      budgetMs: request.budgetMs,
      longPrint: isLongPrint([request]),
      work: (page) =>
        printPdfOnPage(page, {
          html: request.html,
          tagged: request.tagged,
          headerHtml: request.headerHtml,
          footerHtml: request.footerHtml,
          pageVariant: request.pageVariant,
          pageAwareTables: request.pageAwareTables,
          pageReferences: request.pageReferences,
          outline: request.outline,
          onAnchorsNotPrinted,
          onPlacedBeyondPage: request.placedToMeasure ? onPlacedBeyondPage : undefined,
          budget: { deadline: request.deadline, budgetMs: request.budgetMs },
        }),
    });
  }

  screenshotFirstPage(request: ScreenshotRequest): Promise<Buffer> {
    // a preview changes the viewport and media type, so it never runs on a page another render reuses
    return this.pool.run({
      isolation: 'fresh-context',
      javaScript: request.javaScript,
      deadline: request.deadline,
      budgetMs: request.budgetMs,
      work: (page) =>
        screenshotFirstPageOnPage(page, {
          html: request.html,
          widthPx: request.widthPx,
          heightPx: request.heightPx,
          marginMm: request.marginMm,
          headerHtml: request.headerHtml,
          footerHtml: request.footerHtml,
          pageVariant: request.pageVariant,
          pageAwareTables: request.pageAwareTables,
          pageReferences: request.pageReferences,
        }),
    });
  }
}
