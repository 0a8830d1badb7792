import { readFileSync } from 'node:fs';
import path from 'node:path';
import { characterSetOfData, characterSetOfFile } from './character-map';

const inter = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');

describe('issue 33 item 3: the characters a font file can draw, from its cmap', () => {
  it('reads WOFF and WOFF2 wrappers of the same face to the same characters', () => {
    for (const subset of ['greek', 'cyrillic', 'latin']) {
      const woff = characterSetOfData(readFileSync(path.join(inter, `inter-${subset}-400-normal.woff`)));
      const woff2 = characterSetOfData(readFileSync(path.join(inter, `inter-${subset}-400-normal.woff2`)));
      expect(woff).not.toBeNull();
      expect(woff2).not.toBeNull();
      for (let c = 0; c < 0x10000; c++) if (woff?.has(c) !== woff2?.has(c)) throw new Error(`${subset}: U+${c.toString(16)} differs`);
    }
    const greek = characterSetOfFile(path.join(inter, 'inter-greek-400-normal.woff2'));
    expect(greek.has(0x03b1)).toBe(true);
    expect(greek.has(0xe000)).toBe(false);
  });

  it('reads TrueType fonts and every font of a collection (the built-in Noto files)', () => {
    const thai = characterSetOfFile('/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf');
    expect(thai.has(0x0e01)).toBe(true);
    expect(thai.has(0xac00)).toBe(false);
    const cjk = characterSetOfFile('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc');
    for (const c of [0xac00, 0x4e2d, 0x3042, 0x9ad4]) expect(cjk.has(c)).toBe(true);
    expect(cjk.has(0xe000)).toBe(false);
  });

  it('is null for data that is not a font', () => {
    expect(characterSetOfData(Buffer.from('not a font at all'))).toBeNull();
  });
});
