import { ValidateFunction } from 'ajv';
import { DocumentCaps, RenderIssueType } from '@docrender/contracts';
import { BindingSyntaxError, parseTemplateTextCached, TemplateSegments } from '../binding/binding-syntax';
import { pageCounterOf, usesPageCounterInExpression } from '../binding/binding-evaluator';
import { compileDataSchema } from '../data/data-contract';
import { builtinFamilyName, DEFAULT_FONT_FAMILY, FontFaceRef, FontStyle } from '../fonts/font-registry';
import { modelOf } from '../model/element-model';
import { bandVariants, pageBackgroundsOf, Region, textFieldsOf, watermarksOf } from '../model/template-walker';
import { Length, StyleProperties, TableElement, Template, TemplateElement } from '../model/template.types';
import { validateTemplate } from '../schema/validate-template';
import { DynamicColour, familyListCss, fontWeightNumber, mergeStyles, StyleRegistry, styleCss } from '../style/style-css';
import { lengthCss, lengthMm } from '../style/length';
import { DeclaredHeight, PrepareStep, stepsOf } from './element-steps';
import { PageGeometry, resolvePageSetup } from './page-setup';
import { pagesDiffer, repeatedRoles } from './page-roles';

/** A problem known from the template alone, reported with every document rendered from it. */
export interface StaticIssue {
  type: RenderIssueType;
  description: string;
  elementId: string | null;
}

export interface ClassedStyle {
  cls: string | null;
  dynamic: DynamicColour[];
  /**
   * A placed element (`position`) whose bottom the compiler cannot know (text, content of unknown height): its root
   * is marked `data-p="<id>"`, and the printer reports it if it reaches below the first page's content area.
   */
  placedId?: string;
}

export interface TablePrep {
  table: ClassedStyle;
  columnWidths: (string | null)[];
  head: ClassedStyle[];
  cells: ClassedStyle[];
  row: ClassedStyle;
  alternateRow: ClassedStyle;
  totals: ClassedStyle;
  /** The rows at page breaks (TableElement.pageBreaks). */
  breakRows: ClassedStyle;
  /** Whether each column's header / cells are hyphenated (the table's `hyphenate`, or the column style's). */
  hyphenateHead: boolean[];
  hyphenateCells: boolean[];
}

export interface ElementPrep {
  region: Region;
  /** The element's root: its style plus layout. */
  root: ClassedStyle;
  /** A second box some elements have (the img of an image, the items of a repeater). */
  inner: ClassedStyle;
  /** Repeater items after the first in column layout (the gap). */
  gap: string | null;
  /** Page breaks are honoured in the body flow only. */
  breakAllowed: boolean;
  /** Size in millimetres, for elements drawn at a pixel size (charts). */
  widthMm: number;
  heightMm: number;
  table: TablePrep | null;
  /** The effective font family (for charts). */
  fontFamily: string;
  /** The face the element's own text resolves to (the glyph coverage check). */
  face: FontFaceRef;
  /** Whether the element's own text is hyphenated (the style's `hyphenate`, inherited). */
  hyphenate: boolean;
}

export interface PreparedTemplate {
  template: Template;
  page: PageGeometry;
  registries: Record<Region, StyleRegistry>;
  /** Declarations and colour bindings of the document's default style (body and bands). */
  base: ClassedStyle & { declarations: string; font: FontFaceRef };
  elements: Map<TemplateElement, ElementPrep>;
  staticIssues: StaticIssue[];
  /** Static issues that hold in a left-to-right / a right-to-left document only (placed elements). */
  directedIssues: Record<'ltr' | 'rtl', StaticIssue[]>;
  /** CSS placing the placed elements from the right edge, for a right-to-left document (after the body's classes). */
  mirroredCss: string;
  /** Whether pages differ (page roles, band conditions on page counters): see CompiledDocument.pageVariant. */
  pagesDiffer: boolean;
  /** Faces used per region (family as written when not built in; built-in names canonical). */
  faces: Record<Region, UsedFace[]>;
  dataValidator: ValidateFunction | null;
}

/** A type face the template uses, with the first element that uses it. */
export interface UsedFace extends FontFaceRef {
  elementId: string | null;
}

/** Thrown by the compiler for a template that `validateTemplate` rejects: validate templates first. */
export class InvalidTemplateError extends Error {
  constructor(readonly errors: { path: string; message: string }[]) {
    super(`The template is not valid: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    this.name = 'InvalidTemplateError';
  }
}

/** The family CSS for a template family name: built-ins canonical, others as written, the default last. */
export function familyCss(family: string): string {
  return familyListCss(builtinFamilyName(family) ?? family.trim(), DEFAULT_FONT_FAMILY);
}

/** What an element's text inherits from around it: its face, and whether it is hyphenated (`hyphenate`). */
export interface FontState {
  family: string;
  weight: number;
  style: FontStyle;
  hyphenate: boolean;
}

function fontStateWith(state: FontState, style: StyleProperties): FontState {
  return {
    family: style.fontFamily !== undefined ? (builtinFamilyName(style.fontFamily) ?? style.fontFamily.trim()) : state.family,
    weight: fontWeightNumber(style.fontWeight) ?? state.weight,
    style: style.italic === undefined ? state.style : style.italic ? 'italic' : 'normal',
    hyphenate: style.hyphenate ?? state.hyphenate,
  };
}

/** Prepares the elements of a template (prepareTemplate); the per-type steps are ELEMENT_STEPS (element-steps.ts). */
export class Preparer {
  readonly registries: Record<Region, StyleRegistry> = { body: new StyleRegistry('s'), header: new StyleRegistry('h'), footer: new StyleRegistry('f') };
  readonly elements = new Map<TemplateElement, ElementPrep>();
  readonly staticIssues: StaticIssue[] = [];
  /** Problems of placed elements in a left-to-right and in a right-to-left document. */
  readonly directedIssues: Record<'ltr' | 'rtl', StaticIssue[]> = { ltr: [], rtl: [] };
  /** Classes of placed elements → their declarations in a right-to-left document (measured from the right edge). */
  readonly mirrored = new Map<string, string>();
  readonly faces: Record<Region, Map<string, UsedFace>> = { body: new Map(), header: new Map(), footer: new Map() };
  private currentElementId: string | null = null;

  constructor(
    private readonly template: Template,
    private readonly page: PageGeometry,
  ) {}

  issue(type: RenderIssueType, description: string, elementId: string | null): void {
    this.staticIssues.push({ type, description, elementId });
  }

  face(region: Region, state: FontFaceRef): void {
    const key = `${state.family}|${state.weight}|${state.style}`;
    if (!this.faces[region].has(key)) {
      this.faces[region].set(key, { family: state.family, weight: state.weight, style: state.style, elementId: this.currentElementId });
    }
  }

  namedStyles(names: string | string[] | undefined): StyleProperties[] {
    const list = names === undefined ? [] : Array.isArray(names) ? names : [names];
    return list.map((n) => this.template.styles?.[n]).filter((s): s is StyleProperties => s !== undefined);
  }

  /** Registers the CSS of a style plus extra layout declarations; reports invalid literal colours. */
  classed(region: Region, style: StyleProperties, extra: string[], elementId: string | null): ClassedStyle {
    const css = styleCss(style, familyCss);
    for (const colour of css.invalidColours) {
      this.issue(RenderIssueType.InvalidColor, `"${colour}" is not a colour (use a CSS name, #rrggbb, rgb(), rgba() or hsl()); it is ignored.`, elementId);
    }
    const declarations = [css.declarations, ...extra].filter((d) => d.length > 0).join(';');
    return { cls: this.registries[region].classFor(declarations), dynamic: css.dynamic };
  }

  widthDeclarations(width: Length | undefined, parent: TemplateElement | null, elementId: string, availableMm: number): string[] {
    const css = lengthCss(width);
    const inRow = parent?.type === 'row';
    if (css === null) return inRow ? ['flex:1 1 0', 'min-width:0'] : [];
    const mm = lengthMm(width);
    if (mm !== null && mm > availableMm + 0.01) {
      this.issue(
        RenderIssueType.RenderLayoutDegraded,
        `The width ${css} is wider than the room it has (about ${Math.round(availableMm)} mm); the element is narrowed to fit.`,
        elementId,
      );
    }
    return inRow ? [`flex:0 0 ${css}`, `width:${css}`, 'max-width:100%'] : [`width:${css}`, 'max-width:100%'];
  }

  prepareElements(
    elements: readonly TemplateElement[],
    region: Region,
    parent: TemplateElement | null,
    font: FontState,
    breakAllowed: boolean,
    availableMm: number | ((index: number) => number),
  ): void {
    elements.forEach((element, i) => {
      this.prepareElement(element, region, parent, font, breakAllowed, typeof availableMm === 'number' ? availableMm : availableMm(i));
    });
  }

  /** Room of each element of a row: its own width, or an equal share of what the sized ones leave. */
  rowShares(elements: readonly TemplateElement[], gap: Length | undefined, availableMm: number): (index: number) => number {
    const gapMm = lengthMm(gap, availableMm) ?? 0;
    const widths = elements.map((e) => (e.type === 'pageBreak' ? 0 : lengthMm(e.width, availableMm)));
    const fixed = widths.reduce<number>((sum, w) => sum + (w ?? 0), 0);
    const unsized = widths.filter((w) => w === null).length;
    const share = unsized > 0 ? Math.max(10, (availableMm - fixed - gapMm * Math.max(0, elements.length - 1)) / unsized) : 0;
    return (i) => Math.min(widths[i] ?? share, availableMm);
  }

  /** Room of each cell of a grid. */
  gridShares(columns: number | Length[], gap: Length | undefined, availableMm: number): (index: number) => number {
    const gapMm = lengthMm(gap, availableMm) ?? 0;
    if (typeof columns === 'number') return () => Math.max(10, (availableMm - gapMm * (columns - 1)) / columns);
    const fixed = columns.map((c) => (typeof c === 'string' && (c === 'auto' || c.endsWith('fr')) ? null : lengthMm(c, availableMm)));
    const fr = columns.map((c) => (typeof c === 'string' && c.endsWith('fr') ? Number(c.slice(0, -2)) : c === 'auto' ? 1 : 0));
    const rest = availableMm - fixed.reduce<number>((sum, w) => sum + (w ?? 0), 0) - gapMm * (columns.length - 1);
    const frTotal = fr.reduce((a, b) => a + b, 0) || 1;
    return (i) => {
      const k = i % columns.length;
      return Math.max(10, fixed[k] ?? (rest * fr[k]) / frTotal);
    };
  }

  prepareElement(
    element: TemplateElement,
    region: Region,
    parent: TemplateElement | null,
    inherited: FontState,
    breakAllowed: boolean,
    availableMm: number,
  ): void {
    if (this.template.pdfUA !== undefined && region === 'body' && modelOf(element).figure && (!('alt' in element) || element.alt === undefined)) {
      this.issue(
        RenderIssueType.SchemaInvalid,
        `${this.template.pdfUA} asks for alternative text: the ${element.type} has no "alt" (give the text a reader hears, or "" to mark it as decoration).`,
        element.id,
      );
    }
    this.currentElementId = element.id;
    const ownStyle = element.type === 'pageBreak' ? {} : mergeStyles(...this.namedStyles(element.styleName), element.style);
    if (typeof ownStyle.letterSpacing === 'string' && ownStyle.letterSpacing.endsWith('%')) {
      this.issue(RenderIssueType.InvalidLayout, `letterSpacing ${ownStyle.letterSpacing} is not an absolute length (pt, mm, cm, in, px); it is ignored.`, element.id);
    }
    const tooLong = element.type === 'pageBreak' ? null : this.lengthPastCap(element, ownStyle);
    if (tooLong !== null) {
      this.issue(RenderIssueType.RenderLayoutDegraded, `${tooLong}; the element is left out.`, element.id);
      return;
    }
    const font = fontStateWith(inherited, ownStyle);
    const extra: string[] = [];
    let placed = false;
    let mirrored: string | null = null;
    const none: ClassedStyle = { cls: null, dynamic: [] };
    const prep: ElementPrep = {
      region,
      root: none,
      inner: none,
      gap: null,
      breakAllowed,
      widthMm: availableMm,
      heightMm: 0,
      table: null,
      fontFamily: font.family,
      face: { family: font.family, weight: font.weight, style: font.style },
      hyphenate: font.hyphenate,
    };
    if (element.type !== 'pageBreak') {
      const lineInRow = element.type === 'line' && element.orientation !== 'vertical' && element.width === undefined && lengthCss(element.length) !== null;
      if (!lineInRow || parent?.type !== 'row') extra.push(...this.widthDeclarations(element.width, parent, element.id, availableMm));
      if (element.keepTogether) extra.push('break-inside:avoid');
      const widthMm = lengthMm(element.width, availableMm);
      if (widthMm !== null) prep.widthMm = Math.min(widthMm, availableMm);
      extra.push(...this.flowDeclarations(element, region, breakAllowed));
      const placement = this.placement(element, ownStyle, region);
      extra.push(...placement.css);
      placed = placement.measure;
      mirrored = placement.mirrored;
    }
    if (region === 'body') this.checkPageCounters(element);
    else this.checkBandCounters(element);
    if (region !== 'body' && element.type !== 'pageBreak' && element.anchor !== undefined) {
      this.issue(RenderIssueType.InvalidLayout, 'anchor only names a place in the page body; a header or footer is on every page, so it is ignored.', element.id);
    }

    const step: PrepareStep = { region, parent, font, breakAllowed, extra, prep, rootStyle: ownStyle };
    stepsOf(element).prepare(this, element, step);
    prep.root = this.classed(region, step.rootStyle, extra, element.id);
    if (placed) prep.root.placedId = element.id;
    if (mirrored !== null && prep.root.cls) this.mirrored.set(prep.root.cls, mirrored);
    this.elements.set(element, prep);
  }

  /**
   * The first length of an element (its own fields, its table's columns, its style) past DocumentCaps: an absolute
   * length longer than the sheet's longer side, or a percentage above DocumentCaps.maxPercent. Null when there is none.
   */
  lengthPastCap(element: Exclude<TemplateElement, { type: 'pageBreak' }>, style: StyleProperties): string | null {
    const maxMm = Math.max(this.page.widthMm, this.page.heightMm);
    const { elements: _children, ...own } = element as TemplateElement & { elements?: unknown };
    for (const [field, length] of lengthsIn({ ...own, style }, '')) {
      if (typeof length === 'string' && length.endsWith('%')) {
        if (Number(length.slice(0, -1)) > DocumentCaps.maxPercent) return `${field.slice(1)} ${length} is more than ${DocumentCaps.maxPercent} %`;
        continue;
      }
      const mm = lengthMm(length);
      if (mm !== null && mm > maxMm + 0.01) {
        return `${field.slice(1)} ${typeof length === 'number' ? `${length}pt` : length} (${mmText(mm)}) is longer than the sheet (${mmText(maxMm)})`;
      }
    }
    return null;
  }

  prepareTable(table: TableElement, region: Region, font: FontState, availableMm: number): TablePrep {
    const borders = table.borders ?? 'horizontal';
    const borderColour = table.borderColor ?? '#c8c8c8';
    const line = { width: 0.75, style: 'solid' as const, color: borderColour };
    const cellBorder: StyleProperties =
      borders === 'all' ? { border: line } : borders === 'horizontal' ? { borderBottom: line } : {};
    const tableBorder: StyleProperties = borders === 'all' || borders === 'outer' ? { border: line } : {};
    const widths = this.columnWidths(table, availableMm);
    const head: ClassedStyle[] = [];
    const cells: ClassedStyle[] = [];
    const hyphenateHead: boolean[] = [];
    const hyphenateCells: boolean[] = [];
    const headerBase = mergeStyles({ fontWeight: 700 }, table.headerStyle);
    table.columns.forEach((column) => {
      const align = column.align ? [`text-align:${column.align}`] : [];
      const headStyle = mergeStyles(cellBorder, headerBase, column.headerStyle);
      head.push(this.classed(region, headStyle, align, table.id));
      const cellStyle = mergeStyles(cellBorder, ...this.namedStyles(column.styleName), column.style);
      cells.push(this.classed(region, cellStyle, align, table.id));
      const headState = fontStateWith(font, headStyle);
      const cellState = fontStateWith(font, cellStyle);
      this.face(region, headState);
      this.face(region, cellState);
      hyphenateHead.push(headState.hyphenate);
      hyphenateCells.push(cellState.hyphenate);
    });
    const totalsStyle = mergeStyles({ fontWeight: 700 }, table.totals?.style);
    if (table.totals) this.face(region, fontStateWith(font, totalsStyle));
    const breakStyle = mergeStyles({ italic: true }, table.pageBreaks?.style);
    if (table.pageBreaks) {
      this.face(region, fontStateWith(font, breakStyle));
      if (region !== 'body') {
        this.issue(RenderIssueType.InvalidLayout, 'pageBreaks only works for a table in the page body; in a header or footer it is ignored.', table.id);
      }
    }
    if (table.emptyText !== undefined) this.face(region, font);
    return {
      table: this.classed(region, tableBorder, [], table.id),
      columnWidths: widths,
      head,
      cells,
      row: this.classed(region, table.rowStyle ?? {}, [], table.id),
      alternateRow: this.classed(region, mergeStyles(table.rowStyle, table.alternateRowStyle), [], table.id),
      totals: this.classed(region, totalsStyle, [], table.id),
      breakRows: table.pageBreaks ? this.classed(region, breakStyle, [], table.id) : { cls: null, dynamic: [] },
      hyphenateHead,
      hyphenateCells,
    };
  }

  /** Column widths as CSS; widths that cannot fit are scaled down proportionally (RenderLayoutDegraded). */
  columnWidths(table: TableElement, content: number): (string | null)[] {
    const mm = table.columns.map((c) => lengthMm(c.width, content));
    const total = mm.reduce<number>((sum, w) => sum + (w ?? 0), 0);
    if (total > content + 0.01) {
      this.issue(
        RenderIssueType.RenderLayoutDegraded,
        `The column widths add up to ${Math.round(total)} mm but the table has ${Math.round(content)} mm; they are scaled down proportionally.`,
        table.id,
      );
      return mm.map((w) => (w === null ? null : `${Math.round((w / total) * 100000) / 1000}%`));
    }
    return table.columns.map((c) => lengthCss(c.width));
  }

  /** Page-flow declarations: keep-with-next, forced breaks, absolute placement (reported where they cannot work). */
  flowDeclarations(element: Exclude<TemplateElement, { type: 'pageBreak' }>, region: Region, breakAllowed: boolean): string[] {
    const out: string[] = [];
    if (region !== 'body') {
      const paged = [
        element.keepTogether ? 'keepTogether' : null,
        element.keepWithNext ? 'keepWithNext' : null,
        'orphans' in element && element.orphans !== undefined ? 'orphans' : null,
        'widows' in element && element.widows !== undefined ? 'widows' : null,
      ].filter((f) => f !== null);
      if (paged.length > 0) {
        this.issue(RenderIssueType.InvalidLayout, `${paged.join(', ')} only matter where pages break; a header or footer never breaks, so they are ignored.`, element.id);
      }
    }
    const keepWithNext = element.keepWithNext ?? (element.type === 'text' && element.heading !== undefined);
    if (keepWithNext) out.push('break-after:avoid');
    for (const [field, side] of [['pageBreakBefore', 'before'], ['pageBreakAfter', 'after']] as const) {
      if (!element[field]) continue;
      if (breakAllowed) out.push(`break-${side}:page`);
      else this.issue(RenderIssueType.InvalidLayout, `${field} only works in the page body or in a column repeater; it is ignored here.`, element.id);
    }
    return out;
  }

  /**
   * Absolute placement (`position`), measured from the sheet edge: the left edge, the right edge in a right-to-left
   * document (the two are prepared, the document's direction picks one). A place in the start (left or right) or top
   * margin moves to the margin (InvalidLayout); an element that reaches below the bottom margin or past the end margin
   * is reported (RenderLayoutDegraded: Chromium adds a page for what is below, and shrinks the content to fit what is
   * beside) when its size is declared; `measure` is set when its height is not known here (text, content): the printer checks it.
   */
  placement(element: Exclude<TemplateElement, { type: 'pageBreak' }>, ownStyle: StyleProperties, region: Region): { css: string[]; mirrored: string | null; measure: boolean } {
    if (!element.position) return { css: [], mirrored: null, measure: false };
    const x = lengthCss(element.position.x);
    const y = lengthCss(element.position.y);
    if (region !== 'body') {
      this.issue(RenderIssueType.InvalidLayout, 'position only places elements of the page body; in a header or footer it is ignored.', element.id);
      return { css: [], mirrored: null, measure: false };
    }
    if (x === null || y === null || x.endsWith('%') || y.endsWith('%')) {
      this.issue(RenderIssueType.InvalidLayout, 'position needs absolute lengths (not percentages); it is ignored.', element.id);
      return { css: [], mirrored: null, measure: false };
    }
    const { marginMm: m, widthMm: sheetWidth, heightMm: sheetHeight, contentWidthMm } = this.page;
    const xMm = lengthMm(element.position.x) ?? 0;
    const yMm = lengthMm(element.position.y) ?? 0;
    const top = Math.max(yMm, m.top);
    const contentBottom = sheetHeight - m.bottom;
    const widthMm = lengthMm(element.width, contentWidthMm);
    const sides = { ltr: { start: m.left, end: m.right, from: 'left', to: 'right' }, rtl: { start: m.right, end: m.left, from: 'right', to: 'left' } } as const;
    for (const dir of ['ltr', 'rtl'] as const) {
      const { start, end, from, to } = sides[dir];
      const issue = (type: RenderIssueType, description: string): void => {
        this.directedIssues[dir].push({ type, description, elementId: element.id });
      };
      if (xMm < start - 0.01 || yMm < m.top - 0.01) {
        issue(
          RenderIssueType.InvalidLayout,
          `position (${x}, ${y}) lies in the ${from} or top margin (${start} mm, ${m.top} mm), where Chromium cuts the content off; the element is placed at the margin.`,
        );
      }
      const contentEnd = sheetWidth - end;
      const reach = Math.max(xMm, start) + (widthMm ?? 0);
      if (widthMm !== null && reach > contentEnd + 0.01) {
        issue(
          RenderIssueType.RenderLayoutDegraded,
          `The placed element reaches ${mmText(reach)} from the ${from} edge, past the ${to} margin (the content ends at ${mmText(contentEnd)}); Chromium shrinks the document's content until it fits.`,
        );
      }
    }
    const height = declaredHeightMm(element, ownStyle);
    const reported = top >= contentBottom - 0.01 || (height !== null && top + height.mm > contentBottom + 0.01);
    if (reported) {
      this.issue(
        RenderIssueType.RenderLayoutDegraded,
        height === null
          ? `The placed element starts ${mmText(top)} from the top edge, below the bottom margin (the content ends at ${mmText(contentBottom)}); Chromium adds a page for it.`
          : `The placed element reaches ${mmText(top + height.mm)} from the top edge, below the bottom margin (the content ends at ${mmText(contentBottom)}); Chromium adds a page for what lies below.`,
        element.id,
      );
    }
    const inset = (margin: number): string => (xMm < margin ? '0mm' : `calc(${x} - ${margin}mm)`);
    const css = ['position:absolute', `left:${inset(m.left)}`, `top:${yMm < m.top ? '0mm' : `calc(${y} - ${m.top}mm)`}`, 'margin:0'];
    return { css, mirrored: `left:auto;right:${inset(m.right)}`, measure: !reported && (height === null || !height.exact) };
  }

  /**
   * Page counters in a band become the spans Chromium fills (decision 0011): that works in shown text, on its own or
   * as a `t()` argument. Anywhere else — an expression, a formatter, an attribute (alt text, an image source), a
   * code's value, a chart's text — there is no number to use, so the template is told (InvalidLayout).
   */
  checkBandCounters(element: TemplateElement): void {
    for (const [field, text] of textFieldsOf(element, '')) {
      const parsed = parseTemplateTextCached(text);
      if (parsed instanceof BindingSyntaxError) continue;
      const bindings = parsed.filter((s) => typeof s !== 'string');
      const shownAsText = SHOWN_AS_TEXT.test(field);
      const misused = bindings.find((b) => usesPageCounterInExpression(b) || (!shownAsText && pageCounterOf(b) !== null));
      if (misused === undefined) continue;
      this.issue(
        RenderIssueType.InvalidLayout,
        shownAsText
          ? `"{{ ${misused.source} }}": in a header or footer pageNumber and totalPages can only be shown as they are ({{ pageNumber }}) or passed to t(); in an expression they are not numbers, and the result is not the page number.`
          : `"{{ ${misused.source} }}" in ${field.slice(1)}: in a header or footer pageNumber and totalPages can only be shown in text; Chromium cannot fill them in here, so they do not give the page number.`,
        element.id,
      );
    }
  }

  checkPageCounters(element: TemplateElement): void {
    for (const [, text] of textFieldsOf(element, '')) {
      const parsed = parseTemplateTextCached(text);
      if (parsed instanceof BindingSyntaxError) continue;
      if (parsed.some((s) => typeof s !== 'string' && pageCounterOf(s) !== null)) {
        this.issue(
          RenderIssueType.InvalidLayout,
          'pageNumber and totalPages are only known in the header and footer; in the body they are read from the data.',
          element.id,
        );
        return;
      }
    }
  }
}

/** Fields that hold lengths (or lists of them: padding, margin, a grid's columns), wherever they are in an element. */
const LENGTH_FIELDS = new Set(['width', 'height', 'size', 'length', 'thickness', 'gap', 'rowGap', 'x', 'y', 'borderRadius', 'letterSpacing', 'padding', 'margin', 'columns']);

/** Every length in `value` (an element without its children, with its style) with its path, e.g. `.style.padding[1]`. */
function lengthsIn(value: unknown, path: string, inLengthField = false): [string, Length][] {
  if (inLengthField && (typeof value === 'number' || (typeof value === 'string' && LENGTH_TEXT.test(value)))) return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => lengthsIn(v, `${path}[${i}]`, inLengthField));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => lengthsIn(v, `${path}.${key}`, LENGTH_FIELDS.has(key)));
}

const LENGTH_TEXT = /^[0-9]+(\.[0-9]+)?(pt|mm|cm|in|px|%)$/;

/** Text fields (textFieldsOf paths) printed as text, where a band's page counters become Chromium's spans. */
const SHOWN_AS_TEXT = /^\.(text|markdown|emptyText|columns\[\d+\]\.(header|value)|totals\.cells\[.*\])$/;

function mmText(mm: number): string {
  return `${Math.round(mm * 10) / 10} mm`;
}

/**
 * The height an element declares, in millimetres: `exact` when its box is that tall, else a least height (padding,
 * borders, a code's text or an image's line box may add to it). Null for elements whose height comes from content.
 */
function declaredHeightMm(element: TemplateElement, style: StyleProperties): DeclaredHeight | null {
  const framed = Object.keys(style).some((k) => k.startsWith('padding') || k.startsWith('border'));
  const of = (length: Length | undefined, exact: boolean): DeclaredHeight | null => {
    const mm = lengthMm(length, null);
    return mm === null ? null : { mm, exact: exact && !framed };
  };
  return stepsOf(element).declaredHeight(element, of);
}

const preparedByTemplate = new WeakMap<object, PreparedTemplate>();

/** Resolves everything known from the template alone, once per template object. */
export function prepareTemplate(input: unknown): PreparedTemplate {
  if (typeof input === 'object' && input !== null) {
    const hit = preparedByTemplate.get(input);
    if (hit) return hit;
  }
  const validation = validateTemplate(input);
  if (!validation.ok) throw new InvalidTemplateError(validation.errors);
  const template = validation.template;
  const { geometry, problems, warnings } = resolvePageSetup(template.page);
  const preparer = new Preparer(template, geometry);
  for (const problem of problems) preparer.issue(RenderIssueType.InvalidLayout, problem, null);
  for (const warning of warnings) preparer.issue(RenderIssueType.RenderLayoutDegraded, warning, null);

  const baseStyle = mergeStyles({ fontFamily: DEFAULT_FONT_FAMILY, fontSize: 10, color: '#000000', lineHeight: 1.35 }, template.defaultStyle);
  const baseCss = styleCss(baseStyle, familyCss);
  for (const colour of baseCss.invalidColours) {
    preparer.issue(RenderIssueType.InvalidColor, `"${colour}" in defaultStyle is not a colour; it is ignored.`, null);
  }
  const baseFont = fontStateWith({ family: DEFAULT_FONT_FAMILY, weight: 400, style: 'normal', hyphenate: false }, baseStyle);
  preparer.face('body', baseFont);
  const contentMm = geometry.contentWidthMm;
  preparer.prepareElements(template.body, 'body', null, baseFont, true, contentMm);
  for (const v of bandVariants(template.page?.header)) preparer.prepareElements(v.variant.elements, 'header', null, baseFont, false, contentMm);
  for (const v of bandVariants(template.page?.footer)) preparer.prepareElements(v.variant.elements, 'footer', null, baseFont, false, contentMm);

  const differ = pagesDiffer(template);
  if (differ && template.pdfUA !== undefined) {
    preparer.issue(
      RenderIssueType.SchemaInvalid,
      `${template.pdfUA} needs a tagged PDF, and pages that differ (first/last/odd/even variants, or conditions on page counters) are printed in groups and put together, which drops the tags: give every page the same bands, backgrounds and watermarks, or leave pdfUA out.`,
      null,
    );
  } else if (differ && template.tagged) {
    preparer.issue(
      RenderIssueType.RenderLayoutDegraded,
      'Pages that differ (first/last/odd/even variants, or conditions on page counters) are printed in groups and put together, which drops the tags: the PDF is not tagged.',
      null,
    );
  }
  const backgrounds = pageBackgroundsOf(template.page);
  for (const i of repeatedRoles(backgrounds, (b) => b.pages ?? 'all')) {
    preparer.issue(RenderIssueType.InvalidLayout, `Page background ${i + 1} is for the same pages as an earlier one; it is not used.`, null);
  }
  const watermarks = watermarksOf(template.page);
  for (const i of repeatedRoles(watermarks, (w) => w.pages ?? 'all')) {
    preparer.issue(RenderIssueType.InvalidLayout, `Watermark ${i + 1} is for the same pages as an earlier one; it is not used.`, null);
  }

  let dataValidator: ValidateFunction | null = null;
  if (template.dataSchema !== undefined) {
    const compiled = compileDataSchema(template.dataSchema);
    dataValidator = typeof compiled === 'string' ? null : compiled;
  }
  const prepared: PreparedTemplate = {
    template,
    page: geometry,
    registries: preparer.registries,
    base: { cls: null, dynamic: baseCss.dynamic, declarations: baseCss.declarations, font: baseFont },
    elements: preparer.elements,
    staticIssues: preparer.staticIssues,
    directedIssues: preparer.directedIssues,
    mirroredCss: [...preparer.mirrored].map(([cls, declarations]) => `.${cls}{${declarations}}\n`).join(''),
    pagesDiffer: differ,
    faces: {
      body: [...preparer.faces.body.values()],
      header: [...preparer.faces.header.values()],
      footer: [...preparer.faces.footer.values()],
    },
    dataValidator,
  };
  if (typeof input === 'object' && input !== null) preparedByTemplate.set(input, prepared);
  return prepared;
}

/** Text segments of template text; the template was validated, so parsing succeeds. */
export function segmentsOf(text: string): TemplateSegments {
  const parsed = parseTemplateTextCached(text);
  return parsed instanceof BindingSyntaxError ? [text] : parsed;
}
