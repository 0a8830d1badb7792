import { Border, FontWeight, Spacing, StyleProperties } from '../model/template.types';
import { cssString } from '../fonts/font-registry';
import { parseColour } from './colour';
import { lengthCss } from './length';

/** Colour properties whose value may be a binding, resolved per rendered instance. */
export type ColourProperty = 'color' | 'background-color' | 'border-top-color' | 'border-right-color' | 'border-bottom-color' | 'border-left-color';

export interface DynamicColour {
  property: ColourProperty;
  text: string;
}

export interface StyleCss {
  /** Declarations known from the template alone. */
  declarations: string;
  /** Colours written as bindings, resolved for each rendered instance. */
  dynamic: DynamicColour[];
  /** Literal colours that are not colours. */
  invalidColours: string[];
}

export function fontWeightNumber(weight: FontWeight | undefined): number | undefined {
  if (weight === undefined) return undefined;
  if (weight === 'normal') return 400;
  if (weight === 'bold') return 700;
  return weight;
}

/** Merges styles left to right; borders merge field by field. */
export function mergeStyles(...styles: (StyleProperties | undefined)[]): StyleProperties {
  const out: StyleProperties = {};
  for (const s of styles) {
    if (!s) continue;
    for (const key of Object.keys(s) as (keyof StyleProperties)[]) {
      const value = s[key];
      if (value === undefined) continue;
      if (key === 'border' || key === 'borderTop' || key === 'borderRight' || key === 'borderBottom' || key === 'borderLeft') {
        out[key] = { ...(out[key] ?? {}), ...(value as Border) };
      } else {
        (out as Record<string, unknown>)[key] = value;
      }
    }
  }
  return out;
}

function spacingCss(spacing: Spacing | undefined): string | null {
  if (spacing === undefined) return null;
  const parts = Array.isArray(spacing) ? spacing : [spacing];
  const css = parts.map((p) => lengthCss(p));
  return css.every((c) => c !== null) ? css.join(' ') : null;
}

const SIDES = [
  ['borderTop', 'top'],
  ['borderRight', 'right'],
  ['borderBottom', 'bottom'],
  ['borderLeft', 'left'],
] as const;

/**
 * The CSS of a style. `familyCss` maps a template family name to the CSS family list to write (the
 * caller resolves built-in, custom and unresolved families).
 */
const WHITE_SPACE: Record<string, string> = { normal: 'pre-line', preserve: 'pre-wrap', nowrap: 'pre' };

export function styleCss(style: StyleProperties, familyCss: (family: string) => string): StyleCss {
  const decl: string[] = [];
  const dynamic: DynamicColour[] = [];
  const invalidColours: string[] = [];
  const colour = (property: ColourProperty, value: string | undefined): void => {
    if (value === undefined) return;
    if (value.includes('{{')) {
      dynamic.push({ property, text: value });
      return;
    }
    const parsed = parseColour(value);
    if (parsed) decl.push(`${property}:${parsed}`);
    else invalidColours.push(value);
  };
  if (style.fontFamily !== undefined) decl.push(`font-family:${familyCss(style.fontFamily)}`);
  if (style.fontSize !== undefined) decl.push(`font-size:${Math.round(style.fontSize * 100) / 100}pt`);
  const weight = fontWeightNumber(style.fontWeight);
  if (weight !== undefined) decl.push(`font-weight:${weight}`);
  if (style.italic !== undefined) decl.push(`font-style:${style.italic ? 'italic' : 'normal'}`);
  colour('color', style.color);
  colour('background-color', style.backgroundColor);
  if (style.textAlign !== undefined) decl.push(`text-align:${style.textAlign}`);
  if (style.verticalAlign !== undefined) decl.push(`vertical-align:${style.verticalAlign}`);
  if (style.lineHeight !== undefined) decl.push(`line-height:${style.lineHeight}`);
  if (style.textDecoration !== undefined) decl.push(`text-decoration:${style.textDecoration}`);
  const letterSpacing = lengthCss(style.letterSpacing);
  if (letterSpacing !== null && !letterSpacing.endsWith('%')) decl.push(`letter-spacing:${letterSpacing}`);
  if (style.whiteSpace !== undefined) decl.push(`white-space:${WHITE_SPACE[style.whiteSpace]}`);
  for (const [key, side] of SIDES) {
    const border = mergeStyles({ border: style.border }, { border: style[key] }).border;
    if (!border || Object.keys(border).length === 0) continue;
    const width = lengthCss(border.width ?? 0.75) ?? '0.75pt';
    decl.push(`border-${side}:${width} ${border.style ?? 'solid'}`);
    if (border.color === undefined) decl.push(`border-${side}-color:currentcolor`);
    else colour(`border-${side}-color` as ColourProperty, border.color);
  }
  const radius = lengthCss(style.borderRadius);
  if (radius) decl.push(`border-radius:${radius}`);
  const padding = spacingCss(style.padding);
  if (padding) decl.push(`padding:${padding}`);
  const margin = spacingCss(style.margin);
  if (margin) decl.push(`margin:${margin}`);
  return { declarations: decl.join(';'), dynamic, invalidColours };
}

/** CSS family list for a resolved family name, always ending in the built-in default. */
export function familyListCss(family: string, fallback: string): string {
  return family === fallback ? cssString(family) : `${cssString(family)},${cssString(fallback)}`;
}

/**
 * Class names for declaration sets, numbered in order of first use so the same template gives the same
 * stylesheet every time.
 */
export class StyleRegistry {
  private readonly classes = new Map<string, string>();

  constructor(private readonly prefix: string) {}

  classFor(declarations: string): string | null {
    if (!declarations) return null;
    let name = this.classes.get(declarations);
    if (!name) {
      name = `${this.prefix}${this.classes.size + 1}`;
      this.classes.set(declarations, name);
    }
    return name;
  }

  css(): string {
    let out = '';
    for (const [declarations, name] of this.classes) out += `.${name}{${declarations}}\n`;
    return out;
  }
}
