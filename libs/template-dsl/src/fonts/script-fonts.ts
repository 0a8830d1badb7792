import path from 'node:path';

/**
 * The fonts of other scripts the service owns (issue 33 item 2): Noto families from Debian's `fonts-noto-core` and
 * `fonts-noto-cjk`, installed in the system font directory. The render service's Chromium sees these files and no other
 * system font (a generated fontconfig configuration, decision 0030): it draws from them what a document's own faces
 * (the `@fontsource` built-ins, custom fonts) lack, chosen per character by fontconfig, the CJK variant by the
 * document's language. The glyph coverage check (glyph-coverage.ts) reads their character maps.
 */
export interface ScriptFont {
  family: string;
  /** What the family is for, as the docs list it. */
  scripts: string;
  /** The Debian package that installs the files. */
  package: string;
  /** Files under SCRIPT_FONT_ROOT, by weight (upright), and the italic files where there are any. */
  files: Record<number, string>;
  italicFiles?: Record<number, string>;
}

/** Where Debian installs fonts. */
export const SCRIPT_FONT_ROOT = '/usr/share/fonts';

/** A Noto Sans family of `fonts-noto-core`, upright regular and bold, named as Debian installs it (NotoSans<Script>-<Weight>.ttf). */
function notoCore(script: string, scripts: string): ScriptFont {
  const file = (weight: string): string => `truetype/noto/NotoSans${script}-${weight}.ttf`;
  return { family: `Noto Sans ${script}`, scripts, package: 'fonts-noto-core', files: { 400: file('Regular'), 700: file('Bold') } };
}

export const SCRIPT_FONTS: readonly ScriptFont[] = Object.freeze([
  {
    family: 'Noto Sans',
    scripts: 'Latin, Greek, Cyrillic',
    package: 'fonts-noto-core',
    files: { 400: 'truetype/noto/NotoSans-Regular.ttf', 700: 'truetype/noto/NotoSans-Bold.ttf' },
    italicFiles: { 400: 'truetype/noto/NotoSans-Italic.ttf', 700: 'truetype/noto/NotoSans-BoldItalic.ttf' },
  },
  notoCore('Arabic', 'Arabic (Arabic, Persian, Urdu)'),
  notoCore('Hebrew', 'Hebrew'),
  notoCore('Devanagari', 'Devanagari (Hindi, Marathi, Nepali)'),
  notoCore('Thai', 'Thai'),
  {
    family: 'Noto Sans CJK',
    scripts: 'Chinese simplified (SC) and traditional (TC, HK), Japanese (JP), Korean (KR)',
    package: 'fonts-noto-cjk',
    files: { 400: 'opentype/noto/NotoSansCJK-Regular.ttc', 700: 'opentype/noto/NotoSansCJK-Bold.ttc' },
  },
] satisfies ScriptFont[]);

/** The files of the script fonts (or of one), absolute. */
export function scriptFontFiles(font?: ScriptFont): string[] {
  return (font ? [font] : SCRIPT_FONTS)
    .flatMap((f) => [...Object.values(f.files), ...Object.values(f.italicFiles ?? {})])
    .map((file) => path.join(SCRIPT_FONT_ROOT, file));
}

/** The weights the script fonts have (each family has the same two). */
export const SCRIPT_FONT_WEIGHTS: readonly number[] = Object.freeze([400, 700]);
