import { FieldSink, modelOf } from './element-model';
import { PageBackground, PageBand, PageBandVariant, PageSetup, StyleProperties, Template, TemplateElement, Watermark } from './template.types';

/** The page roles a band may have a variant for. */
export const BAND_ROLES = ['first', 'last', 'odd', 'even'] as const;
export type BandRole = (typeof BAND_ROLES)[number];

/** The element lists of a band: its own (key null) and those of its role variants, with their JSON path suffixes. */
export function bandVariants(band: PageBand | undefined): { role: BandRole | null; variant: PageBandVariant; path: string }[] {
  if (!band) return [];
  const out: { role: BandRole | null; variant: PageBandVariant; path: string }[] = [{ role: null, variant: band, path: '' }];
  for (const role of BAND_ROLES) {
    const variant = band[role];
    if (variant) out.push({ role, variant, path: `.${role}` });
  }
  return out;
}

/** Where an element sits: the page body, or the header or footer band. */
export type Region = 'body' | 'header' | 'footer';

export interface ElementVisit {
  element: TemplateElement;
  /** JSON path of the element, e.g. `$.body[2].elements[0]`. */
  path: string;
  region: Region;
  /** Enclosing elements, outermost first. */
  ancestors: readonly TemplateElement[];
}

/** The page backgrounds of a page setup (one object or a list). */
export function pageBackgroundsOf(page: PageSetup | undefined): PageBackground[] {
  const b = page?.background;
  return b === undefined ? [] : Array.isArray(b) ? b : [b];
}

/** The template's watermarks (one object or a list). */
export function watermarksOf(page: PageSetup | undefined): Watermark[] {
  const w = page?.watermark;
  return w === undefined ? [] : Array.isArray(w) ? w : [w];
}

/** Visits every element of the template, parents before children, in document order. */
export function walkElements(template: Template, visit: (v: ElementVisit) => void): void {
  const walk = (elements: readonly TemplateElement[], path: string, region: Region, ancestors: TemplateElement[]): void => {
    elements.forEach((element, i) => {
      const elementPath = `${path}[${i}]`;
      visit({ element, path: elementPath, region, ancestors });
      const children = modelOf(element).children(element);
      if (children.length > 0) walk(children, `${elementPath}.elements`, region, [...ancestors, element]);
    });
  };
  walk(template.body, '$.body', 'body', []);
  for (const v of bandVariants(template.page?.header)) walk(v.variant.elements, `$.page.header${v.path}.elements`, 'header', []);
  for (const v of bandVariants(template.page?.footer)) walk(v.variant.elements, `$.page.footer${v.path}.elements`, 'footer', []);
}

/** Template text fields of an element (text that may hold bindings), with their JSON paths. */
export function textFieldsOf(element: TemplateElement, path: string): [string, string][] {
  return fieldsAt(path, (fields) => {
    if (element.type !== 'pageBreak') fields.value('anchor', element.anchor);
    modelOf(element).textFields(element, fields);
  });
}

/** Colour fields of a style, with their JSON paths. */
export function styleColourFields(style: StyleProperties | undefined, path: string): [string, string][] {
  if (!style) return [];
  const out: [string, string][] = [];
  if (style.color !== undefined) out.push([`${path}.color`, style.color]);
  if (style.backgroundColor !== undefined) out.push([`${path}.backgroundColor`, style.backgroundColor]);
  for (const side of ['border', 'borderTop', 'borderRight', 'borderBottom', 'borderLeft'] as const) {
    const colour = style[side]?.color;
    if (colour !== undefined) out.push([`${path}.${side}.color`, colour]);
  }
  return out;
}

/** Colour fields of an element (its own colour properties and those of its styles). */
export function colourFieldsOf(element: TemplateElement, path: string): [string, string][] {
  return fieldsAt(path, (fields) => {
    if (element.type !== 'pageBreak') fields.style('style', element.style);
    modelOf(element).colourFields(element, fields);
  });
}

/** The fields `gather` gives the FieldSink it is handed, with their JSON paths under `path`. */
function fieldsAt(path: string, gather: (fields: FieldSink) => void): [string, string][] {
  const out: [string, string][] = [];
  gather({
    value: (field, value) => {
      if (value !== undefined) out.push([`${path}.${field}`, value]);
    },
    style: (field, style) => {
      out.push(...styleColourFields(style, `${path}.${field}`));
    },
  });
  return out;
}
