/**
 * The template DSL (docs/template-dsl.md). These types mirror the published JSON Schema
 * (`template-json-schema.ts`); a template is only trusted as a `Template` after `validateTemplate`.
 */
import type { TemplateEInvoice } from '../e-invoice/e-invoice-mapping';

/** A length: a number is points (1/72 in); a string carries its unit, e.g. "12mm", "1.5cm", "0.5in", "10pt", "50%". */
export type Length = number | string;

/** Text that may contain bindings, e.g. "Invoice {{ number }} of {{ date | date('long') }}". */
export type TemplateText = string;

/** The list a table, repeater or chart repeats: a data path without braces ("items", "report.rows") or an expression giving a list ("groupBy(items, 'vatRate')"). */
export type ListSource = string;

export type FontWeight = number | 'normal' | 'bold';
/** `start` and `end` follow the direction (start is left in left-to-right text, right in right-to-left text). */
export type TextAlign = 'left' | 'center' | 'right' | 'justify' | 'start' | 'end';
/** Base direction: left to right, right to left, or `auto` (from the text's first letter, else as around it). */
export type Direction = 'ltr' | 'rtl' | 'auto';
export type VerticalAlign = 'top' | 'middle' | 'bottom';
export type BorderStyle = 'solid' | 'dashed' | 'dotted' | 'double' | 'none';

export interface Border {
  width?: Length;
  style?: BorderStyle;
  color?: string;
}

/** One value for all sides, [vertical, horizontal], or [top, right, bottom, left]. */
export type Spacing = Length | [Length, Length] | [Length, Length, Length, Length];

export interface StyleProperties {
  fontFamily?: string;
  /** Points. */
  fontSize?: number;
  fontWeight?: FontWeight;
  italic?: boolean;
  /** CSS colour: a name, #rgb, #rrggbb, #rrggbbaa, rgb()/rgba(), hsl()/hsla(); may be a binding. */
  color?: string;
  backgroundColor?: string;
  textAlign?: TextAlign;
  verticalAlign?: VerticalAlign;
  /** Multiple of the font size. */
  lineHeight?: number;
  textDecoration?: 'none' | 'underline' | 'line-through';
  border?: Border;
  borderTop?: Border;
  borderRight?: Border;
  borderBottom?: Border;
  borderLeft?: Border;
  borderRadius?: Length;
  padding?: Spacing;
  margin?: Spacing;
  /** Extra space between characters (a length, e.g. "0.5pt"). */
  letterSpacing?: Length;
  /** `normal` (default: spaces collapse, lines wrap), `preserve` (spaces and line breaks kept, lines wrap), `nowrap` (no wrapping). */
  whiteSpace?: 'normal' | 'preserve' | 'nowrap';
  /**
   * Hyphenate the words of the text in the document's language (soft hyphens from the language's patterns); inherited
   * like the font; default false. Values kept on one line (numbers, amounts, dates, codes) and addresses never are.
   */
  hyphenate?: boolean;
}

/** Fields every element has. */
export interface ElementBase {
  /** Stable identifier, unique in the template; render issues name it. */
  id: string;
  /** Condition (an expression, docs/template-dsl.md "Expressions"); the element is left out when it is false. */
  visibleIf?: string;
  /** Named style(s) from `styles`, applied in order. */
  styleName?: string | string[];
  /** Inline style, applied after the named styles. */
  style?: StyleProperties;
  width?: Length;
  /** Keep the element on one page when it fits. */
  keepTogether?: boolean;
  /** Keep the element on the same page as the next one (default true for headings). */
  keepWithNext?: boolean;
  /** Start a new page before / after the element (body flow only). */
  pageBreakBefore?: boolean;
  pageBreakAfter?: boolean;
  /** Place the element on the current page at this distance from the page's top left corner (top right in a right-to-left document), not from the margins. */
  position?: ElementPosition;
  /** Base direction of the element and what it holds; default `auto` (docs/template-dsl.md "Scripts, direction and fonts"). */
  direction?: Direction;
  /**
   * Names the place of the element (text with bindings, e.g. "product-{{ p.sku }}"), unique in the document: text
   * elsewhere shows the page it lands on with `{{ pageOf('…') }}`, a link to it (docs/template-dsl.md "Anchors and page references").
   */
  anchor?: TemplateText;
  /** BCP 47 language of the element and what it holds (ja, zh-Hant, de-CH): the forms of its CJK text, its hyphenation; default the document's. */
  lang?: string;
}

export interface ElementPosition {
  x: Length;
  y: Length;
}

export interface TextElement extends ElementBase {
  type: 'text';
  text: TemplateText;
  /** Heading level 1-6 (document structure in tagged PDFs); plain paragraph when absent. */
  heading?: 1 | 2 | 3 | 4 | 5 | 6;
  /** Fewest lines of the paragraph left at the bottom of a page / carried to the top of the next (default 2). */
  orphans?: number;
  widows?: number;
}

export interface RichTextElement extends ElementBase {
  type: 'richText';
  /** Safe Markdown subset with bindings; raw HTML is shown as text. */
  markdown: TemplateText;
  orphans?: number;
  widows?: number;
}

export type ImageFit = 'contain' | 'cover' | 'fill';

export interface ImageElement extends ElementBase {
  type: 'image';
  /** data:image/… URI, https URL, "asset:<name>" (organisation asset), or a binding producing one of these. */
  source: TemplateText;
  /** Alternative text (the /Alt of its Figure in a tagged PDF); "" marks it as decoration (an artifact). Required with `pdfUA`. */
  alt?: TemplateText;
  height?: Length;
  fit?: ImageFit;
  align?: 'left' | 'center' | 'right' | 'start' | 'end';
}

export interface TableColumn {
  /** Unique within the table; totals cells refer to it. */
  id: string;
  header?: TemplateText;
  /** Cell content, evaluated once per row with the row item in scope. */
  value: TemplateText;
  width?: Length;
  align?: 'left' | 'center' | 'right' | 'start' | 'end';
  visibleIf?: string;
  styleName?: string | string[];
  style?: StyleProperties;
  headerStyle?: StyleProperties;
}

export interface TableTotals {
  /** Column id → cell content. Columns without an entry stay empty. */
  cells: Record<string, TemplateText>;
  style?: StyleProperties;
}

export interface TablePageBreaks {
  /** Running sums: name → template text giving the row's number (the row item in scope), e.g. "{{ line.amount }}". */
  sums?: Record<string, TemplateText>;
  /** Row at the foot of a page the table continues from: column id → text; `carried.<name>` is the sum so far. */
  carried?: Record<string, TemplateText>;
  /** Row at the head of the next page, under the repeated header: column id → text, `carried.<name>` as above. */
  brought?: Record<string, TemplateText>;
  /** A full-width line at the foot of the page the table continues from / at the head of the next. */
  continuedFoot?: TemplateText;
  continuedHead?: TemplateText;
  /** Style of these rows (default italic). */
  style?: StyleProperties;
}

export type TableBorders = 'all' | 'horizontal' | 'outer' | 'none';

export interface TableElement extends ElementBase {
  type: 'table';
  source: ListSource;
  /** Name of the row item in bindings; default "item". */
  as?: string;
  columns: TableColumn[];
  /** Show the header row (repeated on every page); default true. */
  showHeader?: boolean;
  headerStyle?: StyleProperties;
  rowStyle?: StyleProperties;
  alternateRowStyle?: StyleProperties;
  totals?: TableTotals;
  borders?: TableBorders;
  borderColor?: string;
  emptyText?: TemplateText;
  /** Fewest rows left at the bottom of a page before a break / carried to the next page (default 1). */
  orphans?: number;
  widows?: number;
  /** Lines where the table breaks across pages: "continued" lines and carried subtotals. */
  pageBreaks?: TablePageBreaks;
}

export interface RepeaterElement extends ElementBase {
  type: 'repeater';
  source: ListSource;
  as?: string;
  elements: TemplateElement[];
  layout?: 'column' | 'row' | 'grid';
  /** Columns of the grid layout; default 2. */
  columns?: number;
  gap?: Length;
  /** Keep each item on one page when it fits; default true. */
  keepItemsTogether?: boolean;
  emptyText?: TemplateText;
}

export type Justify = 'start' | 'center' | 'end' | 'space-between' | 'space-around';
export type CrossAlign = 'start' | 'center' | 'end' | 'stretch';

export interface RowElement extends ElementBase {
  type: 'row';
  elements: TemplateElement[];
  gap?: Length;
  justify?: Justify;
  align?: CrossAlign;
  wrap?: boolean;
}

export interface ColumnElement extends ElementBase {
  type: 'column';
  elements: TemplateElement[];
  gap?: Length;
  align?: CrossAlign;
}

export interface GridElement extends ElementBase {
  type: 'grid';
  elements: TemplateElement[];
  /** Number of equal columns, or one length per column ("1fr" allowed). */
  columns: number | Length[];
  gap?: Length;
  rowGap?: Length;
  align?: CrossAlign;
}

export interface SpacerElement extends ElementBase {
  type: 'spacer';
  height: Length;
}

export interface LineElement extends ElementBase {
  type: 'line';
  orientation?: 'horizontal' | 'vertical';
  /** Length of the line; default the full width (horizontal) or 10mm (vertical). */
  length?: Length;
  thickness?: Length;
  color?: string;
  lineStyle?: 'solid' | 'dashed' | 'dotted';
}

export interface BoxElement extends ElementBase {
  type: 'box';
  height?: Length;
  elements?: TemplateElement[];
}

export interface PageBreakElement
  extends Omit<ElementBase, 'width' | 'keepTogether' | 'style' | 'styleName' | 'keepWithNext' | 'pageBreakBefore' | 'pageBreakAfter' | 'position' | 'direction' | 'anchor' | 'lang'> {
  type: 'pageBreak';
}

export interface QrCodeElement extends ElementBase {
  type: 'qrCode';
  value: TemplateText;
  /** Alternative text (the /Alt of its Figure in a tagged PDF); "" marks it as decoration (an artifact). Required with `pdfUA`. */
  alt?: TemplateText;
  size?: Length;
  errorCorrection?: 'L' | 'M' | 'Q' | 'H';
  color?: string;
  backgroundColor?: string;
}

export type BarcodeFormat =
  | 'qr'
  | 'datamatrix'
  | 'pdf417'
  | 'aztec'
  | 'code128'
  | 'gs1-128'
  | 'code39'
  | 'ean8'
  | 'ean13'
  | 'upca'
  | 'upce'
  | 'itf14';

export interface BarcodeElement extends ElementBase {
  type: 'barcode';
  format: BarcodeFormat;
  value: TemplateText;
  /** Alternative text (the /Alt of its Figure in a tagged PDF); "" marks it as decoration (an artifact). Required with `pdfUA`. */
  alt?: TemplateText;
  /** Default 15mm for linear codes and PDF417, 30mm for QR, DataMatrix and Aztec (square). */
  height?: Length;
  /** Human-readable text under a linear code; default true. Not available for 2D codes. */
  showText?: boolean;
  /** QR error correction level (format "qr" only); default "M". */
  errorCorrection?: 'L' | 'M' | 'Q' | 'H';
  color?: string;
  backgroundColor?: string;
}

export type ChartType = 'bar' | 'line' | 'pie' | 'doughnut';

export interface ChartSeries {
  /** Field of each source item holding the numeric value. */
  field: string;
  name?: TemplateText;
  color?: string;
}

export interface ChartElement extends ElementBase {
  type: 'chart';
  chartType: ChartType;
  source: ListSource;
  /** Field of each source item holding the category label. */
  labelField: string;
  series: ChartSeries[];
  title?: TemplateText;
  /** Alternative text (the /Alt of its Figure in a tagged PDF); "" marks it as decoration (an artifact). Required with `pdfUA`. */
  alt?: TemplateText;
  height?: Length;
  /** Show the legend (true: at the bottom) or where; default on for pies and for several series. */
  legend?: boolean | 'top' | 'bottom' | 'left' | 'right';
  stacked?: boolean;
  horizontal?: boolean;
  showValues?: boolean;
  /** How values are shown on the value axis, as value labels and as pie values; default "number". Locale from the document. */
  valueFormat?: 'number' | 'currency' | 'percent' | 'compact';
  /** Fixed number of decimals of the values. */
  decimals?: number;
  /** ISO 4217 code for valueFormat "currency"; default the template's currency. */
  currency?: string;
  /** How the labels (categories) are shown; default "text" (as they are). Dates are ISO 8601 text. */
  labelFormat?: 'text' | 'number' | 'date' | 'month' | 'year';
  /** Colours of the slices of a pie, or of the series without a colour of their own, in order; may be bindings. */
  colors?: string[];
}

export type TemplateElement =
  | TextElement
  | RichTextElement
  | ImageElement
  | TableElement
  | RepeaterElement
  | RowElement
  | ColumnElement
  | GridElement
  | SpacerElement
  | LineElement
  | BoxElement
  | PageBreakElement
  | QrCodeElement
  | BarcodeElement
  | ChartElement;

export type ElementType = TemplateElement['type'];

export type PaperSize =
  | 'A3'
  | 'A4'
  | 'A5'
  | 'A6'
  | 'B4'
  | 'B5'
  | 'Letter'
  | 'Legal'
  | 'Tabloid'
  | 'Label4x6in'
  | 'Label100x150mm'
  | 'EnvelopeDL'
  | 'EnvelopeC5'
  | 'EnvelopeC6';

/** Which pages a band, background or watermark is for: first beats last, last beats odd/even, those beat all. */
export type PageRole = 'all' | 'first' | 'last' | 'odd' | 'even';

export interface CustomPaperSize {
  width: Length;
  height: Length;
}

export interface PageMargins {
  top?: Length;
  right?: Length;
  bottom?: Length;
  left?: Length;
}

export interface PageBackground {
  /** Same forms as an image source. */
  source: TemplateText;
  pages?: PageRole;
  fit?: 'cover' | 'contain' | 'stretch';
}

export interface PageBandVariant {
  verticalAlign?: VerticalAlign;
  /** Base direction of the band (a variant's, else the band's); default `auto`: the document's. */
  direction?: Direction;
  elements: TemplateElement[];
}

export interface PageBand extends PageBandVariant {
  /** Height of the band; default the page margin it sits in. The margin grows to fit a taller band. */
  height?: Length;
  /** Variants for page roles (same height); the band's own elements are for the other pages. */
  first?: PageBandVariant;
  last?: PageBandVariant;
  odd?: PageBandVariant;
  even?: PageBandVariant;
}

export interface Watermark {
  /** Text (with bindings) or an image source (same forms as an image); one of the two. */
  text?: TemplateText;
  image?: TemplateText;
  pages?: PageRole;
  /** Degrees, counter-clockwise positive; default 35 (bottom left to top right). */
  angle?: number;
  /** 0 to 1; default 0.16. */
  opacity?: number;
  /** Text colour; default red. */
  color?: string;
  /** Text size in points; default fits the page. */
  fontSize?: number;
  /** Image width; default half the page width. */
  width?: Length;
}

export interface PageSetup {
  size?: PaperSize | CustomPaperSize;
  orientation?: 'portrait' | 'landscape';
  /** One length for all sides, or per side; default 20mm. */
  margins?: Length | PageMargins;
  background?: PageBackground | PageBackground[];
  watermark?: Watermark | Watermark[];
  header?: PageBand;
  footer?: PageBand;
}

/** The PDF/A levels the service writes. */
export type PdfALevel = 'PDF/A-2b' | 'PDF/A-2u' | 'PDF/A-3b' | 'PDF/A-3u';

/** The PDF/UA parts the service claims (ISO 14289-1). */
export type PdfUALevel = 'PDF/UA-1';

export interface DocumentMetadata {
  author?: TemplateText;
  subject?: TemplateText;
  /** Comma-separated keywords. */
  keywords?: TemplateText;
  /** The application that made the original (PDF /Creator); default the service. */
  creator?: TemplateText;
}

/** How an attached file relates to the document (PDF 2.0 AFRelationship). */
export type AttachmentRelationship = 'Source' | 'Data' | 'Alternative' | 'Supplement' | 'Unspecified';

export interface TemplateAttachment {
  id: string;
  /** File name, with bindings. */
  name: TemplateText;
  /** MIME type, e.g. application/xml; with bindings. */
  mimeType: TemplateText;
  description?: TemplateText;
  /** Default Unspecified. */
  relationship?: AttachmentRelationship;
  /** The file's bytes in Base64, normally one binding such as "{{ files.terms }}"; or `asset`. */
  content?: TemplateText;
  /** The name of an organisation asset whose bytes are attached (with bindings), instead of `content`. */
  asset?: TemplateText;
  /** When true an empty content leaves the attachment out; otherwise it is an error. Default false. */
  optional?: boolean;
}

export interface Template {
  $schema?: string;
  dsl?: 1;
  name?: string;
  /** PDF title; may contain bindings; default the document name. */
  title?: TemplateText;
  /** BCP 47 locale for formatting when the language does not name one; default "en-US". */
  locale?: string;
  /** IANA time zone for dates; default "UTC". */
  timeZone?: string;
  /** ISO 4217 code used by `currency` without an argument. */
  currency?: string;
  /** Base direction of the document; default `auto`: right to left when the render's language is written so (ar, he, fa, ur…). */
  direction?: Direction;
  /** Tagged (accessible) PDF; default false (faster print). */
  tagged?: boolean;
  /** PDF outline (bookmarks) from the headings, nested by level; default false. Written by the render service: an untagged PDF stays untagged. */
  outline?: boolean;
  /** Archival PDF: the PDF/A level the output claims and is checked against; default none (a plain PDF). */
  pdfA?: PdfALevel;
  /** Accessible PDF: the PDF/UA part the output claims and is checked against; implies `tagged`; default none. */
  pdfUA?: PdfUALevel;
  /** Document metadata (PDF Info dictionary and XMP), with bindings. */
  metadata?: DocumentMetadata;
  /** Files embedded in the PDF, from the data or the organisation's assets (PDF/A-3 or no PDF/A level). */
  attachments?: TemplateAttachment[];
  page?: PageSetup;
  defaultStyle?: StyleProperties;
  styles?: Record<string, StyleProperties>;
  /** JSON Schema the document data must satisfy (checked with ajv). */
  dataSchema?: Record<string, unknown> | boolean;
  /** The document is an e-invoice: its profile and the EN 16931 model mapped from the data (docs/template-dsl.md). */
  eInvoice?: TemplateEInvoice;
  body: TemplateElement[];
}
