import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import { fromString, rawSplit } from 'qrcode/lib/core/segments';
import { getBestVersionForData } from 'qrcode/lib/core/version';

/**
 * Every code is drawn as inline SVG in the current text colour, with the quiet zone its standard asks for: QR codes
 * by `qrcode`, DataMatrix, PDF417, Aztec and the linear barcodes by bwip-js (docs/decisions/0013-output-features.md,
 * 0019-qr-codes-by-qrcode.md).
 */

export type CodeOutcome = { ok: true; svg: string } | { ok: false; reason: string };

export const CODE_FORMATS = [
  'qr',
  'datamatrix',
  'pdf417',
  'aztec',
  'code128',
  'gs1-128',
  'code39',
  'ean8',
  'ean13',
  'upca',
  'upce',
  'itf14',
] as const;
export type CodeFormat = (typeof CODE_FORMATS)[number];

interface FormatRule {
  bcid: string;
  name: string;
  twoDimensional: boolean;
  /** Quiet zone in modules: left/right and top/bottom. */
  quiet: { left: number; right: number; vertical: number };
  /** What a value must look like, checked before encoding (bwip-js checks the rest, e.g. check digits). */
  check?: (value: string) => string | null;
}

/** Two-dimensional codes hold bytes; none holds more than a QR code's 2,953. Longer values are refused before encoding. */
const MAX_2D_BYTES = 2953;
/** Far beyond any printable linear barcode; longer values are refused before encoding. */
const MAX_LINEAR_LENGTH = 256;

function digits(count: readonly number[], name: string): (value: string) => string | null {
  return (value) => (/^\d+$/.test(value) && count.includes(value.length) ? null : `${name} holds ${count.join(' or ')} digits`);
}

function printableAscii(name: string): (value: string) => string | null {
  return (value) => {
    const bad = /[^\x20-\x7e]/.exec(value);
    if (!bad) return null;
    const c = bad[0];
    const shown = /[\x00-\x1f\x7f]/.test(c) ? `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
    return `${name} holds printable ASCII characters only; ${shown} at position ${bad.index + 1} is not one`;
  };
}

/** GS1 mod-10 check digit over the first n-1 digits (GTIN, ITF-14). */
function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

const RULES: Record<CodeFormat, FormatRule> = {
  qr: { bcid: 'qrcode', name: 'QR code', twoDimensional: true, quiet: { left: 4, right: 4, vertical: 4 } },
  datamatrix: { bcid: 'datamatrix', name: 'DataMatrix', twoDimensional: true, quiet: { left: 1, right: 1, vertical: 1 } },
  pdf417: { bcid: 'pdf417', name: 'PDF417', twoDimensional: true, quiet: { left: 2, right: 2, vertical: 2 } },
  // ISO/IEC 24778 needs no quiet zone around Aztec; one module keeps it apart from a coloured background
  aztec: { bcid: 'azteccode', name: 'Aztec', twoDimensional: true, quiet: { left: 1, right: 1, vertical: 1 } },
  code128: { bcid: 'code128', name: 'Code 128', twoDimensional: false, quiet: { left: 10, right: 10, vertical: 0 }, check: printableAscii('Code 128') },
  'gs1-128': {
    bcid: 'gs1-128',
    name: 'GS1-128',
    twoDimensional: false,
    quiet: { left: 10, right: 10, vertical: 0 },
    check: (value) => printableAscii('GS1-128')(value) ?? (value.startsWith('(') ? null : 'GS1-128 holds application identifiers in brackets, e.g. "(01)09521234543213(10)ABC"'),
  },
  code39: { bcid: 'code39', name: 'Code 39', twoDimensional: false, quiet: { left: 10, right: 10, vertical: 0 } },
  ean8: { bcid: 'ean8', name: 'EAN-8', twoDimensional: false, quiet: { left: 7, right: 7, vertical: 0 }, check: digits([7, 8], 'EAN-8') },
  ean13: { bcid: 'ean13', name: 'EAN-13', twoDimensional: false, quiet: { left: 11, right: 7, vertical: 0 }, check: digits([12, 13], 'EAN-13') },
  upca: { bcid: 'upca', name: 'UPC-A', twoDimensional: false, quiet: { left: 9, right: 9, vertical: 0 }, check: digits([11, 12], 'UPC-A') },
  upce: { bcid: 'upce', name: 'UPC-E', twoDimensional: false, quiet: { left: 9, right: 7, vertical: 0 }, check: digits([7, 8], 'UPC-E') },
  itf14: {
    bcid: 'itf14',
    name: 'ITF-14',
    twoDimensional: false,
    quiet: { left: 10, right: 10, vertical: 0 },
    check: (value) => {
      const wrong = digits([13, 14], 'ITF-14')(value);
      if (wrong) return wrong;
      if (value.length === 14 && gs1CheckDigit(value.slice(0, 13)) !== Number(value[13])) return `the check digit should be ${gs1CheckDigit(value.slice(0, 13))}`;
      return null;
    },
  },
};

export function codeFormatName(format: CodeFormat): string {
  return RULES[format].name;
}

export function isTwoDimensional(format: CodeFormat): boolean {
  return RULES[format].twoDimensional;
}

/** What bwip-js draws: one svg root holding only paths. Anything else is refused. */
const BWIP_OUTPUT = /^<svg viewBox="([0-9. ]+)" xmlns="http:\/\/www\.w3\.org\/2000\/svg">\s*((?:<path [^<>]*\/>\s*)*)<\/svg>\s*$/;

export interface CodeOptions {
  /** Human-readable text under a linear code. */
  showText: boolean;
  /** QR error correction level. */
  errorCorrection?: 'L' | 'M' | 'Q' | 'H';
}

/** Draws `value` as a code of `format`, or says why the value cannot be encoded. */
export function codeSvg(format: CodeFormat, value: string, options: CodeOptions): CodeOutcome {
  const rule = RULES[format];
  if (rule.twoDimensional) {
    // 2D codes hold bytes: bwip-js encodes the text as UTF-8 (what scanners expect without an ECI marker)
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > MAX_2D_BYTES) return { ok: false, reason: `it is ${bytes} bytes long (UTF-8) and no ${rule.name} holds more than ${MAX_2D_BYTES}` };
  } else {
    if (value.length > MAX_LINEAR_LENGTH) return { ok: false, reason: `it is longer than ${MAX_LINEAR_LENGTH} characters` };
    const wrong = rule.check?.(value);
    if (wrong) return { ok: false, reason: wrong };
  }
  try {
    return rule.twoDimensional ? matrixSvg(format, rule, value, options) : linearSvg(format, rule, value, options);
  } catch (error) {
    // bwip-js' messages start with the BWIPP routine ("bwipp.ean13badCheckDigit#6915: …")
    return { ok: false, reason: error instanceof Error ? error.message.replace(/^bwipp\.\w+#\d+:\s*/, '') : String(error) };
  }
}

/** A module matrix: `pixs` row-major, one entry per module (1 dark), `pixx` wide; a PDF417 row is several entries high. */
type Matrix = { pixs: ArrayLike<number>; pixx: number; pixy: number };

/** A UTF-16 surrogate without its other half: it has no UTF-8 form (it becomes U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** QR error correction levels, lowest first. */
const QR_LEVELS = ['L', 'M', 'Q', 'H'] as const;

/**
 * A QR code by `qrcode` (decision 0019): the shortest segmentation into numeric, alphanumeric and byte (UTF-8)
 * segments, the smallest version that holds it at the level asked for, the highest level that still fits that
 * version (as BWIPP did: more error correction at no cost in size), the mask of lowest
 * ISO/IEC 18004 penalty. These are `qrcode.create`'s own steps, with the level raised between them. No Kanji mode:
 * the text is UTF-8 throughout, as scanners expect it without an ECI marker.
 */
function qrMatrix(value: string, options: CodeOptions): Matrix {
  const asked = options.errorCorrection ?? 'M';
  const text = value.replace(LONE_SURROGATE, '\uFFFD');
  const segments = fromString(text, getBestVersionForData(rawSplit(text), asked) ?? 40);
  const version = getBestVersionForData(segments, asked);
  if (version === undefined) throw new Error(`it does not fit in a QR code at error correction level ${asked}`);
  const level = QR_LEVELS.findLast((l) => getBestVersionForData(segments, l) === version) ?? asked;
  const { modules } = QRCode.create(segments, { version, errorCorrectionLevel: level });
  return { pixs: modules.data, pixx: modules.size, pixy: modules.size };
}

/** The other 2D codes from bwip-js' module matrix (`raw`: one pixel per module, PDF417 rows as several pixels). */
function bwipMatrix(rule: FormatRule, value: string): Matrix | undefined {
  return (bwipjs.raw({ bcid: rule.bcid, text: value }) as Matrix[])[0];
}

/**
 * A 2D code drawn from its module matrix as one path of row runs with the quiet zone around it (bwip-js' own SVG
 * outline tracing took more time than the encoding).
 */
function matrixSvg(format: CodeFormat, rule: FormatRule, value: string, options: CodeOptions): CodeOutcome {
  const symbol = format === 'qr' ? qrMatrix(value, options) : bwipMatrix(rule, value);
  // pixs holds one entry per module of each row; a PDF417 row is several modules high (pixy / rows)
  const rows = symbol ? symbol.pixs.length / symbol.pixx : 0;
  const rowHeight = symbol ? symbol.pixy / rows : 0;
  if (!symbol || !Number.isInteger(rows) || !Number.isInteger(rowHeight) || rows === 0) return { ok: false, reason: 'the barcode generator produced unexpected output' };
  const { pixs, pixx, pixy } = symbol;
  const q = rule.quiet;
  let path = '';
  for (let y = 0; y < rows; y++) {
    let x = 0;
    while (x < pixx) {
      if (!pixs[y * pixx + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < pixx && pixs[y * pixx + x]) x++;
      path += `M${start + q.left} ${y * rowHeight + q.vertical}h${x - start}v${rowHeight}h-${x - start}z`;
    }
  }
  const width = pixx + q.left + q.right;
  const height = pixy + 2 * q.vertical;
  return {
    ok: true,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" height="100%" preserveAspectRatio="xMidYMid meet" fill="currentColor"><path d="${path}"/></svg>`,
  };
}

/** A linear code as bwip-js draws it (bars and the human-readable text as paths), with its quiet zone. */
function linearSvg(format: CodeFormat, rule: FormatRule, value: string, options: CodeOptions): CodeOutcome {
  // a linear module is one unit wide at scale 1
  const bwipOptions: bwipjs.RenderOptions = {
    bcid: rule.bcid,
    text: value,
    scale: 1,
    height: 12,
    includetext: options.showText,
    paddingleft: rule.quiet.left,
    paddingright: rule.quiet.right,
  };
  if (format === 'code128' || format === 'gs1-128' || format === 'code39' || format === 'itf14') bwipOptions.textxalign = 'center';
  const m = BWIP_OUTPUT.exec(bwipjs.toSVG(bwipOptions));
  if (!m) return { ok: false, reason: 'the barcode generator produced unexpected output' };
  const paths = m[2].replace(/#000000/g, 'currentColor');
  // no shape-rendering="crispEdges": Chromium prints bars of one unit as hairlines with it (they did not scan)
  return {
    ok: true,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${m[1]}" width="100%" height="100%" preserveAspectRatio="xMinYMid meet" fill="currentColor">${paths}</svg>`,
  };
}
