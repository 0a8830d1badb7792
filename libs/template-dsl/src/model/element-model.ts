import { ElementType, ListSource, StyleProperties, TemplateElement } from './template.types';

/** The member of the TemplateElement union whose `type` is K. */
export type ElementOf<K extends ElementType> = Extract<TemplateElement, { type: K }>;

/** Collects fields of an element with their paths relative to it: one text, or the colours of a style. */
export interface FieldSink {
  value(field: string, value: string | undefined): void;
  style(field: string, style: StyleProperties | undefined): void;
}

/**
 * What the template model knows of one element type (decision 0049): the checks (`validateTemplate`) and the walks
 * over a template read it; the compiler's own steps are in `render/element-steps.ts`, keyed the same way.
 */
export interface ElementModel<E extends TemplateElement> {
  /** The elements it holds, in order (none for elements that hold none). */
  children(element: E): readonly TemplateElement[];
  /** Its template text fields besides `anchor` (text that may hold bindings). */
  textFields(element: E, fields: FieldSink): void;
  /** Its colour fields besides those of its `style`: its own colour properties and its other styles. */
  colourFields(element: E, fields: FieldSink): void;
  /** The list it repeats, null when it repeats none. */
  listSource(element: E): ListSource | null;
  /** A figure in a tagged PDF: under PDF/UA it needs alternative text (`alt`). */
  figure: boolean;
}

const noChildren = (): readonly TemplateElement[] => [];
const noFields = (): void => undefined;
const noList = (): null => null;
const ownElements = (element: { elements: TemplateElement[] }): readonly TemplateElement[] => element.elements;
const ownColour = (element: { color?: string }, fields: FieldSink): void => fields.value('color', element.color);
const ownList = (element: { source: ListSource }): ListSource => element.source;

/** One entry per element type: the compiler refuses a table that misses one. */
export const ELEMENT_MODEL: { readonly [K in ElementType]: ElementModel<ElementOf<K>> } = {
  text: { children: noChildren, textFields: (e, f) => f.value('text', e.text), colourFields: noFields, listSource: noList, figure: false },
  richText: { children: noChildren, textFields: (e, f) => f.value('markdown', e.markdown), colourFields: noFields, listSource: noList, figure: false },
  image: {
    children: noChildren,
    textFields: (e, f) => {
      f.value('source', e.source);
      f.value('alt', e.alt);
    },
    colourFields: noFields,
    listSource: noList,
    figure: true,
  },
  table: {
    children: noChildren,
    textFields: (e, f) => {
      f.value('emptyText', e.emptyText);
      e.columns.forEach((c, i) => {
        f.value(`columns[${i}].header`, c.header);
        f.value(`columns[${i}].value`, c.value);
      });
      for (const [key, value] of Object.entries(e.totals?.cells ?? {})) f.value(`totals.cells[${JSON.stringify(key)}]`, value);
      for (const field of ['sums', 'carried', 'brought'] as const) {
        for (const [key, value] of Object.entries(e.pageBreaks?.[field] ?? {})) f.value(`pageBreaks.${field}[${JSON.stringify(key)}]`, value);
      }
      f.value('pageBreaks.continuedFoot', e.pageBreaks?.continuedFoot);
      f.value('pageBreaks.continuedHead', e.pageBreaks?.continuedHead);
    },
    colourFields: (e, f) => {
      f.value('borderColor', e.borderColor);
      f.style('headerStyle', e.headerStyle);
      f.style('rowStyle', e.rowStyle);
      f.style('alternateRowStyle', e.alternateRowStyle);
      f.style('totals.style', e.totals?.style);
      f.style('pageBreaks.style', e.pageBreaks?.style);
      e.columns.forEach((c, i) => {
        f.style(`columns[${i}].style`, c.style);
        f.style(`columns[${i}].headerStyle`, c.headerStyle);
      });
    },
    listSource: ownList,
    figure: false,
  },
  repeater: { children: ownElements, textFields: (e, f) => f.value('emptyText', e.emptyText), colourFields: noFields, listSource: ownList, figure: false },
  row: { children: ownElements, textFields: noFields, colourFields: noFields, listSource: noList, figure: false },
  column: { children: ownElements, textFields: noFields, colourFields: noFields, listSource: noList, figure: false },
  grid: { children: ownElements, textFields: noFields, colourFields: noFields, listSource: noList, figure: false },
  spacer: { children: noChildren, textFields: noFields, colourFields: noFields, listSource: noList, figure: false },
  line: { children: noChildren, textFields: noFields, colourFields: ownColour, listSource: noList, figure: false },
  box: { children: (e) => e.elements ?? [], textFields: noFields, colourFields: noFields, listSource: noList, figure: false },
  pageBreak: { children: noChildren, textFields: noFields, colourFields: noFields, listSource: noList, figure: false },
  qrCode: {
    children: noChildren,
    textFields: (e, f) => f.value('value', e.value),
    colourFields: (e, f) => {
      f.value('color', e.color);
      f.value('backgroundColor', e.backgroundColor);
    },
    listSource: noList,
    figure: true,
  },
  barcode: { children: noChildren, textFields: (e, f) => f.value('value', e.value), colourFields: ownColour, listSource: noList, figure: true },
  chart: {
    children: noChildren,
    textFields: (e, f) => {
      f.value('title', e.title);
      e.series.forEach((s, i) => f.value(`series[${i}].name`, s.name));
    },
    colourFields: (e, f) => e.series.forEach((s, i) => f.value(`series[${i}].color`, s.color)),
    listSource: ownList,
    figure: true,
  },
};

/** The model entry of an element, typed for any element (the table holds the one for its type). */
export function modelOf(element: TemplateElement): ElementModel<TemplateElement> {
  return ELEMENT_MODEL[element.type] as ElementModel<TemplateElement>;
}
