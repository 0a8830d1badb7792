import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Font families a template may use without uploading anything: bundled from the `@fontsource/*` npm
 * packages (SIL Open Font License) and embedded in the HTML as data URIs, so output is the same on every
 * machine; what they lack is drawn from the built-in script fonts (script-fonts.ts). Generic names map to them: sans-serif → Inter,
 * serif → Noto Serif, monospace → Roboto Mono.
 */
export const BUILTIN_FONT_FAMILIES: readonly string[] = Object.freeze(['Inter', 'Noto Serif', 'Roboto Mono']);

export const DEFAULT_FONT_FAMILY = 'Inter';

const PACKAGE_OF: Record<string, string> = {
  Inter: '@fontsource/inter',
  'Noto Serif': '@fontsource/noto-serif',
  'Roboto Mono': '@fontsource/roboto-mono',
};

const GENERIC: Record<string, string> = { 'sans-serif': 'Inter', serif: 'Noto Serif', monospace: 'Roboto Mono' };

export type FontStyle = 'normal' | 'italic';

export interface FontFaceRef {
  family: string;
  weight: number;
  style: FontStyle;
}

export interface CustomFontFile extends FontFaceRef {
  dataUri: string;
}

interface BuiltinFamily {
  family: string;
  packageDir: string;
  fileStem: string;
  weights: number[];
  styles: FontStyle[];
  /** Subset name → code point ranges, in the package's order. */
  subsets: { name: string; ranges: [number, number][]; unicodeRange: string }[];
}

const builtinFamilies = new Map<string, BuiltinFamily>();

function parseUnicodeRange(text: string): [number, number][] {
  return text.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    const start = parseInt(from, 16);
    return [start, to === undefined ? start : parseInt(to, 16)];
  });
}

function builtinFamily(family: string): BuiltinFamily {
  const cached = builtinFamilies.get(family);
  if (cached) return cached;
  const pkg = PACKAGE_OF[family];
  const packageDir = path.dirname(require.resolve(`${pkg}/package.json`));
  const metadata = JSON.parse(readFileSync(path.join(packageDir, 'metadata.json'), 'utf8')) as {
    id: string;
    weights: number[];
    styles: FontStyle[];
  };
  const unicode = JSON.parse(readFileSync(path.join(packageDir, 'unicode.json'), 'utf8')) as Record<string, string>;
  const entry: BuiltinFamily = {
    family,
    packageDir,
    fileStem: metadata.id,
    weights: [...metadata.weights].sort((a, b) => a - b),
    styles: metadata.styles,
    subsets: Object.entries(unicode).map(([name, range]) => ({ name, ranges: parseUnicodeRange(range), unicodeRange: range })),
  };
  builtinFamilies.set(family, entry);
  return entry;
}

/** The canonical built-in family for a name (case-insensitive; generic names included), or null. */
export function builtinFamilyName(name: string): string | null {
  const lower = name.trim().toLowerCase();
  if (GENERIC[lower]) return GENERIC[lower];
  return BUILTIN_FONT_FAMILIES.find((f) => f.toLowerCase() === lower) ?? null;
}

/** The available weight nearest to the requested one (CSS font matching picks the same). */
export function nearestWeight(available: readonly number[], weight: number): number {
  let best = available[0];
  for (const w of available) if (Math.abs(w - weight) < Math.abs(best - weight)) best = w;
  return best;
}

const base64ByFile = new Map<string, string>();

function fileBase64(file: string): string {
  let data = base64ByFile.get(file);
  if (data === undefined) {
    data = readFileSync(file).toString('base64');
    base64ByFile.set(file, data);
  }
  return data;
}

/** CSS string literal: everything outside [A-Za-z0-9 _-] is written as a hex escape. */
export function cssString(text: string): string {
  return `'${text.replace(/[^A-Za-z0-9 _-]/g, (c) => `\\${c.codePointAt(0)?.toString(16) ?? '0'} `)}'`;
}

/** Code points above U+00FF in a text (the Latin-1 range is always covered). */
export function codePointsBeyondLatin1(text: string): Set<number> {
  const out = new Set<number>();
  const start = text.search(/[^\u0000-\u00ff]/);
  if (start < 0) return out;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0xff) continue;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      out.add(text.codePointAt(i) ?? c);
      i++;
    } else {
      out.add(c);
    }
  }
  return out;
}

/** Subsets of a built-in family that cover the code points; `latin` always. */
function subsetsFor(family: BuiltinFamily, codePoints: ReadonlySet<number>): Set<string> {
  const needed = new Set<string>(['latin']);
  if (codePoints.size === 0) return needed;
  const latin = family.subsets.find((s) => s.name === 'latin');
  const inRanges = (cp: number, ranges: [number, number][]): boolean => ranges.some(([a, b]) => cp >= a && cp <= b);
  for (const cp of codePoints) {
    if (latin && inRanges(cp, latin.ranges)) continue;
    for (const s of family.subsets) if (!needed.has(s.name) && inRanges(cp, s.ranges)) needed.add(s.name);
  }
  return needed;
}

const ruleCache = new Map<string, string>();

/**
 * Where a printer that serves the built-in faces (the render service's pages, decision 0020) answers for them:
 * `${BUILTIN_FONT_ORIGIN}/<file>.woff2`, a name under the reserved `.invalid` domain that no resolver answers for.
 */
export const BUILTIN_FONT_ORIGIN = 'https://builtin-fonts.docrender.invalid';

/**
 * How a built-in face's file reaches the document: `inline` as a data URI (every printer), `served` as a
 * BUILTIN_FONT_ORIGIN URL, for a printer that serves them (builtinFontFile) and so loads and decodes each file once
 * per page instead of once per document (decision 0020).
 */
export type BuiltinFontSource = 'inline' | 'served';

/**
 * @font-face rules of a built-in face under `cssFamily` (normally the family's own name; another name to
 * stand in for a family that could not be resolved), with the subsets the text's code points need.
 */
export function builtinFontFaceCss(
  face: FontFaceRef,
  codePoints: ReadonlySet<number>,
  cssFamily: string = face.family,
  source: BuiltinFontSource | BandFaceSource = 'inline',
): string {
  const family = builtinFamily(face.family);
  const weight = nearestWeight(family.weights, face.weight);
  const style: FontStyle = family.styles.includes(face.style) ? face.style : 'normal';
  const wanted = subsetsFor(family, codePoints);
  let css = '';
  for (const subset of family.subsets) {
    if (!wanted.has(subset.name)) continue;
    const fileName = `${family.fileStem}-${subset.name}-${weight}-${style}.woff2`;
    const file = path.join(family.packageDir, 'files', fileName);
    if (typeof source !== 'string') {
      css += bandFaceRule(face, cssFamily, subset.unicodeRange, file, fileName, source);
      continue;
    }
    const key = `${file}\u0000${cssFamily}\u0000${face.weight}\u0000${face.style}\u0000${source}`;
    let rule = ruleCache.get(key);
    if (rule === undefined) {
      const url = source === 'served' ? `${BUILTIN_FONT_ORIGIN}/${fileName}` : `data:font/woff2;base64,${fileBase64(file)}`;
      rule =
        `@font-face{font-family:${cssString(cssFamily)};font-style:${face.style};font-weight:${face.weight};font-display:block;` +
        `src:url(${url}) format('woff2');unicode-range:${subset.unicodeRange}}\n`;
      if (ruleCache.size > 500) ruleCache.clear();
      ruleCache.set(key, rule);
    }
    css += rule;
  }
  return css;
}

/**
 * A face the bands use, in a document whose bands print their faces subset to their characters (decision 0020, "Band
 * faces subset"): `subsetOf` gives a file's subset as a data URI, or null (that file stays whole and inline, in the
 * band and in the document). In the `band` the subset is the face; the `document` names the file by its served URL for
 * its own text and declares the subset under a family of its own, BAND_SUBSET_FAMILY: a band draws only faces the
 * document has loaded from the very same URL.
 */
export interface BandFaceSource {
  in: 'band' | 'document';
  subsetOf: (file: string) => string | null;
}

/** The family under which a document declares its bands' subset faces: loaded, never named by its text. */
export const BAND_SUBSET_FAMILY = 'docrender band subset';

function bandFaceRule(face: FontFaceRef, cssFamily: string, unicodeRange: string, file: string, fileName: string, source: BandFaceSource): string {
  const subset = source.subsetOf(file);
  const rule = (family: string, url: string, format: string): string =>
    `@font-face{font-family:${cssString(family)};font-style:${face.style};font-weight:${face.weight};font-display:block;` +
    `src:url(${url}) format('${format}');unicode-range:${unicodeRange}}\n`;
  if (subset === null) return rule(cssFamily, `data:font/woff2;base64,${fileBase64(file)}`, 'woff2');
  if (source.in === 'band') return rule(cssFamily, subset, 'truetype');
  return rule(cssFamily, `${BUILTIN_FONT_ORIGIN}/${fileName}`, 'woff2') + rule(BAND_SUBSET_FAMILY, subset, 'truetype');
}

const SERVED_FILE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*\.woff2$/;
const servedFiles = new Map<string, Buffer | null>();

/**
 * The bytes of the built-in font file a `served` face names (`${BUILTIN_FONT_ORIGIN}/<file>.woff2`), or null for any
 * other URL: a name that is not a WOFF2 file of a built-in family's package (no path, no query) is never read.
 */
export function builtinFontFile(url: string): Buffer | null {
  if (!url.startsWith(`${BUILTIN_FONT_ORIGIN}/`)) return null;
  const name = url.slice(BUILTIN_FONT_ORIGIN.length + 1);
  if (!SERVED_FILE_NAME.test(name)) return null;
  const known = servedFiles.get(name);
  if (known !== undefined) return known;
  let bytes: Buffer | null = null;
  for (const familyName of BUILTIN_FONT_FAMILIES) {
    const family = builtinFamily(familyName);
    if (!name.startsWith(`${family.fileStem}-`)) continue;
    const file = path.join(family.packageDir, 'files', name);
    if (existsSync(file)) bytes = readFileSync(file);
  }
  // bounded: the names cached are those that passed SERVED_FILE_NAME and began with a family's file stem
  if (servedFiles.size > 1000) servedFiles.clear();
  servedFiles.set(name, bytes);
  return bytes;
}

/** Font formats recognised from the first bytes of a font file. */
function fontFormat(base64: string): string | null {
  const head = Buffer.from(base64.slice(0, 8), 'base64');
  const tag = head.subarray(0, 4).toString('latin1');
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'OTTO') return 'opentype';
  if (tag === 'true' || (head[0] === 0 && head[1] === 1 && head[2] === 0 && head[3] === 0)) return 'truetype';
  return null;
}

const FONT_DATA_URI = /^data:(?:font\/[a-z0-9.+-]+|application\/[a-z0-9.+-]+)(?:;[a-z-]+=[a-z0-9._-]+)*;base64,([A-Za-z0-9+/]+={0,2})$/i;

/** The @font-face rule of a custom font file, or null when the data URI is not a font. */
export function customFontFaceCss(file: CustomFontFile, cssFamily: string = file.family): string | null {
  const m = FONT_DATA_URI.exec(file.dataUri);
  if (!m) return null;
  const format = fontFormat(m[1]);
  if (!format) return null;
  return (
    `@font-face{font-family:${cssString(cssFamily)};font-style:${file.style};font-weight:${file.weight};font-display:block;` +
    `src:url(data:font/${format === 'truetype' ? 'ttf' : format === 'opentype' ? 'otf' : format};base64,${m[1]}) format('${format}')}\n`
  );
}

/** The weights and styles a built-in family offers. */
export function builtinVariants(family: string): { weights: number[]; styles: FontStyle[] } {
  const f = builtinFamily(family);
  return { weights: f.weights, styles: f.styles };
}

/**
 * The WOFF files of every Unicode subset of a built-in family's upright 400 face: together they hold the characters the
 * family can draw (every weight and style of a `@fontsource` family covers the same subsets).
 */
export function builtinFamilyFiles(family: string): string[] {
  const f = builtinFamily(family);
  return f.subsets.map((s) => path.join(f.packageDir, 'files', `${f.fileStem}-${s.name}-400-normal.woff`)).filter((file) => existsSync(file));
}
