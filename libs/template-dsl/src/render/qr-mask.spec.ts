import bwipjs from 'bwip-js';
import { codeSvg } from './codes';
import { withBestMask } from './qr-mask';

type QrSymbol = { pixs: number[]; pixx: number };
const LEVELS = ['L', 'M', 'Q', 'H'] as const;

function draw(text: string, eclevel: string, mask?: number): QrSymbol {
  const options = { bcid: 'qrcode', text, eclevel, ...(mask === undefined ? {} : { mask }) } as bwipjs.RawOptions;
  return (bwipjs.raw(options) as QrSymbol[])[0];
}

/** Deterministic text of `length` characters: digits, letters, punctuation, line breaks and non-ASCII. */
function text(length: number, seed: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 \n-./:€ü';
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

describe('QR mask selection outside bwip-js (issue 23 item 3: CPU per document)', () => {
  // lengths that give versions 1 to 24 between the levels, and 28 and 37: alignment-pattern layouts with 0 and 2 to 7
  // centres per side and the version information (7 and up); short values also hit BWIPP raising the level asked for
  const cases = [
    ...LEVELS.flatMap((level, l) => [1, 17, 45, 100, 230, 480].map((length) => ({ level, length, seed: length * 7 + l }))),
    { level: 'L' as const, length: 1400, seed: 3 },
    { level: 'L' as const, length: 2300, seed: 5 },
  ];

  it.each(cases)('the printed symbol is the one bwip-js chooses by itself: level $level, $length characters', ({ level, length, seed }) => {
    const value = text(length, seed);
    const expected = draw(value, level);
    const maskOne = draw(value, level, 1);
    expect(maskOne.pixx).toBe(expected.pixx);
    expect(withBestMask(maskOne.pixs, maskOne.pixx)).toEqual(expected.pixs);
  });

  it.each([
    ['digits', '12345678901234567890'],
    ['the invoice payment code', 'BCD\n002\n1\nSCT\nGENODEF1XXX\nMusterfirma GmbH\nDE89370400440532013000\nEUR1234.56\n\nRE-2026-00042'],
    ['one character', 'A'],
    ['non-ASCII', 'Grüße € 42'],
  ])('every mask can win: %s at each level matches bwip-js', (_name, value) => {
    for (const level of LEVELS) {
      const maskOne = draw(value, level, 1);
      expect(withBestMask(maskOne.pixs, maskOne.pixx)).toEqual(draw(value, level).pixs);
    }
  });

  it('codeSvg draws from the selected symbol: the same path as from bwip-js choosing the mask itself', () => {
    const value = 'https://example.com/invoice/RE-2026-00042';
    const outcome = codeSvg('qr', value, { showText: false, errorCorrection: 'Q' });
    if (!outcome.ok) throw new Error(outcome.reason);
    const expected = draw(value, 'Q');
    const size = expected.pixx;
    let path = '';
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; ) {
        if (!expected.pixs[y * size + x]) {
          x++;
          continue;
        }
        const start = x;
        while (x < size && expected.pixs[y * size + x]) x++;
        path += `M${start + 4} ${y + 4}h${x - start}v1h-${x - start}z`;
      }
    }
    expect(outcome.svg).toContain(`<path d="${path}"/>`);
  });

  it('refuses a symbol that was not drawn with mask 1', () => {
    const other = draw('mask two', 'M', 2);
    expect(() => withBestMask(other.pixs, other.pixx)).toThrow(/mask 1/);
  });
});
