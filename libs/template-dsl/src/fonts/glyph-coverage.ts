import { RenderIssueType } from '@docrender/contracts';
import { IssueCollector } from '../issues/issue-collector';
import { COUNTER_IN_HTML } from '../render/counter-text';
import { CharacterSet, characterSetOfData, characterSetOfFile } from './character-map';
import { BUILTIN_FONT_FAMILIES, builtinFamilyFiles, CustomFontFile, DEFAULT_FONT_FAMILY, FontFaceRef } from './font-registry';
import { SCRIPT_FONT_ROOT, SCRIPT_FONT_WEIGHTS, SCRIPT_FONTS, ScriptFont } from './script-fonts';
import path from 'node:path';

/**
 * Characters no font needs to draw: controls, white space (Chromium lays out a space without a glyph) and default
 * ignorable code points (joiners, direction marks and isolates, variation selectors).
 */
const NOT_DRAWN = /[\p{Cc}\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;
/** Latin-1 is drawn by the default family, last in every element's family list (familyCss). */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
const BEYOND_LATIN1_ALL = /[^\u0000-\u00ff]/gu;
const TAG = /<[^>]*>/g;
const NUMERIC_ENTITY = /&#(x[0-9a-f]+|[0-9]+);/gi;
/** Code points named in one issue before "and N more". */
const LISTED = 12;

/**
 * The character maps the check reads, loaded once per process (and per compile thread: each worker has its module
 * state) on the first text beyond Latin-1, and kept: each built-in family's subsets, each script font.
 */
const builtinSets = new Map<string, CharacterSet>();
let scriptSets: { font: ScriptFont; upright: CharacterSet; italic: CharacterSet | null }[] | null = null;
let defaultChain: CharacterSet | null = null;
/** Script font files that could not be read (not installed): their characters count as not drawable. */
const unreadable: string[] = [];

function builtinSet(family: string): CharacterSet {
  let set = builtinSets.get(family);
  if (!set) {
    set = new CharacterSet();
    for (const file of builtinFamilyFiles(family)) characterSetOfFile(file, set);
    builtinSets.set(family, set);
  }
  return set;
}

function readScriptFile(file: string, into: CharacterSet): void {
  const absolute = path.join(SCRIPT_FONT_ROOT, file);
  try {
    characterSetOfFile(absolute, into);
  } catch {
    unreadable.push(absolute);
  }
}

function scripts(): NonNullable<typeof scriptSets> {
  if (!scriptSets) {
    scriptSets = SCRIPT_FONTS.map((font) => {
      // every weight of a family covers the same characters: its regular file is read
      const upright = new CharacterSet();
      readScriptFile(font.files[400], upright);
      let italic: CharacterSet | null = null;
      if (font.italicFiles) {
        italic = new CharacterSet();
        readScriptFile(font.italicFiles[400], italic);
      }
      return { font, upright, italic };
    });
  }
  return scriptSets;
}

/** What every element's chain ends with: the default family, then the script fonts. */
function defaultSet(): CharacterSet {
  if (!defaultChain) {
    defaultChain = new CharacterSet();
    defaultChain.addAll(builtinSet(DEFAULT_FONT_FAMILY));
    for (const s of scripts()) defaultChain.addAll(s.upright);
  }
  return defaultChain;
}

const customSets = new Map<string, CharacterSet | null>();
const FONT_DATA = /^data:[^,]*;base64,/;

function customSet(file: CustomFontFile): CharacterSet | null {
  if (customSets.has(file.dataUri)) return customSets.get(file.dataUri) ?? null;
  const head = FONT_DATA.exec(file.dataUri);
  let set: CharacterSet | null = null;
  if (head) {
    try {
      set = characterSetOfData(Buffer.from(file.dataUri.slice(head[0].length), 'base64'));
    } catch {
      set = null;
    }
  }
  // bounded: an organisation's custom files, kept by their data (the same upload is the same string)
  if (customSets.size >= 32) customSets.delete(customSets.keys().next().value as string);
  customSets.set(file.dataUri, set);
  return set;
}

function codePointList(codePoints: readonly number[]): string {
  const shown = codePoints.slice(0, LISTED).map((c) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`);
  return codePoints.length > LISTED ? `${shown.join(', ')} and ${codePoints.length - LISTED} more` : shown.join(', ');
}

/**
 * The glyph coverage check of one document (issue 33 item 3): every element's printed text, when it leaves the
 * renderer, against the fonts its style resolves to — its family's faces (a built-in family's subsets, the custom
 * family's files), the default family, then the built-in script fonts, by their character maps. A character none of
 * them has is an UnresolvedFont issue naming the element and the code points; so is text of a script font printed at a
 * weight or style that font lacks (the script fonts have 400 and 700, upright; Noto Sans also italic).
 *
 * Elements nest (a row's markup holds its children's): each element checks the characters its descendants did not, so
 * a character is judged once, by the innermost element that prints it.
 */
export class GlyphCoverage {
  /** Per element being rendered: the characters beyond Latin-1 its descendants have checked. */
  private readonly checked: (Set<number> | null)[] = [];
  /** The characters of each custom family of the document, by lower-case name. */
  private readonly customFamilies = new Map<string, CharacterSet | null | 'unknown'>();

  constructor(
    private readonly customFonts: readonly CustomFontFile[],
    private readonly issues: IssueCollector,
  ) {}

  enter(): void {
    this.checked.push(null);
  }

  /** The element's markup, once rendered; `face` is what its style resolves to. */
  leave(markup: string, elementId: string | null, face: FontFaceRef): void {
    const done = this.checked.pop() ?? null;
    if (!BEYOND_LATIN1.test(markup)) return;
    const printed = new Set<number>();
    for (const m of textOf(markup).matchAll(BEYOND_LATIN1_ALL)) printed.add(m[0].codePointAt(0) as number);
    const own = done ? [...printed].filter((c) => !done.has(c)) : [...printed];
    const top = this.checked.length - 1;
    if (top >= 0) {
      const parent = (this.checked[top] ??= new Set());
      for (const c of printed) parent.add(c);
    }
    if (own.length > 0) this.check(own, elementId, face);
  }

  /** Markup printed outside any element (a watermark's) in `face`. */
  text(markup: string, elementId: string | null, face: FontFaceRef): void {
    if (!BEYOND_LATIN1.test(markup)) return;
    this.check([...new Set([...textOf(markup).matchAll(BEYOND_LATIN1_ALL)].map((m) => m[0].codePointAt(0) as number))], elementId, face);
  }

  private check(codePoints: readonly number[], elementId: string | null, face: FontFaceRef): void {
    const family = this.familySet(face.family);
    // a custom family handed in without its files (validation): what it draws is checked when the document is rendered
    if (family === 'unknown') return;
    const chain = defaultSet();
    const missing: number[] = [];
    const fallback: number[] = [];
    for (const c of codePoints) {
      if (family?.has(c)) continue;
      if (NOT_DRAWN.test(String.fromCodePoint(c))) continue;
      if (face.family !== DEFAULT_FONT_FAMILY && builtinSet(DEFAULT_FONT_FAMILY).has(c)) continue;
      if (chain.has(c)) fallback.push(c);
      else missing.push(c);
    }
    if (missing.length > 0) {
      const description =
        `No font of the family chain of "${face.family}" (${face.family === DEFAULT_FONT_FAMILY ? '' : `its faces, then ${DEFAULT_FONT_FAMILY}, `}then the built-in ` +
        `script fonts${unreadable.length > 0 ? `, of which ${unreadable.length} files are not installed` : ''}) has a glyph for "${codePointList(missing)}": ` +
        'they would print as empty boxes.';
      this.issues.add(RenderIssueType.UnresolvedFont, description, elementId, description);
    }
    if (fallback.length > 0) this.checkFallbackFace(fallback, elementId, face);
  }

  /** Characters the script fonts draw: at the element's weight and style only if the script font has them. */
  private checkFallbackFace(codePoints: readonly number[], elementId: string | null, face: FontFaceRef): void {
    const weightMissing = !SCRIPT_FONT_WEIGHTS.includes(face.weight);
    const lacking = new Set<string>();
    for (const c of codePoints) {
      const font = scripts().find((s) => s.upright.has(c));
      if (!font) continue;
      const italicMissing = face.style === 'italic' && !font.italic?.has(c);
      if (weightMissing || italicMissing) lacking.add(font.font.family);
    }
    if (lacking.size === 0) return;
    const families = [...lacking].sort().join('", "');
    const description =
      `Text at weight ${face.weight} ${face.style} is printed in the built-in script font "${families}", which has weights ` +
      `${SCRIPT_FONT_WEIGHTS.join(' and ')}${face.style === 'italic' ? ' and no italic for these characters' : ''}: the nearest weight is used` +
      `${face.style === 'italic' ? ', slanted by the printer' : ''}.`;
    this.issues.add(RenderIssueType.UnresolvedFont, description, elementId, description);
  }

  /**
   * The characters of the element's own family: a built-in family's, or the custom family's files (null: none readable;
   * unknown: files named without their data).
   */
  private familySet(family: string): CharacterSet | null | 'unknown' {
    if (BUILTIN_FONT_FAMILIES.includes(family)) return builtinSet(family);
    const wanted = family.toLowerCase();
    if (this.customFamilies.has(wanted)) return this.customFamilies.get(wanted) ?? null;
    let set: CharacterSet | null | 'unknown' = null;
    for (const file of this.customFonts) {
      if (file.family.trim().toLowerCase() !== wanted) continue;
      if (file.dataUri === '') set = 'unknown';
      if (set === 'unknown') continue;
      const own = customSet(file);
      if (!own) continue;
      set ??= new CharacterSet();
      set.addAll(own);
    }
    this.customFamilies.set(wanted, set);
    return set;
  }
}

/**
 * The text of markup: tags out, numeric character references decoded (named ones are all ASCII), a band's page
 * counters (still the compiler's markers in the text of an element) as the digits Chromium prints.
 */
function textOf(markup: string): string {
  let text = markup.replace(TAG, ' ');
  if (text.includes('\ue000')) text = text.replace(COUNTER_IN_HTML, '0');
  return text.includes('&#') ? text.replace(NUMERIC_ENTITY, (_e, n: string) => String.fromCodePoint(n[0] === 'x' || n[0] === 'X' ? parseInt(n.slice(1), 16) : parseInt(n, 10))) : text;
}
