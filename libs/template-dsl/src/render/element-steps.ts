import { RenderIssueType } from '@docrender/contracts';
import { BindingSyntaxError, parseTemplateTextCached } from '../binding/binding-syntax';
import { isMarkdownBinding } from '../binding/binding-evaluator';
import { Scope } from '../binding/scope';
import { FontFaceRef } from '../fonts/font-registry';
import { ElementOf } from '../model/element-model';
import { Region } from '../model/template-walker';
import { BarcodeElement, ElementType, Length, RichTextElement, StyleProperties, TemplateElement, TextElement } from '../model/template.types';
import { mergeStyles } from '../style/style-css';
import { lengthCss, lengthMm } from '../style/length';
import { ignoredChartOptions } from './chart';
import { codeFormatName, isTwoDimensional } from './codes';
import { BaseDirection } from './direction';
import type { ElementRenderer } from './element-renderer';
import { markdownFaces } from './markdown';
import type { ElementPrep, FontState, Preparer } from './prepared-template';

/** What preparing an element works on: where it is, what it inherits, and the parts of its preparation it sets. */
export interface PrepareStep {
  region: Region;
  parent: TemplateElement | null;
  font: FontState;
  breakAllowed: boolean;
  /** Declarations of the element's root after those of its style (layout). */
  extra: string[];
  prep: ElementPrep;
  /** The style of the element's root: its own (named styles, then inline), unless the step adds to it. */
  rootStyle: StyleProperties;
}

/** The height an element declares: `exact` when its box is that tall, else a least height. */
export interface DeclaredHeight {
  mm: number;
  exact: boolean;
}

/**
 * What the compiler does for one element type (decision 0049), keyed like ELEMENT_MODEL (model/element-model.ts):
 * the template model must not load the compiler (`@docrender/template-dsl/checks`), so the compiler's steps are this
 * second table.
 */
export interface ElementSteps<E extends TemplateElement> {
  /** Resolves what is known from the template alone: the root's layout (`step.extra`), inner boxes, faces, static issues; prepares its children. */
  prepare(preparer: Preparer, element: E, step: PrepareStep): void;
  /**
   * The height the element declares, for a placed element that may reach below the bottom margin; null when its height
   * comes from its content. `of` reads a length: exact unless the style adds padding or borders.
   */
  declaredHeight(element: E, of: (length: Length | undefined, exact: boolean) => DeclaredHeight | null): DeclaredHeight | null;
  /** Its HTML for one instance; `own` is its own direction when it sets one. */
  draw(renderer: ElementRenderer, element: E, prep: ElementPrep, scope: Scope, own: BaseDirection | null): string;
}

const DEFAULT_CHART_HEIGHT_MM = 70;
const DEFAULT_BARCODE_HEIGHT: Length = '15mm';
const DEFAULT_QR_SIZE: Length = '30mm';

const JUSTIFY: Record<string, string> = {
  start: 'flex-start',
  center: 'center',
  end: 'flex-end',
  'space-between': 'space-between',
  'space-around': 'space-around',
};
const ALIGN: Record<string, string> = { start: 'flex-start', center: 'center', end: 'flex-end', stretch: 'stretch' };

/** CSS orphans/widows of a paragraph, when the template sets them (Chromium's default is 2 each). */
function linesKept(orphans: number | undefined, widows: number | undefined): string[] {
  return [...(orphans === undefined ? [] : [`orphans:${orphans}`]), ...(widows === undefined ? [] : [`widows:${widows}`])];
}

/** Prepares a paragraph (text, rich text): the faces its text uses, and the lines it keeps at a page break. */
function paragraph<E extends TextElement | RichTextElement>(faces: (element: E, font: FontState) => FontFaceRef[]): ElementSteps<E>['prepare'] {
  return (p, e, { region, font, extra }) => {
    for (const face of faces(e, font)) p.face(region, face);
    extra.push(...linesKept(e.orphans, e.widows));
  };
}

/** The faces rich text uses: its font, and the bold, italic and code faces its Markdown uses (any, from data). */
function markdownFacesOf(element: RichTextElement, font: FontState): FontFaceRef[] {
  const parsed = parseTemplateTextCached(element.markdown);
  if (parsed instanceof BindingSyntaxError) return [];
  // Markdown from data may use any face of the subset.
  const fromData = parsed.some((s) => typeof s !== 'string' && isMarkdownBinding(s));
  const faces = fromData ? { bold: true, italic: true, boldItalic: true, code: true } : markdownFaces(parsed);
  return [
    font,
    ...(faces.bold ? [{ ...font, weight: 700 }] : []),
    ...(faces.italic ? [{ ...font, style: 'italic' as const }] : []),
    ...(faces.boldItalic ? [{ ...font, weight: 700, style: 'italic' as const }] : []),
    ...(faces.code ? [{ family: 'Roboto Mono', weight: 400, style: 'normal' as const }] : []),
  ];
}

/** The declarations of a flex box (a row, a column): its direction and its gap. */
function flexBox(direction: 'row' | 'column', gap: Length | undefined): string[] {
  const css = lengthCss(gap);
  return ['display:flex', `flex-direction:${direction}`, ...(css ? [`gap:${css}`] : [])];
}

/** QR, DataMatrix and Aztec codes are square. */
function isSquare(format: BarcodeElement['format']): boolean {
  return format === 'qr' || format === 'datamatrix' || format === 'aztec';
}

function barcodeHeight(element: BarcodeElement): Length {
  return element.height ?? (isSquare(element.format) ? DEFAULT_QR_SIZE : DEFAULT_BARCODE_HEIGHT);
}

/** Draws an element in its own direction when it sets one (`dir` on its root where that differs from around it). */
function directed<E extends TemplateElement>(draw: (renderer: ElementRenderer, element: E, prep: ElementPrep, scope: Scope) => string): ElementSteps<E>['draw'] {
  return (renderer, element, prep, scope, own) => renderer.inOwnDirection(own, () => draw(renderer, element, prep, scope));
}

/** A div holding the element's children (none for a spacer or a line). */
const block = directed((renderer, element, prep, scope) => renderer.block(element, prep, scope));

const contentHeight = (): null => null;

/** One entry per element type: the compiler refuses a table that misses one. */
export const ELEMENT_STEPS: { readonly [K in ElementType]: ElementSteps<ElementOf<K>> } = {
  text: {
    prepare: paragraph((_e, font) => [font]),
    declaredHeight: contentHeight,
    draw: (r, e, prep, scope, own) => r.text(e, prep, scope, own),
  },
  richText: {
    prepare: paragraph(markdownFacesOf),
    declaredHeight: contentHeight,
    draw: (r, e, prep, scope, own) => r.richText(e, prep, scope, own),
  },
  image: {
    prepare: (p, e, { region, extra, prep }) => {
      const height = lengthCss(e.height);
      const align = e.align ?? 'left';
      extra.push(`text-align:${align}`);
      const img = [`object-fit:${e.fit ?? 'contain'}`, 'max-width:100%'];
      if (e.width !== undefined) img.push('width:100%');
      if (height) img.push(`height:${height}`);
      prep.inner = p.classed(region, {}, img, e.id);
    },
    declaredHeight: (e, of) => of(e.height, false),
    draw: directed((r, e, prep, scope) => r.image(e, prep, scope)),
  },
  table: {
    prepare: (p, e, { region, font, prep }) => {
      prep.table = p.prepareTable(e, region, font, prep.widthMm);
    },
    declaredHeight: contentHeight,
    draw: directed((r, e, prep, scope) => r.table(e, prep, scope)),
  },
  repeater: {
    prepare: (p, e, { region, font, breakAllowed, extra, prep }) => {
      const layout = e.layout ?? 'column';
      const gap = lengthCss(e.gap);
      if (layout === 'row') extra.push('display:flex', 'flex-wrap:wrap', ...(gap ? [`gap:${gap}`] : []));
      if (layout === 'grid') extra.push('display:grid', `grid-template-columns:repeat(${e.columns ?? 2},minmax(0,1fr))`, ...(gap ? [`gap:${gap}`] : []));
      prep.inner = p.classed(region, {}, e.keepItemsTogether === false ? [] : ['break-inside:avoid'], e.id);
      if (layout === 'column' && gap) prep.gap = p.registries[region].classFor(`margin-top:${gap}`);
      if (e.emptyText !== undefined) p.face(region, font);
      const itemMm = layout === 'grid' ? p.gridShares(e.columns ?? 2, e.gap, prep.widthMm) : prep.widthMm;
      p.prepareElements(e.elements, region, e, font, breakAllowed && layout === 'column', itemMm);
    },
    declaredHeight: contentHeight,
    draw: directed((r, e, prep, scope) => r.repeater(e, prep, scope)),
  },
  row: {
    prepare: (p, e, { region, font, extra, prep }) => {
      extra.push(...flexBox('row', e.gap));
      if (e.justify) extra.push(`justify-content:${JUSTIFY[e.justify]}`);
      extra.push(`align-items:${ALIGN[e.align ?? 'start']}`);
      if (e.wrap) extra.push('flex-wrap:wrap');
      p.prepareElements(e.elements, region, e, font, false, p.rowShares(e.elements, e.gap, prep.widthMm));
    },
    declaredHeight: contentHeight,
    draw: block,
  },
  column: {
    prepare: (p, e, { region, font, extra, prep }) => {
      extra.push(...flexBox('column', e.gap));
      if (e.align) extra.push(`align-items:${ALIGN[e.align]}`);
      p.prepareElements(e.elements, region, e, font, false, prep.widthMm);
    },
    declaredHeight: contentHeight,
    draw: block,
  },
  grid: {
    prepare: (p, e, { region, font, extra, prep }) => {
      const tracks =
        typeof e.columns === 'number'
          ? `repeat(${e.columns},minmax(0,1fr))`
          : e.columns.map((c) => (typeof c === 'number' ? `${c}pt` : c === 'auto' || c.endsWith('fr') ? c : (lengthCss(c) ?? 'auto'))).join(' ');
      extra.push('display:grid', `grid-template-columns:${tracks}`);
      const gap = lengthCss(e.gap);
      const rowGap = lengthCss(e.rowGap);
      if (gap) extra.push(`column-gap:${gap}`, `row-gap:${rowGap ?? gap}`);
      else if (rowGap) extra.push(`row-gap:${rowGap}`);
      if (e.align) extra.push(`align-items:${ALIGN[e.align]}`);
      p.prepareElements(e.elements, region, e, font, false, p.gridShares(e.columns, e.gap, prep.widthMm));
    },
    declaredHeight: contentHeight,
    draw: block,
  },
  spacer: {
    prepare: (_p, e, { parent, extra }) => {
      const height = lengthCss(e.height);
      if (height) extra.push(`height:${height}`);
      if (parent?.type !== 'row') extra.push('flex:none');
    },
    declaredHeight: (e, of) => of(e.height, true),
    draw: block,
  },
  line: {
    prepare: (_p, e, step) => {
      const { parent, extra } = step;
      const thickness = lengthCss(e.thickness ?? 0.75) ?? '0.75pt';
      const lineStyle = e.lineStyle ?? 'solid';
      const length = lengthCss(e.length);
      if (e.orientation === 'vertical') {
        extra.push(`border-left:${thickness} ${lineStyle} currentcolor`, 'width:0', `height:${length ?? '10mm'}`);
      } else {
        extra.push(`border-top:${thickness} ${lineStyle} currentcolor`, 'height:0');
        // in a row the length is the line's flex basis, as a width is for other elements
        if (length) extra.push(...(parent?.type === 'row' && e.width === undefined ? [`flex:0 0 ${length}`] : []), `width:${length}`, 'max-width:100%');
      }
      step.rootStyle = mergeStyles(step.rootStyle, { color: e.color ?? '#000000' });
    },
    declaredHeight: (e, of) => (e.orientation === 'vertical' ? of(e.length ?? '10mm', true) : null),
    draw: block,
  },
  box: {
    prepare: (p, e, { region, font, extra, prep }) => {
      const height = lengthCss(e.height);
      if (height) extra.push(`height:${height}`);
      extra.push('box-sizing:border-box');
      p.prepareElements(e.elements ?? [], region, e, font, false, prep.widthMm);
    },
    declaredHeight: (e) => {
      // border-box: padding and borders are inside the height
      const mm = lengthMm(e.height, null);
      return mm === null ? null : { mm, exact: true };
    },
    draw: block,
  },
  pageBreak: {
    prepare: (p, e, { breakAllowed }) => {
      if (!breakAllowed) {
        p.issue(RenderIssueType.InvalidLayout, 'A page break only works in the page body or in a column repeater; this one is ignored.', e.id);
      }
    },
    declaredHeight: contentHeight,
    draw: directed((_r, _e, prep) => (prep.breakAllowed ? '<div class="pb"></div>' : '')),
  },
  qrCode: {
    prepare: (p, e, { region, extra, prep }) => {
      const size = lengthCss(e.size ?? DEFAULT_QR_SIZE) ?? '30mm';
      extra.push(`width:${size}`, `height:${size}`);
      prep.inner = p.classed(region, { color: e.color ?? '#000000', backgroundColor: e.backgroundColor ?? '#ffffff' }, [], e.id);
    },
    declaredHeight: (e, of) => of(e.size ?? DEFAULT_QR_SIZE, true),
    draw: directed((r, e, prep, scope) => r.qrCode(e, prep, scope)),
  },
  barcode: {
    prepare: (p, e, { region, extra, prep }) => {
      const height = lengthCss(barcodeHeight(e)) ?? '15mm';
      extra.push(`height:${height}`);
      if (isSquare(e.format) && e.width === undefined) extra.push(`width:${height}`);
      if (e.showText === true && isTwoDimensional(e.format)) {
        p.issue(RenderIssueType.InvalidLayout, `A ${codeFormatName(e.format)} has no human-readable text; showText is ignored.`, e.id);
      }
      if (e.errorCorrection !== undefined && e.format !== 'qr') {
        p.issue(RenderIssueType.InvalidLayout, `errorCorrection applies to QR codes only; the ${codeFormatName(e.format)} ignores it.`, e.id);
      }
      prep.inner = p.classed(region, { color: e.color ?? '#000000', ...(e.backgroundColor === undefined ? {} : { backgroundColor: e.backgroundColor }) }, [], e.id);
    },
    declaredHeight: (e, of) => of(barcodeHeight(e), isTwoDimensional(e.format)),
    draw: directed((r, e, prep, scope) => r.barcode(e, prep, scope)),
  },
  chart: {
    prepare: (p, e, { region, font, extra, prep }) => {
      prep.heightMm = lengthMm(e.height, null) ?? DEFAULT_CHART_HEIGHT_MM;
      const width = lengthCss(e.width);
      extra.push(`height:${prep.heightMm}mm`);
      if (!width) extra.push('width:100%');
      p.face(region, font);
      if (e.title !== undefined) p.face(region, { ...font, weight: 700 });
      for (const reason of ignoredChartOptions(e)) p.issue(RenderIssueType.InvalidChartConfig, `${reason}.`, e.id);
    },
    declaredHeight: (e, of) => of(e.height ?? `${DEFAULT_CHART_HEIGHT_MM}mm`, true),
    draw: directed((r, e, prep, scope) => r.chart(e, prep, scope)),
  },
};

/** The compiler's steps for an element, typed for any element (the table holds the ones for its type). */
export function stepsOf(element: TemplateElement): ElementSteps<TemplateElement> {
  return ELEMENT_STEPS[element.type] as ElementSteps<TemplateElement>;
}
