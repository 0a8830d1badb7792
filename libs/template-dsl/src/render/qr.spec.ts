import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from '@zxing/library';
import bwipjs from 'bwip-js';
import fc from 'fast-check';
import { codeSvg } from './codes';

type Level = 'L' | 'M' | 'Q' | 'H';
const LEVELS: readonly Level[] = ['L', 'M', 'Q', 'H'];
const INVOICE_PAYMENT = 'BCD\n002\n1\nSCT\nGENODEF1XXX\nMusterfirma GmbH\nDE89370400440532013000\nEUR1234.56\n\nRE-2026-00042';

/** The modules of a QR code as codeSvg draws it (one path of row runs, 4 modules of quiet zone), read back from the SVG. */
function modulesOf(svg: string): { size: number; dark: Uint8Array } {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const size = side - 8;
  const dark = new Uint8Array(size * size);
  for (const [, x, y, w] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    dark.fill(1, (Number(y) - 4) * size + Number(x) - 4, (Number(y) - 4) * size + Number(x) - 4 + Number(w));
  }
  return { size, dark };
}

function draw(value: string, level: Level): string {
  const outcome = codeSvg('qr', value, { showText: false, errorCorrection: level });
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.svg;
}

/** What ZXing reads from the symbol (rasterised at 2 pixels per module with its quiet zone), the bytes taken as UTF-8. */
function read(svg: string): string {
  const { size, dark } = modulesOf(svg);
  const scale = 2;
  const side = (size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side).fill(255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!dark[y * size + x]) continue;
      for (let dy = 0; dy < scale; dy++) pixels.fill(0, ((y + 4) * scale + dy) * side + (x + 4) * scale, ((y + 4) * scale + dy) * side + (x + 5) * scale);
    }
  }
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.PURE_BARCODE, true],
    [DecodeHintType.CHARACTER_SET, 'UTF-8'],
  ]);
  return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, side, side))), hints).getText();
}

/** The error correction level written in a symbol's format information (first copy, ISO/IEC 18004 7.9), `dark(row, column)`. */
function formatLevel(dark: (i: number, j: number) => number): Level {
  let bits = 0;
  for (let bit = 0; bit < 15; bit++) {
    const [i, j] = bit <= 5 ? [bit, 8] : bit === 6 ? [7, 8] : bit === 7 ? [8, 8] : bit === 8 ? [8, 7] : [8, 14 - bit];
    bits |= dark(i, j) << bit;
  }
  return (['M', 'L', 'H', 'Q'] as const)[(bits ^ 0x5412) >> 13];
}

function levelOf(svg: string): Level {
  const { size, dark } = modulesOf(svg);
  return formatLevel((i, j) => dark[i * size + j]);
}

/** The symbol bwip-js (BWIPP), which drew QR codes before decision 0019, draws for the value. */
function bwipSymbol(value: string, level: Level): { pixs: number[]; pixx: number } {
  return (bwipjs.raw({ bcid: 'qrcode', text: value, eclevel: level } as bwipjs.RawOptions) as { pixs: number[]; pixx: number }[])[0];
}

function bwipVersion(value: string, level: Level): number {
  return (bwipSymbol(value, level).pixx - 17) / 4;
}

/** The level bwip-js printed (BWIPP raised the level asked for when a higher one fitted the same version). */
function bwipLevel(value: string, level: Level): Level {
  const { pixs, pixx } = bwipSymbol(value, level);
  return formatLevel((i, j) => pixs[i * pixx + j]);
}

/** Template values: digits (numeric segments), upper-case text (alphanumeric), mixed text, non-ASCII and astral characters. */
const values = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 300 }),
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:'), minLength: 1, maxLength: 300 }),
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \n-./:€üß'), minLength: 1, maxLength: 400 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 120 }),
);

describe('QR codes by qrcode (decision 0019; issue 23: CPU per document)', () => {
  it('every value a template produces decodes back to its text (ZXing, UTF-8) at every level', () => {
    fc.assert(
      fc.property(values, fc.constantFrom(...LEVELS), (value, level) => {
        expect(read(draw(value, level))).toBe(value);
      }),
      { numRuns: 400 },
    );
  });

  it('a symbol is never larger than the one bwip-js drew for the same value and level', () => {
    fc.assert(
      fc.property(values, fc.constantFrom(...LEVELS), (value, level) => {
        expect(modulesOf(draw(value, level)).size).toBeLessThanOrEqual(17 + 4 * bwipVersion(value, level));
      }),
      { numRuns: 300 },
    );
  });

  it('the level printed is the highest that fits the smallest symbol for the level asked for: never lower than asked, never lower than bwip-js printed', () => {
    const rank = (level: Level): number => LEVELS.indexOf(level);
    fc.assert(
      fc.property(values, fc.constantFrom(...LEVELS), (value, level) => {
        const svg = draw(value, level);
        const printed = levelOf(svg);
        expect(rank(printed)).toBeGreaterThanOrEqual(Math.max(rank(level), rank(bwipLevel(value, level))));
        const higher = LEVELS[rank(printed) + 1];
        if (higher) expect(modulesOf(draw(value, higher)).size).toBeGreaterThan(modulesOf(svg).size);
      }),
      { numRuns: 200 },
    );
    // "A" fits version 1 at H, whatever level is asked for
    for (const level of LEVELS) expect(levelOf(draw('A', level))).toBe('H');
  });

  it('the invoice payment code (EPC) decodes to its payload at every level', () => {
    for (const level of LEVELS) expect(read(draw(INVOICE_PAYMENT, level))).toBe(INVOICE_PAYMENT);
  });

  it('a lone surrogate is written as U+FFFD, as any UTF-8 encoding of the text writes it', () => {
    expect(read(draw('a\uD800b\uDC00', 'M'))).toBe('a\uFFFDb\uFFFD');
  });

  it('a value beyond the largest symbol at the level asked for is refused with the level named', () => {
    expect(codeSvg('qr', 'x'.repeat(1300), { showText: false, errorCorrection: 'H' })).toEqual({ ok: false, reason: 'it does not fit in a QR code at error correction level H' });
    expect(codeSvg('qr', 'x'.repeat(1300), { showText: false, errorCorrection: 'L' }).ok).toBe(true);
  });
});
