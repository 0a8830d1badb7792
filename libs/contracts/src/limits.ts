/** Spec 6.3 rule 2: the waits between a callback's delivery attempts, seconds. */
const WEBHOOK_BACKOFF_SECONDS: readonly number[] = [2, 4, 8, 16];

/** Limits of spec part 8. Per-document limits do not scale or relax with batch size. */
export const Limits = {
  /** 50 MB of JSON per document (413 PayloadTooLarge). */
  maxDocumentBytes: 50 * 1024 * 1024,
  /** JSON nesting depth per document (DangerousContent issue at HTTP 200). */
  maxNestingDepth: 32,
  /** Render time per document, milliseconds (RenderTimeout). */
  renderBudgetMs: 60_000,
  /** Batch size of a test key (400 ValidationError). */
  testKeyBatchCap: 10,
  /** Listing page size. */
  defaultTake: 25,
  minTake: 1,
  maxTake: 200,
  /** Issues stored and returned per async job; counts stay exact. */
  jobIssuesStored: 100,
  /** Signed viewUrl validity. */
  viewUrlTtlSeconds: 7 * 24 * 60 * 60,
  /**
   * Webhook delivery: attempts in all — the first, then one after each backoff delay, so 5 (spec 6.3 "abandoned after
   * 5 failed attempts"; libs/webhooks' retry-policy.ts explains the reading) — the backoff, per-attempt timeout,
   * in-flight default.
   */
  webhookMaxAttempts: WEBHOOK_BACKOFF_SECONDS.length + 1,
  webhookBackoffSeconds: WEBHOOK_BACKOFF_SECONDS,
  webhookAttemptTimeoutMs: 30_000,
  webhookInFlight: 16,
  /** Secret rotation grace. */
  secretRotationGraceHours: 24,
} as const;

/** Rate-limit categories of spec part 8: requests per sliding 60-second window, per organisation. */
export enum RateLimitCategory {
  Read = 'read',
  Write = 'write',
  Render = 'render',
}

export const RATE_LIMIT_PER_WINDOW: Record<RateLimitCategory, number> = {
  [RateLimitCategory.Read]: 600,
  [RateLimitCategory.Write]: 120,
  [RateLimitCategory.Render]: 300,
};

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/**
 * Per-document caps on what costs a render time or memory (issue 31 item 2; docs/template-dsl.md "Document caps"). Each is
 * checked by the compiler once the element's value is known and before the costly work (drawing a code or a chart,
 * parsing Markdown, handing an image to Chromium), in `compileDocument` and `validateDocument` alike; an element past a
 * cap is a Warning issue naming it and is left out (its box stays empty), so a production render is blocked and a test
 * render stays cheap. Chosen so the worst allowed document of each kind compiles in a few seconds on a 2-core machine
 * (measured in docs/decisions/0024-document-caps.md), well within the 60 s render budget.
 */
export const DocumentCaps = {
  /** Codes (qrCode and barcode elements as drawn, repeated ones counted each time) per document. */
  maxCodes: 200,
  /**
   * Weighted bytes encoded in all the codes of a document: each value's UTF-8 length times its format's weight in
   * `codeByteWeight`, which follows the time one byte takes to encode and print (an Aztec byte about twelve times a QR
   * byte to encode; a linear code's character about five times a QR byte, most of it printing its bars and text).
   */
  maxCodeBytes: 20_000,
  codeByteWeight: { qr: 1, linear: 5, pdf417: 3, datamatrix: 4, aztec: 12 },
  /** Charts drawn per document. */
  maxCharts: 20,
  /** Items one chart draws (the rest is left off with an InvalidChartConfig issue); slices of one pie or doughnut. */
  maxChartItems: 1_000,
  maxPieSlices: 200,
  /** Points of all the charts of a document: items × series drawn, a pie's slice counting `pieSliceWeight` points. */
  maxChartPoints: 4_000,
  pieSliceWeight: 2,
  /** Characters of a chart's label, title or series name (longer ones are cut, with an issue). */
  maxChartTextLength: 200,
  /** Characters of one rich text's Markdown once its bindings are filled in (template text and data). */
  maxMarkdownChars: 50_000,
  /** Characters of the Markdown of all the rich texts of a document. */
  maxMarkdownCharsPerDocument: 100_000,
  /** Lines of the Markdown of all the rich texts of a document (each paragraph, list item, heading or line break takes one). */
  maxMarkdownLinesPerDocument: 3_000,
  /** Pixels (width × height, as the image's header declares them) of one image, and of all the images of a document. */
  maxImagePixels: 50_000_000,
  maxImagePixelsPerDocument: 150_000_000,
  /**
   * Percentages above this are refused in element sizes; absolute lengths (sizes, gaps, paddings, borders, positions)
   * may be no longer than the sheet's longer side.
   */
  maxPercent: 100,
  /**
   * Characters of a document's compiled HTML (body, header and footer) that are handed to Chromium. Past it the
   * document would not print within the render budget (a 1,000-row report is 0.37 MB; Chromium printed about 1 MB of
   * table in 10 s on a loaded 2-core machine), and handing that much to the browser holds the render service's event
   * loop in garbage collection: it ends at once, before printing, with a RenderTimeout issue that says so.
   */
  maxPrintedHtmlChars: 8_000_000,
  /**
   * Characters of a run in a value shown as text that offers no place to break a line (no breaking space, hyphen or
   * letter of a script that breaks between letters). Chromium's layout of one long unbreakable word grows faster than
   * its length (a 200,000-character word in a table cell did not print within the 60 s budget); no word, code or
   * address comes near this. A longer run is cut, with an issue naming the element.
   */
  maxUnbrokenChars: 1_000,
} as const;
