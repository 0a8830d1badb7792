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

/** Child elements of a container element. */
export function childrenOf(element: TemplateElement): TemplateElement[] {
  switch (element.type) {
    case 'repeater':
    case 'row':
    case 'column':
    case 'grid':
      return element.elements;
    case 'box':
      return element.elements ?? [];
    case 'text':
    case 'richText':
    case 'image':
    case 'table':
    case 'spacer':
    case 'line':
    case 'pageBreak':
    case 'qrCode':
    case 'barcode':
    case 'chart':
      return [];
  }
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
      const children = childrenOf(element);
      if (children.length > 0) walk(children, `${elementPath}.elements`, region, [...ancestors, element]);
    });
  };
  walk(template.body, '$.body', 'body', []);
  for (const v of bandVariants(template.page?.header)) walk(v.variant.elements, `$.page.header${v.path}.elements`, 'header', []);
  for (const v of bandVariants(template.page?.footer)) walk(v.variant.elements, `$.page.footer${v.path}.elements`, 'footer', []);
}

/** Template text fields of an element (text that may hold bindings), with their JSON paths. */
export function textFieldsOf(element: TemplateElement, path: string): [string, string][] {
  const out: [string, string][] = [];
  const add = (field: string, value: string | undefined): void => {
    if (value !== undefined) out.push([`${path}.${field}`, value]);
  };
  if (element.type !== 'pageBreak') add('anchor', element.anchor);
  switch (element.type) {
    case 'text':
      add('text', element.text);
      break;
    case 'richText':
      add('markdown', element.markdown);
      break;
    case 'image':
      add('source', element.source);
      add('alt', element.alt);
      break;
    case 'table':
      add('emptyText', element.emptyText);
      element.columns.forEach((c, i) => {
        add(`columns[${i}].header`, c.header);
        add(`columns[${i}].value`, c.value);
      });
      for (const [key, value] of Object.entries(element.totals?.cells ?? {})) add(`totals.cells[${JSON.stringify(key)}]`, value);
      for (const field of ['sums', 'carried', 'brought'] as const) {
        for (const [key, value] of Object.entries(element.pageBreaks?.[field] ?? {})) add(`pageBreaks.${field}[${JSON.stringify(key)}]`, value);
      }
      add('pageBreaks.continuedFoot', element.pageBreaks?.continuedFoot);
      add('pageBreaks.continuedHead', element.pageBreaks?.continuedHead);
      break;
    case 'repeater':
      add('emptyText', element.emptyText);
      break;
    case 'qrCode':
    case 'barcode':
      add('value', element.value);
      break;
    case 'chart':
      add('title', element.title);
      element.series.forEach((s, i) => add(`series[${i}].name`, s.name));
      break;
    case 'row':
    case 'column':
    case 'grid':
    case 'spacer':
    case 'line':
    case 'box':
    case 'pageBreak':
      break;
  }
  return out;
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
  const out: [string, string][] = [];
  if (element.type !== 'pageBreak') out.push(...styleColourFields(element.style, `${path}.style`));
  switch (element.type) {
    case 'table':
      if (element.borderColor !== undefined) out.push([`${path}.borderColor`, element.borderColor]);
      out.push(...styleColourFields(element.headerStyle, `${path}.headerStyle`));
      out.push(...styleColourFields(element.rowStyle, `${path}.rowStyle`));
      out.push(...styleColourFields(element.alternateRowStyle, `${path}.alternateRowStyle`));
      out.push(...styleColourFields(element.totals?.style, `${path}.totals.style`));
      out.push(...styleColourFields(element.pageBreaks?.style, `${path}.pageBreaks.style`));
      element.columns.forEach((c, i) => {
        out.push(...styleColourFields(c.style, `${path}.columns[${i}].style`));
        out.push(...styleColourFields(c.headerStyle, `${path}.columns[${i}].headerStyle`));
      });
      break;
    case 'line':
    case 'barcode':
      if (element.color !== undefined) out.push([`${path}.color`, element.color]);
      break;
    case 'qrCode':
      if (element.color !== undefined) out.push([`${path}.color`, element.color]);
      if (element.backgroundColor !== undefined) out.push([`${path}.backgroundColor`, element.backgroundColor]);
      break;
    case 'chart':
      element.series.forEach((s, i) => {
        if (s.color !== undefined) out.push([`${path}.series[${i}].color`, s.color]);
      });
      break;
    case 'text':
    case 'richText':
    case 'image':
    case 'repeater':
    case 'row':
    case 'column':
    case 'grid':
    case 'spacer':
    case 'box':
    case 'pageBreak':
      break;
  }
  return out;
}
