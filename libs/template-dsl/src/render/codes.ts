import bwipjs from 'bwip-js';
import QRCode from 'qrcode';

/** QR codes (qrcode) and barcodes (bwip-js) as inline SVG in the current text colour. */

export type CodeOutcome = { ok: true; svg: string } | { ok: false; reason: string };

const QUIET_ZONE = 4;
/** No QR code holds more than 7,089 characters (numeric, level L); longer values are refused before encoding. */
const QR_MAX_LENGTH = 7089;
/** Far beyond any printable linear barcode; longer values are refused before encoding. */
const BARCODE_MAX_LENGTH = 256;

export function qrCodeSvg(value: string, errorCorrection: 'L' | 'M' | 'Q' | 'H'): CodeOutcome {
  if (value.length > QR_MAX_LENGTH) return { ok: false, reason: `a QR code holds at most ${QR_MAX_LENGTH} characters` };
  let modules: { size: number; get(row: number, column: number): number | boolean };
  try {
    modules = QRCode.create(value, { errorCorrectionLevel: errorCorrection }).modules;
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const n = modules.size;
  let path = '';
  for (let y = 0; y < n; y++) {
    let x = 0;
    while (x < n) {
      if (!modules.get(y, x)) {
        x++;
        continue;
      }
      const start = x;
      while (x < n && modules.get(y, x)) x++;
      path += `M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`;
    }
  }
  const size = n + 2 * QUIET_ZONE;
  return {
    ok: true,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="100%" height="100%" shape-rendering="crispEdges"><path fill="currentColor" d="${path}"/></svg>`,
  };
}

/** What bwip-js draws: one svg root holding only paths. Anything else is refused. */
const BWIP_OUTPUT = /^<svg viewBox="([0-9. ]+)" xmlns="http:\/\/www\.w3\.org\/2000\/svg">\s*((?:<path [^<>]*\/>\s*)*)<\/svg>\s*$/;

export function barcodeSvg(format: 'code128' | 'ean13', value: string, showText: boolean): CodeOutcome {
  if (value.length > BARCODE_MAX_LENGTH) return { ok: false, reason: `the value is longer than ${BARCODE_MAX_LENGTH} characters` };
  let svg: string;
  try {
    svg = bwipjs.toSVG({ bcid: format, text: value, includetext: showText, textxalign: 'center', height: 12, scale: 2 });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^bwipp\.\w+#\d+:\s*/, '') : String(error);
    return { ok: false, reason: message };
  }
  const m = BWIP_OUTPUT.exec(svg);
  if (!m) return { ok: false, reason: 'the barcode generator produced unexpected output' };
  const paths = m[2].replace(/#000000/g, 'currentColor');
  return {
    ok: true,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${m[1]}" width="100%" height="100%" preserveAspectRatio="xMinYMid meet">${paths}</svg>`,
  };
}
