import { DocumentCaps, RenderIssueType } from '@docrender/contracts';
import { Binding, TemplateSegments } from '../binding/binding-syntax';
import { bindingText, evaluateBinding, isMarkdownBinding, pageCounterOf, pageReferenceOf, renderPlainText, reportBudget } from '../binding/binding-evaluator';
import { loopInfo, Scope } from '../binding/scope';
import { isValidCurrency } from '../binding/formatters';
import { evaluateCondition } from '../condition/condition-evaluator';
import { BudgetExceeded, EVALUATION_STEPS, Evaluation } from '../expression/expression-evaluator';
import { ExpressionSyntaxError, parseExpression } from '../expression/expression-syntax';
import { describeValue, toNumber } from '../expression/values';
import { modelOf } from '../model/element-model';
import { Region } from '../model/template-walker';
import {
  BarcodeElement,
  ChartElement,
  ImageElement,
  QrCodeElement,
  RepeaterElement,
  RichTextElement,
  TableElement,
  TemplateElement,
  TextElement,
} from '../model/template.types';
import { parseColour } from '../style/colour';
import { DynamicColour } from '../style/style-css';
import { mmToPx } from '../style/length';
import { chartShareFormatter, chartSvg, chartValueFormatter, formatChartLabel } from './chart';
import { CodeFormat, codeFormatName, CodeOptions, codeSvg, isTwoDimensional } from './codes';
import { CompileContext, PLACED_ATTRIBUTE } from './compile-context';
import { BaseDirection, firstStrongDirection, hasRtl, keptUnbroken } from './direction';
import { BreakRowsEncoder } from './break-rows';
import { cutText, cutUnbrokenRuns } from './document-caps';
import { stepsOf } from './element-steps';
import { escapeHtml } from './html';
import { hyphenateHtml } from './hyphenation';
import { renderMarkdown } from './markdown';
import { anchorHtmlId, MAX_ANCHOR_LENGTH, UNRESOLVED_PAGE } from './page-references';
import { ClassedStyle, ElementPrep, segmentsOf } from './prepared-template';

function classAttr(...classes: (string | null)[]): string {
  let list = '';
  for (const c of classes) if (c) list = list ? `${list} ${c}` : c;
  return list ? ` class="${list}"` : '';
}

/** Colours given as bindings, resolved for this instance; invalid ones are reported and left out. */
function dynamicStyle(dynamic: readonly DynamicColour[], scope: Scope, ctx: CompileContext, elementId: string | null): string {
  if (dynamic.length === 0) return '';
  const parts: string[] = [];
  for (const d of dynamic) {
    const text = renderPlainText(segmentsOf(d.text), scope, ctx.env, elementId).trim();
    if (text === '') continue;
    const colour = parseColour(text);
    if (colour) parts.push(`${d.property}:${colour}`);
    else ctx.issues.add(RenderIssueType.InvalidColor, `"${text.slice(0, 60)}" (from "${d.text}") is not a colour; it is ignored.`, elementId);
  }
  return parts.length > 0 ? ` style="${parts.join(';')}"` : '';
}

function attrs(style: ClassedStyle, scope: Scope, ctx: CompileContext, elementId: string | null, ...base: (string | null)[]): string {
  const html = classAttr(...base, style.cls) + dynamicStyle(style.dynamic, scope, ctx, elementId);
  if (style.placedId === undefined) return html;
  ctx.placedToMeasure++;
  return `${html} ${PLACED_ATTRIBUTE}="${escapeHtml(style.placedId)}"`;
}

/** Template text evaluated: literals, values (with the text they show), a band's page counters and page references (their markup). */
type TextPart = string | { counter: 'pageNumber' | 'totalPages' } | { reference: string } | { value: unknown; text: string; binding: Binding };

/**
 * A page reference (`{{ pageOf(…) }}` on its own in text of the page body, pageReferenceOf) as markup: a link to the
 * anchor its argument names, which the printer fills with the page (page-references.ts); UNRESOLVED_PAGE when the
 * argument names no anchor (reported). Null for any other binding.
 */
function pageReference(binding: Binding, scope: Scope, ctx: CompileContext, elementId: string | null, region: Region): string | null {
  const reference = region === 'body' ? pageReferenceOf(binding) : null;
  if (reference === null) return null;
  const text = bindingText(evaluateBinding(reference, scope, ctx.env, elementId), reference, ctx.env, elementId);
  const anchor = anchorText(`"{{ ${binding.source} }}"`, text, ctx, elementId);
  return anchor === null ? UNRESOLVED_PAGE : ctx.pageReferences.addReference(anchor, elementId, binding.source);
}

/**
 * An anchor's evaluated text, trimmed; null (after an issue naming the element) when it is blank or too long. `what`
 * names the template text it comes from.
 */
function anchorText(what: string, text: string, ctx: CompileContext, elementId: string | null): string | null {
  const anchor = text.trim();
  if (anchor === '') {
    // a value the data lacks is reported where it is evaluated
    if (text !== '') ctx.issues.add(RenderIssueType.MissingBinding, `${what} gives only spaces, so it names no anchor.`, elementId);
    return null;
  }
  if (anchor.length > MAX_ANCHOR_LENGTH) {
    ctx.issues.add(RenderIssueType.BindingFailedAtRender, `${what} is ${anchor.length} characters long; an anchor has at most ${MAX_ANCHOR_LENGTH}.`, elementId);
    return null;
  }
  return anchor;
}

function textParts(segments: TemplateSegments, scope: Scope, ctx: CompileContext, elementId: string | null, region: Region): TextPart[] {
  return segments.map((segment): TextPart => {
    if (typeof segment === 'string') return segment;
    const counter = region === 'body' ? null : pageCounterOf(segment);
    if (counter) return { counter };
    const reference = pageReference(segment, scope, ctx, elementId, region);
    if (reference !== null) return { reference };
    const value = evaluateBinding(segment, scope, ctx.env, elementId);
    return { value, text: withinUnbrokenCap(bindingText(value, segment, ctx.env, elementId), segment, ctx, elementId), binding: segment };
  });
}

/** A value's text with its runs that cannot break cut to DocumentCaps.maxUnbrokenChars, reported once per binding. */
function withinUnbrokenCap(text: string, binding: Binding, ctx: CompileContext, elementId: string | null): string {
  const cut = cutUnbrokenRuns(text);
  if (cut === null) return text;
  ctx.issues.add(
    RenderIssueType.BindingFailedAtRender,
    `"{{ ${binding.source} }}" shows a run of ${cut.longest.toLocaleString('en-US')} characters with no place to break a line; ` +
      `more than ${DocumentCaps.maxUnbrokenChars.toLocaleString('en-US')} cannot be laid out within the render budget, so it is cut there (a space or a hyphen in the value lets it wrap)`,
    elementId,
    `unbroken\u0000${binding.source}`,
  );
  return cut.text;
}

/**
 * The direction of the first letter of the template's own words in the text, or null when they have none: values are
 * isolated (partsHtml) and do not set the direction of the text around them, as in HTML's dir="auto" with <bdi>.
 */
function partsDirection(parts: readonly TextPart[]): BaseDirection | null {
  for (const part of parts) {
    const found = typeof part === 'string' ? firstStrongDirection(part) : null;
    if (found) return found;
  }
  return null;
}

/**
 * Text as HTML in a paragraph of direction `dir`: literals and values escaped; page counters become Chromium's spans in
 * bands. Numbers, amounts, dates and codes never break inside (issue 33 item 4) and, written in Latin digits, read left
 * to right even in right-to-left text; other values are isolated (bdi) where their direction may differ from the text's.
 */
function partsHtml(parts: readonly TextPart[], dir: BaseDirection): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += escapeHtml(part);
    else if ('counter' in part) out += `<span class="${part.counter}"></span>`;
    else if ('reference' in part) out += part.reference;
    else {
      const text = escapeHtml(part.text);
      if (keptUnbroken(part.value, part.text, part.binding)) {
        if (hasRtl(part.text)) out += `<bdi class="nb">${text}</bdi>`;
        else out += dir === 'rtl' ? `<nobr dir="ltr">${text}</nobr>` : `<nobr>${text}</nobr>`;
      } else if (dir === 'rtl' ? firstStrongDirection(part.text) !== null : hasRtl(part.text)) out += `<bdi>${text}</bdi>`;
      else out += text;
    }
  }
  return out;
}

/** Template text as HTML in a paragraph of direction `dir` (see partsHtml). */
export function textHtml(segments: TemplateSegments, scope: Scope, ctx: CompileContext, elementId: string | null, region: Region, dir: BaseDirection): string {
  return partsHtml(textParts(segments, scope, ctx, elementId, region), dir);
}

/** The root element of `html` with the attribute `name` set to `value` (escaped); nothing drawn stays nothing. */
function withAttribute(html: string, name: string, value: string): string {
  return html === '' ? html : html.replace(/^<([a-z0-9]+)/, `<$1 ${name}="${escapeHtml(value)}"`);
}

/** The root element of `html` with `dir` set, when its direction differs from its surroundings'. */
function withDir(html: string, dir: BaseDirection, around: BaseDirection): string {
  return dir === around ? html : withAttribute(html, 'dir', dir);
}

function isVisible(condition: string | undefined, scope: Scope, ctx: CompileContext, elementId: string): boolean {
  if (condition === undefined) return true;
  const counters = ctx.pageCounters;
  const outcome = evaluateCondition(condition, counters ? scope.with('pageNumber', counters.pageNumber).with('totalPages', counters.totalPages) : scope, ctx.env);
  if (!outcome.ok) {
    if ('budgetExceeded' in outcome) reportBudget(ctx.env, elementId, RenderIssueType.InvalidCondition);
    else ctx.issues.add(RenderIssueType.InvalidCondition, `The condition "${condition}" could not be evaluated: ${outcome.reason}; the element is left out.`, elementId);
    return false;
  }
  for (const problem of outcome.problems) {
    const hint = / has no value in the data$/.test(problem) ? ' (a condition can test for a value with exists(…) first)' : '';
    ctx.issues.add(
      RenderIssueType.InvalidCondition,
      `The condition "${condition}" cannot be what was meant: ${problem}${hint}; the element is ${outcome.visible ? 'shown' : 'left out'}.`,
      elementId,
      `condition\u0000${condition}`,
    );
  }
  return outcome.visible;
}

/**
 * Steps drawing costs, charged to the document's step budget before it is drawn (issue 31 item 2): an element, a
 * repeater's item or a table's row, plus 1 per cell of a row. Measured on the shared machine, drawing one costs about
 * as much as evaluating a small binding, so a document's drawing is bounded like its expressions: without this, a
 * repeater over millions of rows of bare data (no expression to charge) took 13.6 s and 120 MB of HTML to compile.
 */
export const DRAWING_STEPS = 4;

/**
 * Steps hyphenating a character of text costs (decision 0039): measured on the shared machine, a character costs
 * 1.5 µs (words seen before) to 3.5 µs (new words), an evaluation step about 2.4 µs; text work elsewhere costs a step
 * per 16 characters, but hyphenation works on every letter.
 */
export const HYPHENATION_STEPS_PER_CHARACTER = 1;

/** Charges drawing to the budget; false (after the one budget issue, naming the element) once it is spent: nothing more is drawn. */
function mayDraw(ctx: CompileContext, steps: number, elementId: string): boolean {
  if (!ctx.env.budget.exhausted) {
    try {
      ctx.env.budget.spend(steps);
      return true;
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
    }
  }
  reportBudget(ctx.env, elementId, RenderIssueType.BindingFailedAtRender);
  return false;
}

/** A list a table, repeater or chart iterates (a data path or an expression); null (after reporting) when there is none. */
function resolveList(source: string, scope: Scope, ctx: CompileContext, elementId: string): unknown[] | null {
  const tree = parseExpression(source);
  if (tree instanceof ExpressionSyntaxError || ctx.env.budget.exhausted) return null;
  const evaluation = new Evaluation(ctx.env);
  let value: unknown;
  try {
    ctx.env.budget.spend(EVALUATION_STEPS);
    value = evaluation.eval(tree, scope);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    reportBudget(ctx.env, elementId, RenderIssueType.BindingFailedAtRender);
    return null;
  }
  for (const problem of evaluation.problems) {
    const type = problem.kind === 'missing' || problem.kind === 'translation' ? RenderIssueType.MissingBinding : problem.kind === 'type' ? RenderIssueType.BindingFailedAtRender : RenderIssueType.UnformattedValue;
    ctx.issues.add(type, `The list "${source}": ${problem.message}.`, elementId, `list\u0000${problem.kind}\u0000${source}`, 1 + (problem.more ?? 0));
  }
  if (value === undefined) {
    if (evaluation.problems.length === 0) ctx.issues.add(RenderIssueType.MissingBinding, `The list "${source}" has no value in the data.`, elementId);
    return null;
  }
  if (value === null) return [];
  if (!Array.isArray(value)) {
    ctx.issues.add(
      RenderIssueType.DataSourceNotEnumerable,
      `"${source}" should be a list but is ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}; nothing is repeated.`,
      elementId,
    );
    return null;
  }
  return value;
}

/**
 * Draws elements for one document: `render` gives an element's markup, through its drawing step in ELEMENT_STEPS
 * (element-steps.ts), which calls the drawing methods of its type here.
 */
export class ElementRenderer {
  /** The base direction around the element being drawn. */
  private dir: BaseDirection;
  /** The language of the element being drawn (an element's `lang`, else the document's). */
  private lang: string;

  constructor(
    private readonly ctx: CompileContext,
    documentDirection: BaseDirection,
  ) {
    this.dir = documentDirection;
    this.lang = ctx.env.settings.locale;
  }

  /** The direction of the document (or of the enclosing element), for the text of a band. */
  get direction(): BaseDirection {
    return this.dir;
  }

  /** The elements drawn in direction `dir` (a band's own direction), then back to the direction around them. */
  renderAllIn(dir: BaseDirection, elements: readonly TemplateElement[], scope: Scope): string {
    const around = this.dir;
    this.dir = dir;
    try {
      return this.renderAll(elements, scope);
    } finally {
      this.dir = around;
    }
  }

  renderAll(elements: readonly TemplateElement[], scope: Scope): string {
    let out = '';
    for (const element of elements) out += this.render(element, scope);
    return out;
  }

  /** The element's markup; its printed text goes through the glyph coverage check (GlyphCoverage). */
  render(element: TemplateElement, scope: Scope): string {
    const glyphs = this.ctx.glyphs;
    if (!glyphs) return this.draw(element, scope);
    glyphs.enter();
    const html = this.draw(element, scope);
    const prep = this.ctx.prepared.elements.get(element);
    if (prep) glyphs.leave(html, element.id, prep.face);
    else glyphs.leave('', element.id, this.ctx.prepared.base.font);
    return html;
  }

  private draw(element: TemplateElement, scope: Scope): string {
    const html = this.drawElement(element, scope);
    if (element.type === 'pageBreak' || element.anchor === undefined || html === '' || this.ctx.prepared.elements.get(element)?.region !== 'body') return html;
    return this.anchored(html, element.anchor, element.id, scope);
  }

  /** The element's markup with the HTML id of its anchor (page-references.ts), when it has one no element had before. */
  private anchored(html: string, anchorTemplate: string, elementId: string, scope: Scope): string {
    const ctx = this.ctx;
    const anchor = anchorText(`The anchor "${anchorTemplate.slice(0, 80)}"`, renderPlainText(segmentsOf(anchorTemplate), scope, ctx.env, elementId), ctx, elementId);
    if (anchor === null || !ctx.pageReferences.addAnchor(anchor, elementId, ctx.issues)) return html;
    return html.replace(/^<([a-z0-9]+)/, `<$1 id="${anchorHtmlId(anchor)}"`);
  }

  private drawElement(element: TemplateElement, scope: Scope): string {
    const ctx = this.ctx;
    const prep = ctx.prepared.elements.get(element);
    if (!prep || !mayDraw(ctx, DRAWING_STEPS, element.id) || !isVisible(element.visibleIf, scope, ctx, element.id)) return '';
    const lang = element.type === 'pageBreak' ? undefined : element.lang;
    if (lang === undefined) return this.drawDirected(element, prep, scope);
    const langAround = this.lang;
    this.lang = lang;
    try {
      return withAttribute(this.drawDirected(element, prep, scope), 'lang', lang);
    } finally {
      this.lang = langAround;
    }
  }

  /** The element's HTML in its direction (`dir` on its root where it differs from around it). */
  private drawDirected(element: TemplateElement, prep: ElementPrep, scope: Scope): string {
    const own = element.type !== 'pageBreak' && (element.direction === 'ltr' || element.direction === 'rtl') ? element.direction : null;
    return stepsOf(element).draw(this, element, prep, scope, own);
  }

  /** What `draw` gives in the element's own direction `own` (`dir` on its root where it differs), or in the one around it. */
  inOwnDirection(own: BaseDirection | null, draw: () => string): string {
    if (own === null) return draw();
    const around = this.dir;
    this.dir = own;
    try {
      return withDir(draw(), own, around);
    } finally {
      this.dir = around;
    }
  }

  /** A div holding the element's children (model/element-model.ts), if it has any. */
  block(element: TemplateElement, prep: ElementPrep, scope: Scope): string {
    return `<div${attrs(prep.root, scope, this.ctx, element.id)}>${this.renderAll(modelOf(element).children(element), scope)}</div>`;
  }

  /** A paragraph or heading, in its own direction, else that of its first letter outside values, else the one around it. */
  text(element: TextElement, prep: ElementPrep, scope: Scope, own: BaseDirection | null): string {
    const ctx = this.ctx;
    const around = this.dir;
    const parts = textParts(segmentsOf(element.text), scope, ctx, element.id, prep.region);
    const dir = own ?? partsDirection(parts) ?? around;
    const tag = element.heading ? `h${element.heading}` : 'p';
    const html = this.hyphenated(partsHtml(parts, dir), prep.hyphenate, element.id);
    return withDir(`<${tag}${attrs(prep.root, scope, ctx, element.id, 't')}>${html}</${tag}>`, dir, around);
  }

  /** Rich text, in its own direction, else that of the first letter of its own words, else the one around it. */
  richText(element: RichTextElement, prep: ElementPrep, scope: Scope, own: BaseDirection | null): string {
    const around = this.dir;
    const literal = segmentsOf(element.markdown).filter((s): s is string => typeof s === 'string');
    const dir = own ?? partsDirection(literal) ?? around;
    return withDir(this.markdown(element, prep, scope, dir), dir, around);
  }

  private markdown(element: RichTextElement, prep: ElementPrep, scope: Scope, dir: BaseDirection): string {
    const ctx = this.ctx;
    const { html, unsafeLinks, images, refused } = renderMarkdown(segmentsOf(element.markdown), (binding) => {
      const counter = prep.region === 'body' ? null : pageCounterOf(binding);
      if (counter) return { html: `<span class="${counter}"></span>` };
      const reference = pageReference(binding, scope, ctx, element.id, prep.region);
      if (reference !== null) return { html: reference };
      const value = evaluateBinding(binding, scope, ctx.env, element.id);
      // values, Markdown ones too, are held to the unbroken-run cap as in text elements
      const text = withinUnbrokenCap(bindingText(value, binding, ctx.env, element.id), binding, ctx, element.id);
      if (isMarkdownBinding(binding)) return { markdown: text };
      // isolated as in text elements, for the direction the rich text is known to have before it is drawn
      const html = partsHtml([{ value, text, binding }], dir);
      return html === escapeHtml(text) ? { text } : { text, html };
    }, ({ chars, lines }) => ctx.spend.admitMarkdown(chars, lines));
    if (refused !== undefined) {
      ctx.issues.add(RenderIssueType.BindingFailedAtRender, `The rich text is left out: ${refused}.`, element.id);
      return `<div${attrs(prep.root, scope, ctx, element.id, 'md')}></div>`;
    }
    for (const link of unsafeLinks) {
      ctx.issues.add(
        RenderIssueType.BindingFailedAtRender,
        `The link target "${link.slice(0, 80)}" is not an https, http, mailto or tel address; the link text is shown without the link.`,
        element.id,
      );
    }
    for (const image of images) {
      ctx.issues.add(
        RenderIssueType.BindingFailedAtRender,
        `The Markdown image "${image.slice(0, 80)}" is not shown (rich text has no images: use an image element); its alt text is shown, without a link.`,
        element.id,
      );
    }
    return `<div${attrs(prep.root, scope, ctx, element.id, 'md')}>${this.hyphenated(html, prep.hyphenate, element.id)}</div>`;
  }

  /**
   * `html` with its words hyphenated in the element's language when `on` (the style's `hyphenate`), charged to the
   * step budget by its length (HYPHENATION_STEPS_PER_CHARACTER). A language without patterns is reported, naming the
   * element; text past the budget is not hyphenated (the one budget issue names the element).
   */
  private hyphenated(html: string, on: boolean, elementId: string): string {
    if (!on || html === '') return html;
    const ctx = this.ctx;
    const patterns = ctx.hyphenationPatterns(this.lang);
    if (patterns === null) {
      ctx.issues.add(
        RenderIssueType.InvalidLayout,
        `hyphenate asks for hyphenation, but the service has no hyphenation patterns for the language "${this.lang}"; the text is not hyphenated.`,
        elementId,
        'hyphenate',
      );
      return html;
    }
    return mayDraw(ctx, html.length * HYPHENATION_STEPS_PER_CHARACTER, elementId) ? hyphenateHtml(html, patterns) : html;
  }

  image(element: ImageElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const source = renderPlainText(segmentsOf(element.source), scope, ctx.env, element.id);
    const src = ctx.resolveImage(source, 'image', element.id);
    if (ctx.mode === 'collect') return '';
    const inner = src
      ? `<img${classAttr(prep.inner.cls)} src="${escapeHtml(src)}" alt="${escapeHtml(this.altText(element, scope) ?? '')}">`
      : `<div${classAttr(prep.inner.cls)}></div>`;
    return `<div${attrs(prep.root, scope, ctx, element.id)}>${inner}</div>`;
  }

  table(element: TableElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const t = prep.table;
    if (!t) return '';
    const id = element.id;
    const columns = element.columns
      .map((column, index) => ({ column, index }))
      .filter(({ column }) => isVisible(column.visibleIf, scope, ctx, id));
    const items = resolveList(element.source, scope, ctx, id) ?? [];
    const alias = element.as ?? 'item';
    let html = `<table${attrs(t.table, scope, ctx, id)}>`;
    if (columns.some(({ index }) => t.columnWidths[index] !== null)) {
      html += '<colgroup>';
      for (const { index } of columns) html += t.columnWidths[index] ? `<col style="width:${t.columnWidths[index]}">` : '<col>';
      html += '</colgroup>';
    }
    if (element.showHeader !== false) {
      html += '<thead><tr>';
      for (const { column, index } of columns) {
        const header = column.header === undefined ? '' : this.hyphenated(textHtml(segmentsOf(column.header), scope, ctx, id, prep.region, this.dir), t.hyphenateHead[index], id);
        html += `<th${attrs(t.head[index], scope, ctx, id)}>${header}</th>`;
      }
      html += '</tr></thead>';
    }
    html += '<tbody>';
    if (items.length === 0 && element.emptyText !== undefined) {
      html += `<tr><td colspan="${columns.length}">${this.hyphenated(textHtml(segmentsOf(element.emptyText), scope, ctx, id, prep.region, this.dir), prep.hyphenate, id)}</td></tr>`;
    }
    // orphans/widows: the first and last rows are kept in bodies that do not break
    const keptHead = Math.min(element.orphans ?? 1, items.length);
    const keptTail = Math.max(keptHead, items.length - (element.widows ?? 1));
    const breaks = element.pageBreaks && prep.region === 'body' && ctx.mode !== 'collect' ? element.pageBreaks : null;
    const tableIndex = breaks ? ctx.pageAwareTables++ : -1;
    const sums: Record<string, number> = {};
    const colspan = columns.length;
    const breakRowsData = breaks ? new BreakRowsEncoder() : null;
    // what the break rows are made of, row by row, each piece drawn in the scope of the running sums of a row
    const rowTag = (cls: string): BreakRowPiece => ({ key: `tr\u0000${cls}`, draw: (sumScope) => `<tr${attrs(t.breakRows, sumScope, ctx, id, cls)}>` });
    const cellsRow = (cls: string, cells: Record<string, string> | undefined): BreakRowPiece[] | null =>
      cells === undefined
        ? null
        : [
            rowTag(cls),
            ...columns.map(({ column, index }): BreakRowPiece => {
              const text = Object.prototype.hasOwnProperty.call(cells, column.id) ? cells[column.id] : undefined;
              return {
                key: `td\u0000${index}\u0000${text ?? ''}`,
                draw: (sumScope) =>
                  `<td${attrs(t.cells[index], sumScope, ctx, id)}>${text === undefined ? '' : this.hyphenated(textHtml(segmentsOf(text), sumScope, ctx, id, prep.region, this.dir), t.hyphenateCells[index], id)}</td>`,
              };
            }),
          ];
    const line = (cls: string, text: string | undefined): BreakRowPiece[] | null =>
      text === undefined
        ? null
        : [
            rowTag(cls),
            { key: `line\u0000${text}`, draw: (sumScope) => `<td colspan="${colspan}">${this.hyphenated(textHtml(segmentsOf(text), sumScope, ctx, id, prep.region, this.dir), prep.hyphenate, id)}</td>` },
          ];
    const breakRowPieces = breaks
      ? [cellsRow('xc', breaks.carried), line('xc', breaks.continuedFoot), line('xb', breaks.continuedHead), cellsRow('xb', breaks.brought)].filter((row): row is BreakRowPiece[] => row !== null)
      : [];
    // the pieces that do not read the running sums: drawn once, for every row
    const sumsFree = new Map<string, string>();
    /** The rows that may follow row i at a page break, kept as data until the printer places them (docs/decisions/0029). */
    const breakRows = (i: number, rowScope: Scope): void => {
      if (!breaks || !breakRowsData) return;
      for (const [name, text] of Object.entries(breaks.sums ?? {})) {
        // a running sum adds numbers only (issue 31: money is never silently wrong); text amounts need parseNumber()
        const segments = segmentsOf(text);
        const only = segments.length === 1 && typeof segments[0] !== 'string' ? segments[0] : null;
        const found = only ? evaluateBinding(only, rowScope, ctx.env, id) : renderPlainText(segments, rowScope, ctx.env, id).trim();
        const value = found === undefined || found === null || found === '' ? 0 : typeof found === 'number' ? found : only ? NaN : toNumber(found);
        if (value !== null && Number.isFinite(value)) sums[name] = (sums[name] ?? 0) + value;
        else ctx.issues.add(RenderIssueType.BindingFailedAtRender, `The running sum "${name}" takes numbers only, and row ${i + 1} gives ${describeValue(found)}, which it leaves out; read text amounts with parseNumber().`, id);
      }
      if (i === items.length - 1) return;
      const reads = { sums: false };
      const sumScope = scope.with('carried', watchedSums({ ...sums }, reads));
      // a piece that reads the sums is drawn once for this row (the carried and brought-forward rows often share one)
      const ofRow = new Map<string, string>();
      const drawn = ({ key, draw }: BreakRowPiece): string => {
        const known = sumsFree.get(key) ?? ofRow.get(key);
        if (known !== undefined) return known;
        reads.sums = false;
        const html = draw(sumScope);
        (reads.sums ? ofRow : sumsFree).set(key, html);
        return html;
      };
      breakRowsData.add(
        breakRowPieces.map((row) => row.map(drawn)),
        new Set(ofRow.values()),
      );
    };
    for (let i = 0; i < items.length; i++) {
      if (!mayDraw(ctx, DRAWING_STEPS + columns.length, id)) break;
      const item = items[i];
      const rowScope = scope.with(alias, item).with('loop', loopInfo(i, items.length));
      const rowStyle = i % 2 === 1 ? t.alternateRow : t.row;
      if (i === 0 && keptHead > 1) html += '</tbody><tbody class="kr">';
      if ((i === keptHead && keptHead > 1) || (i === keptTail && items.length - keptTail > 1)) {
        html += `</tbody><tbody${i === keptTail && items.length - keptTail > 1 ? ' class="kr"' : ''}>`;
      }
      html += `<tr${attrs(rowStyle, rowScope, ctx, id)}${breaks ? ` data-r="${tableIndex}:${i}"` : ''}>`;
      for (const { column, index } of columns) {
        html += `<td${attrs(t.cells[index], rowScope, ctx, id)}>${this.hyphenated(textHtml(segmentsOf(column.value), rowScope, ctx, id, prep.region, this.dir), t.hyphenateCells[index], id)}</td>`;
      }
      html += '</tr>';
      breakRows(i, rowScope);
    }
    html += '</tbody>';
    if (element.totals) {
      const cells = element.totals.cells;
      html += `<tbody class="tot"><tr${attrs(t.totals, scope, ctx, id)}>`;
      for (const { column, index } of columns) {
        const text = Object.prototype.hasOwnProperty.call(cells, column.id) ? cells[column.id] : undefined;
        const content = text === undefined ? '' : this.hyphenated(textHtml(segmentsOf(text), scope, ctx, id, prep.region, this.dir), t.hyphenateCells[index], id);
        html += `<td${attrs(t.cells[index], scope, ctx, id)}>${content}</td>`;
      }
      html += '</tr></tbody>';
    }
    return `${html}</table>${breakRowsData ? breakRowsData.html(tableIndex) : ''}`;
  }

  repeater(element: RepeaterElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const items = resolveList(element.source, scope, ctx, element.id) ?? [];
    const alias = element.as ?? 'item';
    let html = '';
    if (items.length === 0 && element.emptyText !== undefined) {
      html = `<p class="t">${this.hyphenated(textHtml(segmentsOf(element.emptyText), scope, ctx, element.id, prep.region, this.dir), prep.hyphenate, element.id)}</p>`;
    }
    for (let i = 0; i < items.length; i++) {
      if (!mayDraw(ctx, DRAWING_STEPS, element.id)) break;
      const itemScope = scope.with(alias, items[i]).with('loop', loopInfo(i, items.length));
      html += `<div${classAttr(prep.inner.cls, i > 0 ? prep.gap : null)}>${this.renderAll(element.elements, itemScope)}</div>`;
    }
    return `<div${attrs(prep.root, scope, ctx, element.id)}>${html}</div>`;
  }

  /**
   * The alternative text of a figure (image, code, chart): null when the template gives none, "" for decoration.
   * Under PDF/UA an alternative text whose bindings give nothing is reported: the figure becomes decoration.
   */
  private altText(element: ImageElement | QrCodeElement | BarcodeElement | ChartElement, scope: Scope): string | null {
    if (element.alt === undefined) return null;
    const text = renderPlainText(segmentsOf(element.alt), scope, this.ctx.env, element.id).trim();
    const pdfUA = this.ctx.prepared.template.pdfUA;
    if (text === '' && element.alt.trim() !== '' && pdfUA !== undefined) {
      this.ctx.issues.add(
        RenderIssueType.BindingFailedAtRender,
        `The alternative text "${element.alt.slice(0, 80)}" is empty for this document; ${pdfUA} then treats the ${element.type} as decoration (an artifact a reader skips).`,
        element.id,
      );
    }
    return text;
  }

  private codeValue(text: string, scope: Scope, elementId: string): string | null {
    const value = renderPlainText(segmentsOf(text), scope, this.ctx.env, elementId);
    if (value.length > 0) return value;
    this.ctx.issues.add(RenderIssueType.BindingFailedAtRender, `"${text}" produced an empty value, so no code is drawn.`, elementId);
    return null;
  }

  qrCode(element: QrCodeElement, prep: ElementPrep, scope: Scope): string {
    return this.code(element, 'qr', { showText: false, errorCorrection: element.errorCorrection ?? 'M' }, prep, scope);
  }

  barcode(element: BarcodeElement, prep: ElementPrep, scope: Scope): string {
    const options = { showText: element.showText ?? !isTwoDimensional(element.format), errorCorrection: element.errorCorrection };
    return this.code(element, element.format, options, prep, scope);
  }

  /** A QR code or barcode; a value its format cannot hold is reported (BindingFailedAtRender) and nothing is drawn. */
  private code(element: QrCodeElement | BarcodeElement, format: CodeFormat, options: CodeOptions, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const value = this.codeValue(element.value, scope, element.id);
    if (ctx.mode === 'collect') return '';
    let svg = '';
    const refused = value === null ? null : ctx.spend.admitCode(format, value);
    if (refused !== null) {
      ctx.issues.add(RenderIssueType.BindingFailedAtRender, `The ${codeFormatName(format)} is not drawn: ${refused}.`, element.id);
    } else if (value !== null) {
      const outcome = codeSvg(format, value, options);
      if (outcome.ok) svg = figureSvg(outcome.svg, this.altText(element, scope));
      else {
        const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
        ctx.issues.add(RenderIssueType.BindingFailedAtRender, `"${shown}" cannot be encoded as ${codeFormatName(format)}: ${outcome.reason}; no code is drawn.`, element.id);
      }
    }
    return `<div${attrs(prep.root, scope, ctx, element.id)}><div${classAttr('code', prep.inner.cls)}>${svg}</div></div>`;
  }

  chart(element: ChartElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    if (ctx.mode === 'collect') return '';
    const id = element.id;
    const fail = (reason: string): string => {
      ctx.issues.add(RenderIssueType.InvalidChartConfig, `The chart cannot be drawn: ${reason}.`, id);
      return `<div${attrs(prep.root, scope, ctx, id)}></div>`;
    };
    const all = resolveList(element.source, scope, ctx, id);
    if (all === null) return `<div${attrs(prep.root, scope, ctx, id)}></div>`;
    if (all.length === 0) return fail(`"${element.source}" is an empty list`);
    const pie = element.chartType === 'pie' || element.chartType === 'doughnut';
    const most = pie ? DocumentCaps.maxPieSlices : DocumentCaps.maxChartItems;
    if (all.length > most) {
      ctx.issues.add(RenderIssueType.InvalidChartConfig, `The chart has ${all.length} items; only the first ${most}${pie ? ` (slices of a ${element.chartType})` : ''} are drawn.`, id);
    }
    const items = all.slice(0, most);
    const refused = ctx.spend.admitChart(items.length, element.series.length, pie);
    if (refused !== null) return fail(refused);
    const field = (item: unknown, name: string): unknown =>
      typeof item === 'object' && item !== null && !Array.isArray(item) && Object.prototype.hasOwnProperty.call(item, name)
        ? (item as Record<string, unknown>)[name]
        : undefined;
    const series = (pie ? element.series.slice(0, 1) : element.series).map((s) => {
      let color: string | null = null;
      if (s.color !== undefined && !pie) color = this.chartColour(s.color, scope, id);
      const gaps: number[] = [];
      const values = items.map((item, i) => {
        const v = field(item, s.field);
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (Number.isFinite(n)) return n;
        gaps.push(i);
        return null;
      });
      // one issue per series, however many items lack the number (issue 21 item 2: grouped, not one per item)
      if (gaps.length > 0) {
        const which = gaps.length === items.length ? `any of the ${items.length} items` : `${gaps.length} of ${items.length} items (first: item ${gaps[0]})`;
        ctx.issues.add(RenderIssueType.InvalidChartConfig, `"${s.field}" is not a number in ${which} of "${element.source}"; they are drawn as gaps.`, id);
      }
      const name = this.chartText(s.name === undefined ? s.field : renderPlainText(segmentsOf(s.name), scope, ctx.env, id), 'series name', id);
      return { name, values, color };
    });
    const labels = this.chartLabels(element, items.map((item) => field(item, element.labelField)));
    const palette = element.colors?.map((c) => this.chartColour(c, scope, id)).filter((c): c is string => c !== null) ?? [];
    const title = element.title === undefined ? null : this.chartText(renderPlainText(segmentsOf(element.title), scope, ctx.env, id), 'title', id);
    if (ctx.mode === 'validate') return '';
    const { locale, currency } = ctx.env.settings;
    const chartCurrency = element.currency !== undefined && isValidCurrency(element.currency) ? element.currency : currency;
    const valueFormat = element.valueFormat ?? 'number';
    if (valueFormat === 'currency' && chartCurrency === null) {
      ctx.issues.add(RenderIssueType.InvalidChartConfig, 'valueFormat "currency" needs "currency" on the chart or the template; EUR is used.', id);
    }
    const legend = element.legend ?? (pie || series.length > 1);
    const outcome = chartSvg(
      {
        chartType: element.chartType,
        labels,
        series,
        title,
        legend: legend === true ? 'bottom' : legend === false ? null : legend,
        stacked: element.stacked ?? false,
        horizontal: element.horizontal ?? false,
        showValues: element.showValues ?? false,
        formatValue: chartValueFormatter(locale, valueFormat, element.decimals ?? null, chartCurrency),
        formatShare: chartShareFormatter(locale),
        palette: palette.length > 0 ? palette : null,
        fontFamily: prep.fontFamily,
        rtl: this.dir === 'rtl',
        widthPx: mmToPx(prep.widthMm),
        heightPx: mmToPx(prep.heightMm),
      },
      ctx.nextChartId(),
    );
    if (!outcome.ok) return fail(outcome.reason);
    return `<div${attrs(prep.root, scope, ctx, id)}>${figureSvg(outcome.svg, this.altText(element, scope))}</div>`;
  }

  /** A chart colour (may be a binding); null after reporting InvalidColor when it is not a colour. */
  private chartColour(text: string, scope: Scope, elementId: string): string | null {
    const value = renderPlainText(segmentsOf(text), scope, this.ctx.env, elementId);
    const colour = parseColour(value);
    if (!colour) this.ctx.issues.add(RenderIssueType.InvalidColor, `The chart colour "${value.slice(0, 60)}" is not a colour; the default is used.`, elementId);
    return colour;
  }

  /** A chart's text (title, series name, label) cut to DocumentCaps.maxChartTextLength characters, reported once per kind. */
  private chartText(text: string, what: string, elementId: string): string {
    const max = DocumentCaps.maxChartTextLength;
    const cut = cutText(text, max);
    if (cut === null) return text;
    this.ctx.issues.add(RenderIssueType.InvalidChartConfig, `A ${what} of the chart is ${text.length} characters long; it is cut to ${max}.`, elementId, `chart-text\u0000${what}`);
    return cut;
  }

  /** The category labels in the document's locale (labelFormat); values that do not fit are reported once. */
  private chartLabels(element: ChartElement, values: unknown[]): string[] {
    const { locale, timeZone } = this.ctx.env.settings;
    const format = element.labelFormat ?? 'text';
    let missing = 0;
    let unformatted = 0;
    const labels = values.map((v) => {
      if (typeof v !== 'string' && typeof v !== 'number') {
        missing++;
        return '';
      }
      if (format === 'text') return this.chartText(String(v), 'label', element.id);
      const text = formatChartLabel(v, format, locale, timeZone);
      if (text !== null) return text;
      unformatted++;
      return this.chartText(String(v), 'label', element.id);
    });
    if (missing > 0) {
      this.ctx.issues.add(
        RenderIssueType.InvalidChartConfig,
        `"${element.labelField}" is not a text or number in ${missing} of ${values.length} items of "${element.source}"; their labels are empty.`,
        element.id,
      );
    }
    if (unformatted > 0) {
      this.ctx.issues.add(
        RenderIssueType.InvalidChartConfig,
        `"${element.labelField}" cannot be shown as ${format === 'number' ? 'a number' : `a ${format}`} in ${unformatted} of ${values.length} items of "${element.source}"; they are shown as they are.`,
        element.id,
      );
    }
    return labels;
  }
}

/**
 * An SVG figure with its alternative text: `role="img"` and `aria-label` make it a Figure with /Alt in a tagged PDF;
 * an empty text hides it from the structure (the print marks it as an artifact); null leaves it as drawn.
 */
function figureSvg(svg: string, alt: string | null): string {
  if (alt === null || !svg.startsWith('<svg ')) return svg;
  return `<svg ${alt === '' ? 'aria-hidden="true"' : `role="img" aria-label="${escapeHtml(alt)}"`} ${svg.slice(5)}`;
}

/** A piece of a page-aware table's break rows (a row's opening tag, a cell): pieces alike share a key. */
type BreakRowPiece = { key: string; draw: (sumScope: Scope) => string };

/**
 * The running sums as a page-aware table's break rows see them (`carried`), noting in `reads` any look at them: a
 * piece drawn without one is the same for every row. Whatever an expression does with a value of `carried` that
 * depends on the sums goes through one of these traps (a property, a key, the list of keys).
 */
function watchedSums(sums: Record<string, number>, reads: { sums: boolean }): Record<string, number> {
  return new Proxy(sums, {
    get(target, key, receiver) {
      reads.sums = true;
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      reads.sums = true;
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      reads.sums = true;
      return Reflect.ownKeys(target);
    },
    getOwnPropertyDescriptor(target, key) {
      reads.sums = true;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
}
