import { RenderIssueType } from '@docrender/contracts';
import { TemplateSegments } from '../binding/binding-syntax';
import { bindingText, evaluateBinding, isMarkdownBinding, pageCounterOf, renderPlainText, reportBudget } from '../binding/binding-evaluator';
import { loopInfo, Scope } from '../binding/scope';
import { isValidCurrency } from '../binding/formatters';
import { evaluateCondition } from '../condition/condition-evaluator';
import { BudgetExceeded, Evaluation } from '../expression/expression-evaluator';
import { ExpressionSyntaxError, parseExpression } from '../expression/expression-syntax';
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
} from '../model/template.types';
import { parseColour } from '../style/colour';
import { DynamicColour } from '../style/style-css';
import { mmToPx } from '../style/length';
import { chartShareFormatter, chartSvg, chartValueFormatter, formatChartLabel } from './chart';
import { CodeFormat, codeFormatName, CodeOptions, codeSvg, isTwoDimensional } from './codes';
import { CompileContext, PLACED_ATTRIBUTE } from './compile-context';
import { escapeHtml } from './html';
import { renderMarkdown } from './markdown';
import { ClassedStyle, ElementPrep, segmentsOf } from './prepared-template';

const MAX_CHART_ITEMS = 1000;

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

/** Template text as HTML: literals and values escaped; page counters become Chromium's spans in bands. */
export function textHtml(segments: TemplateSegments, scope: Scope, ctx: CompileContext, elementId: string | null, region: Region): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'string') {
      out += escapeHtml(segment);
      continue;
    }
    const counter = region === 'body' ? null : pageCounterOf(segment);
    if (counter) {
      out += `<span class="${counter}"></span>`;
      continue;
    }
    const text = escapeHtml(bindingText(evaluateBinding(segment, scope, ctx.env, elementId), segment, ctx.env, elementId));
    // a number never breaks between its sign, currency and digits
    out += NUMBER_LIKE.test(text) ? `<span class="nb">${text}</span>` : text;
  }
  return out;
}

/** A formatted amount: digits with signs, currency symbols or codes, separators and spaces, nothing else. */
const NUMBER_LIKE = /^(?=.*\d)(?=.*[\p{Zs}\u2212+-])[\d\p{Zs}\p{Sc}\u2212+\-.,'\u2019%A-Z]{2,40}$/u;

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

/** A list a table, repeater or chart iterates (a data path or an expression); null (after reporting) when there is none. */
function resolveList(source: string, scope: Scope, ctx: CompileContext, elementId: string): unknown[] | null {
  const tree = parseExpression(source);
  if (tree instanceof ExpressionSyntaxError || ctx.env.budget.exhausted) return null;
  const evaluation = new Evaluation(ctx.env);
  let value: unknown;
  try {
    value = evaluation.eval(tree, scope);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    reportBudget(ctx.env, elementId, RenderIssueType.BindingFailedAtRender);
    return null;
  }
  for (const problem of evaluation.problems) {
    const type = problem.kind === 'missing' || problem.kind === 'translation' ? RenderIssueType.MissingBinding : problem.kind === 'type' ? RenderIssueType.BindingFailedAtRender : RenderIssueType.UnformattedValue;
    ctx.issues.add(type, `The list "${source}": ${problem.message}.`, elementId, `list\u0000${problem.kind}\u0000${source}`);
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

export class ElementRenderer {
  constructor(private readonly ctx: CompileContext) {}

  renderAll(elements: readonly TemplateElement[], scope: Scope): string {
    let out = '';
    for (const element of elements) out += this.render(element, scope);
    return out;
  }

  render(element: TemplateElement, scope: Scope): string {
    const ctx = this.ctx;
    const prep = ctx.prepared.elements.get(element);
    if (!prep || !isVisible(element.visibleIf, scope, ctx, element.id)) return '';
    const id = element.id;
    switch (element.type) {
      case 'text': {
        const tag = element.heading ? `h${element.heading}` : 'p';
        return `<${tag}${attrs(prep.root, scope, ctx, id, 't')}>${textHtml(segmentsOf(element.text), scope, ctx, id, prep.region)}</${tag}>`;
      }
      case 'richText':
        return this.richText(element, prep, scope);
      case 'image':
        return this.image(element, prep, scope);
      case 'table':
        return this.table(element, prep, scope);
      case 'repeater':
        return this.repeater(element, prep, scope);
      case 'row':
      case 'column':
      case 'grid':
      case 'box':
        return `<div${attrs(prep.root, scope, ctx, id)}>${this.renderAll(element.elements ?? [], scope)}</div>`;
      case 'spacer':
      case 'line':
        return `<div${attrs(prep.root, scope, ctx, id)}></div>`;
      case 'pageBreak':
        return prep.breakAllowed ? '<div class="pb"></div>' : '';
      case 'qrCode':
        return this.qrCode(element, prep, scope);
      case 'barcode':
        return this.barcode(element, prep, scope);
      case 'chart':
        return this.chart(element, prep, scope);
    }
  }

  private richText(element: RichTextElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const { html, unsafeLinks } = renderMarkdown(segmentsOf(element.markdown), (binding) => {
      const counter = prep.region === 'body' ? null : pageCounterOf(binding);
      if (counter) return { html: `<span class="${counter}"></span>` };
      const text = bindingText(evaluateBinding(binding, scope, ctx.env, element.id), binding, ctx.env, element.id);
      return isMarkdownBinding(binding) ? { markdown: text } : { text };
    });
    for (const link of unsafeLinks) {
      ctx.issues.add(
        RenderIssueType.BindingFailedAtRender,
        `The link target "${link.slice(0, 80)}" is not an https, http, mailto or tel address; the link text is shown without the link.`,
        element.id,
      );
    }
    return `<div${attrs(prep.root, scope, ctx, element.id, 'md')}>${html}</div>`;
  }

  private image(element: ImageElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const source = renderPlainText(segmentsOf(element.source), scope, ctx.env, element.id);
    const src = ctx.resolveImage(source, 'image', element.id);
    if (ctx.mode === 'collect') return '';
    const inner = src
      ? `<img${classAttr(prep.inner.cls)} src="${escapeHtml(src)}" alt="${escapeHtml(element.alt === undefined ? '' : renderPlainText(segmentsOf(element.alt), scope, ctx.env, element.id))}">`
      : `<div${classAttr(prep.inner.cls)}></div>`;
    return `<div${attrs(prep.root, scope, ctx, element.id)}>${inner}</div>`;
  }

  private table(element: TableElement, prep: ElementPrep, scope: Scope): string {
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
        const header = column.header === undefined ? '' : textHtml(segmentsOf(column.header), scope, ctx, id, prep.region);
        html += `<th${attrs(t.head[index], scope, ctx, id)}>${header}</th>`;
      }
      html += '</tr></thead>';
    }
    html += '<tbody>';
    if (items.length === 0 && element.emptyText !== undefined) {
      html += `<tr><td colspan="${columns.length}">${textHtml(segmentsOf(element.emptyText), scope, ctx, id, prep.region)}</td></tr>`;
    }
    // orphans/widows: the first and last rows are kept in bodies that do not break
    const keptHead = Math.min(element.orphans ?? 1, items.length);
    const keptTail = Math.max(keptHead, items.length - (element.widows ?? 1));
    const breaks = element.pageBreaks && prep.region === 'body' && ctx.mode !== 'collect' ? element.pageBreaks : null;
    const tableIndex = breaks ? ctx.pageAwareTables++ : -1;
    const sums: Record<string, number> = {};
    const colspan = columns.length;
    /** The rows that may follow row i at a page break, hidden until the printer shows them (docs/decisions/0011). */
    const breakRows = (i: number, rowScope: Scope): string => {
      if (!breaks) return '';
      for (const [name, text] of Object.entries(breaks.sums ?? {})) {
        const raw = renderPlainText(segmentsOf(text), rowScope, ctx.env, id).trim();
        const value = raw === '' ? 0 : Number(raw);
        if (Number.isFinite(value)) sums[name] = (sums[name] ?? 0) + value;
        else ctx.issues.add(RenderIssueType.UnformattedValue, `The running sum "${name}" skips "${raw.slice(0, 40)}", which is not a number.`, id);
      }
      if (i === items.length - 1) return '';
      const sumScope = scope.with('carried', { ...sums });
      const key = `${tableIndex}:${i}`;
      const cellsRow = (cls: string, cells: Record<string, string> | undefined): string => {
        if (!cells) return '';
        let row = `<tr${attrs(t.breakRows, sumScope, ctx, id, cls)} data-x="${key}">`;
        for (const { column, index } of columns) {
          const text = Object.prototype.hasOwnProperty.call(cells, column.id) ? cells[column.id] : undefined;
          row += `<td${attrs(t.cells[index], sumScope, ctx, id)}>${text === undefined ? '' : textHtml(segmentsOf(text), sumScope, ctx, id, prep.region)}</td>`;
        }
        return `${row}</tr>`;
      };
      const line = (cls: string, text: string | undefined): string =>
        text === undefined ? '' : `<tr${attrs(t.breakRows, sumScope, ctx, id, cls)} data-x="${key}"><td colspan="${colspan}">${textHtml(segmentsOf(text), sumScope, ctx, id, prep.region)}</td></tr>`;
      return cellsRow('xc', breaks.carried) + line('xc', breaks.continuedFoot) + line('xb', breaks.continuedHead) + cellsRow('xb', breaks.brought);
    };
    items.forEach((item, i) => {
      const rowScope = scope.with(alias, item).with('loop', loopInfo(i, items.length));
      const rowStyle = i % 2 === 1 ? t.alternateRow : t.row;
      if (i === 0 && keptHead > 1) html += '</tbody><tbody class="kr">';
      if ((i === keptHead && keptHead > 1) || (i === keptTail && items.length - keptTail > 1)) {
        html += `</tbody><tbody${i === keptTail && items.length - keptTail > 1 ? ' class="kr"' : ''}>`;
      }
      html += `<tr${attrs(rowStyle, rowScope, ctx, id)}${breaks ? ` data-r="${tableIndex}:${i}"` : ''}>`;
      for (const { column, index } of columns) {
        html += `<td${attrs(t.cells[index], rowScope, ctx, id)}>${textHtml(segmentsOf(column.value), rowScope, ctx, id, prep.region)}</td>`;
      }
      html += `</tr>${breakRows(i, rowScope)}`;
    });
    html += '</tbody>';
    if (element.totals) {
      const cells = element.totals.cells;
      html += `<tbody class="tot"><tr${attrs(t.totals, scope, ctx, id)}>`;
      for (const { column, index } of columns) {
        const text = Object.prototype.hasOwnProperty.call(cells, column.id) ? cells[column.id] : undefined;
        const content = text === undefined ? '' : textHtml(segmentsOf(text), scope, ctx, id, prep.region);
        html += `<td${attrs(t.cells[index], scope, ctx, id)}>${content}</td>`;
      }
      html += '</tr></tbody>';
    }
    return `${html}</table>`;
  }

  private repeater(element: RepeaterElement, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const items = resolveList(element.source, scope, ctx, element.id) ?? [];
    const alias = element.as ?? 'item';
    let html = '';
    if (items.length === 0 && element.emptyText !== undefined) {
      html = `<p class="t">${textHtml(segmentsOf(element.emptyText), scope, ctx, element.id, prep.region)}</p>`;
    }
    items.forEach((item, i) => {
      const itemScope = scope.with(alias, item).with('loop', loopInfo(i, items.length));
      html += `<div${classAttr(prep.inner.cls, i > 0 ? prep.gap : null)}>${this.renderAll(element.elements, itemScope)}</div>`;
    });
    return `<div${attrs(prep.root, scope, ctx, element.id)}>${html}</div>`;
  }

  private codeValue(text: string, scope: Scope, elementId: string): string | null {
    const value = renderPlainText(segmentsOf(text), scope, this.ctx.env, elementId);
    if (value.length > 0) return value;
    this.ctx.issues.add(RenderIssueType.BindingFailedAtRender, `"${text}" produced an empty value, so no code is drawn.`, elementId);
    return null;
  }

  private qrCode(element: QrCodeElement, prep: ElementPrep, scope: Scope): string {
    return this.code(element, 'qr', { showText: false, errorCorrection: element.errorCorrection ?? 'M' }, prep, scope);
  }

  private barcode(element: BarcodeElement, prep: ElementPrep, scope: Scope): string {
    const options = { showText: element.showText ?? !isTwoDimensional(element.format), errorCorrection: element.errorCorrection };
    return this.code(element, element.format, options, prep, scope);
  }

  /** A QR code or barcode; a value its format cannot hold is reported (BindingFailedAtRender) and nothing is drawn. */
  private code(element: QrCodeElement | BarcodeElement, format: CodeFormat, options: CodeOptions, prep: ElementPrep, scope: Scope): string {
    const ctx = this.ctx;
    const value = this.codeValue(element.value, scope, element.id);
    if (ctx.mode === 'collect') return '';
    let svg = '';
    if (value !== null) {
      const outcome = codeSvg(format, value, options);
      if (outcome.ok) svg = outcome.svg;
      else {
        const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
        ctx.issues.add(RenderIssueType.BindingFailedAtRender, `"${shown}" cannot be encoded as ${codeFormatName(format)}: ${outcome.reason}; no code is drawn.`, element.id);
      }
    }
    return `<div${attrs(prep.root, scope, ctx, element.id)}><div${classAttr('code', prep.inner.cls)}>${svg}</div></div>`;
  }

  private chart(element: ChartElement, prep: ElementPrep, scope: Scope): string {
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
    if (all.length > MAX_CHART_ITEMS) {
      ctx.issues.add(RenderIssueType.InvalidChartConfig, `The chart has ${all.length} items; only the first ${MAX_CHART_ITEMS} are drawn.`, id);
    }
    const items = all.slice(0, MAX_CHART_ITEMS);
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
      const name = s.name === undefined ? s.field : renderPlainText(segmentsOf(s.name), scope, ctx.env, id);
      return { name, values, color };
    });
    const labels = this.chartLabels(element, items.map((item) => field(item, element.labelField)));
    const palette = element.colors?.map((c) => this.chartColour(c, scope, id)).filter((c): c is string => c !== null) ?? [];
    const title = element.title === undefined ? null : renderPlainText(segmentsOf(element.title), scope, ctx.env, id);
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
        widthPx: mmToPx(prep.widthMm),
        heightPx: mmToPx(prep.heightMm),
      },
      ctx.nextChartId(),
    );
    if (!outcome.ok) return fail(outcome.reason);
    return `<div${attrs(prep.root, scope, ctx, id)}>${outcome.svg}</div>`;
  }

  /** A chart colour (may be a binding); null after reporting InvalidColor when it is not a colour. */
  private chartColour(text: string, scope: Scope, elementId: string): string | null {
    const value = renderPlainText(segmentsOf(text), scope, this.ctx.env, elementId);
    const colour = parseColour(value);
    if (!colour) this.ctx.issues.add(RenderIssueType.InvalidColor, `The chart colour "${value.slice(0, 60)}" is not a colour; the default is used.`, elementId);
    return colour;
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
      if (format === 'text') return String(v);
      const text = formatChartLabel(v, format, locale, timeZone);
      if (text !== null) return text;
      unformatted++;
      return String(v);
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
