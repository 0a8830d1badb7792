import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { withTempFile } from '@docrender/testing';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { decodePng } from './png-pixels';

const run = promisify(execFile);

/** `use` on the picture written to a temporary file, removed afterwards. */
function withPngFile<T>(png: Buffer, use: (file: string) => Promise<T>): Promise<T> {
  return withTempFile(png, 'code.png', use);
}

/**
 * What zbarimg (Debian's zbar-tools) reads in a picture: `TYPE:data` per symbol, data as raw bytes decoded as UTF-8.
 * UPC-A and UPC-E are switched on (zbar reports them as EAN-13 otherwise).
 */
export function zbarRead(png: Buffer): Promise<string[]> {
  return withPngFile(png, async (file) => {
    try {
      const { stdout } = await run('zbarimg', ['--quiet', '-Supca.enable', '-Supce.enable', '-Si25.enable', '--set', 'ean8.enable', file], {
        encoding: 'buffer',
      });
      return (stdout as unknown as Buffer).toString('utf8').split('\n').filter((line) => line !== '');
    } catch (error) {
      // exit status 4: no symbol found
      if ((error as { code?: number }).code === 4) return [];
      throw error;
    }
  });
}

/** What dmtxread (Debian's dmtx-utils) reads: the DataMatrix's bytes, decoded as UTF-8. */
export function dmtxRead(png: Buffer): Promise<string> {
  return withPngFile(png, async (file) => {
    const { stdout } = await run('dmtxread', ['--stop-after=1', '--milliseconds=20000', file], { encoding: 'buffer' });
    return (stdout as unknown as Buffer).toString('utf8');
  });
}

/**
 * The dark part of a page, with a white margin: ZXing's Aztec detector looks for the bullseye from the middle of
 * the picture, so a code away from the page centre must be cut out first.
 */
function darkRegion(png: Buffer, margin: number): { width: number; height: number; luminance: Uint8ClampedArray } {
  const { width, height, rgb } = decodePng(png);
  const gray = new Uint8ClampedArray(width * height);
  for (let i = 0; i < width * height; i++) gray[i] = (rgb[i * 3] * 299 + rgb[i * 3 + 1] * 587 + rgb[i * 3 + 2] * 114) / 1000;
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (gray[y * width + x] >= 128) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  if (right < 0) return { width, height, luminance: gray };
  const w = right - left + 1 + 2 * margin;
  const h = bottom - top + 1 + 2 * margin;
  const luminance = new Uint8ClampedArray(w * h).fill(255);
  for (let y = top; y <= bottom; y++) luminance.set(gray.subarray(y * width + left, y * width + right + 1), (y - top + margin) * w + margin);
  return { width: w, height: h, luminance };
}

/** ZXing (@zxing/library) for the symbologies zbar cannot read (PDF417, Aztec): the decoded text of the page's code. */
export function zxingRead(png: Buffer, format: 'pdf417' | 'aztec'): string {
  const { width, height, luminance } = darkRegion(png, 20);
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format === 'pdf417' ? BarcodeFormat.PDF_417 : BarcodeFormat.AZTEC]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  const source = new RGBLuminanceSource(luminance, width, height);
  return new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
}
