import { DocumentCaps } from '@docrender/contracts';
import { CodeFormat, codeFormatName } from './codes';

/**
 * What one document has spent of its caps (DocumentCaps, issue 31 item 2), asked before each costly step: `admit…`
 * returns null and counts the step in, or the reason it is refused (counting nothing), for the caller to report naming
 * the element and to leave the element out. Compiling and validating a document ask the same questions in the same
 * order, so validate reports what a render would.
 */
export class DocumentSpend {
  private codes = 0;
  private codeBytes = 0;
  private charts = 0;
  private chartPoints = 0;
  private markdownChars = 0;
  private markdownLines = 0;
  private imagePixels = 0;
  /** Images counted, by data URI: Chromium decodes an image used many times once. */
  private readonly images = new Set<string>();

  /** A code of `format` holding `value`. */
  admitCode(format: CodeFormat, value: string): string | null {
    if (this.codes >= DocumentCaps.maxCodes) return `the document already has ${DocumentCaps.maxCodes} codes, as many as a document may have`;
    const bytes = Buffer.byteLength(value, 'utf8');
    const weight = codeByteWeight(format);
    const counted = bytes * weight;
    if (this.codeBytes + counted > DocumentCaps.maxCodeBytes) {
      const as = weight === 1 ? '' : ` (${codeFormatName(format)}: a byte counts ${weight})`;
      return `its ${bytes} bytes${as} would take the document's codes past ${DocumentCaps.maxCodeBytes.toLocaleString('en-US')} bytes (${this.codeBytes.toLocaleString('en-US')} so far)`;
    }
    this.codes++;
    this.codeBytes += counted;
    return null;
  }

  /** A chart of `items` items and `series` series drawn; a pie (one series) counts DocumentCaps.pieSliceWeight points a slice. */
  admitChart(items: number, series: number, pie: boolean): string | null {
    if (this.charts >= DocumentCaps.maxCharts) return `the document already has ${DocumentCaps.maxCharts} charts, as many as a document may have`;
    const points = pie ? items * DocumentCaps.pieSliceWeight : items * series;
    if (this.chartPoints + points > DocumentCaps.maxChartPoints) {
      const made = pie ? `${items} slices × ${DocumentCaps.pieSliceWeight}` : `${items} items × ${series} series`;
      return `its ${points.toLocaleString('en-US')} points (${made}) would take the document's charts past ${DocumentCaps.maxChartPoints.toLocaleString('en-US')} points (${this.chartPoints.toLocaleString('en-US')} so far)`;
    }
    this.charts++;
    this.chartPoints += points;
    return null;
  }

  /** A rich text of `chars` characters of Markdown in `lines` lines, bindings filled in. */
  admitMarkdown(chars: number, lines: number): string | null {
    if (chars > DocumentCaps.maxMarkdownChars) {
      return `its Markdown is ${chars.toLocaleString('en-US')} characters long with its values; a rich text may have ${DocumentCaps.maxMarkdownChars.toLocaleString('en-US')}`;
    }
    if (this.markdownChars + chars > DocumentCaps.maxMarkdownCharsPerDocument) {
      return `its ${chars.toLocaleString('en-US')} characters would take the document's Markdown past ${DocumentCaps.maxMarkdownCharsPerDocument.toLocaleString('en-US')} characters (${this.markdownChars.toLocaleString('en-US')} so far)`;
    }
    if (this.markdownLines + lines > DocumentCaps.maxMarkdownLinesPerDocument) {
      return `its ${lines.toLocaleString('en-US')} lines would take the document's Markdown past ${DocumentCaps.maxMarkdownLinesPerDocument.toLocaleString('en-US')} lines (${this.markdownLines.toLocaleString('en-US')} so far)`;
    }
    this.markdownChars += chars;
    this.markdownLines += lines;
    return null;
  }

  /** An image (its data URI) of `width` × `height` pixels as its header declares them; one counted already is admitted. */
  admitImage(dataUri: string, width: number, height: number): string | null {
    if (this.images.has(dataUri)) return null;
    const pixels = width * height;
    const size = `${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels`;
    if (pixels > DocumentCaps.maxImagePixels) return `it is ${size} (${megapixels(pixels)}); an image may have ${megapixels(DocumentCaps.maxImagePixels)}`;
    if (this.imagePixels + pixels > DocumentCaps.maxImagePixelsPerDocument) {
      return `its ${size} would take the document's images past ${megapixels(DocumentCaps.maxImagePixelsPerDocument)} (${megapixels(this.imagePixels)} so far)`;
    }
    this.imagePixels += pixels;
    this.images.add(dataUri);
    return null;
  }
}

/** What one byte of a code of `format` counts (DocumentCaps.codeByteWeight). */
export function codeByteWeight(format: CodeFormat): number {
  const weights = DocumentCaps.codeByteWeight;
  return format === 'qr' || format === 'pdf417' || format === 'datamatrix' || format === 'aztec' ? weights[format] : weights.linear;
}

function megapixels(pixels: number): string {
  return `${Math.round(pixels / 100_000) / 10} megapixels`;
}

/** Lines of Markdown text: one more than its line breaks. */
export function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * A run of characters no line may break inside: not a breaking space (a no-break space joins), a hyphen, a zero-width
 * space, nor a letter of a script whose lines break between letters (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar).
 */
const UNBROKEN_RUN = new RegExp(
  `[^\\t\\n\\v\\f\\r \\u1680\\u2000-\\u2006\\u2008-\\u200B\\u2028\\u2029\\u205F\\u3000\\-\\u00AD\\u2010\\u2012-\\u2014` +
    `\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}]{${DocumentCaps.maxUnbrokenChars + 1},}`,
  'gu',
);

/**
 * `text` with every run longer than DocumentCaps.maxUnbrokenChars that offers no place to break a line cut to the cap
 * (with an ellipsis), and the length of the longest such run; null when there is none. Linear in the text.
 */
export function cutUnbrokenRuns(text: string): { text: string; longest: number } | null {
  if (text.length <= DocumentCaps.maxUnbrokenChars) return null;
  let longest = 0;
  const cut = text.replace(UNBROKEN_RUN, (run) => {
    longest = Math.max(longest, run.length);
    return cutText(run, DocumentCaps.maxUnbrokenChars) ?? run;
  });
  return longest === 0 ? null : { text: cut, longest };
}

/** A text cut to `max` characters (whole code points) with an ellipsis; null when it is not longer. */
export function cutText(text: string, max: number): string | null {
  if (text.length <= max) return null;
  return `${Array.from(text.slice(0, max + 1)).slice(0, max - 1).join('')}…`;
}
