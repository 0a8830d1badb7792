/** The part of `subset-font` (harfbuzzjs) that band-face-subsets.ts uses (decision 0020, "Band faces subset"). */
declare module 'subset-font' {
  /**
   * The font reduced to the glyphs of `text`'s characters and what the font's layout features reach from them
   * (harfbuzz's closure over GSUB/GPOS), in `targetFormat`.
   */
  function subsetFont(font: Buffer, text: string, options?: { targetFormat?: 'truetype' | 'woff' | 'woff2' | 'sfnt' }): Promise<Buffer>;
  export = subsetFont;
}
