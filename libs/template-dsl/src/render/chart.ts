import * as echarts from 'echarts';
import { isValidCurrency } from '../binding/formatters';
import { ChartElement, ChartType } from '../model/template.types';

/**
 * Charts drawn server-side by Apache ECharts (SSR, SVG renderer): no browser, no script, no network. The
 * SVG is cleaned of the interactive parts ECharts adds (hover styles, class names numbered per instance) so
 * the output is the same for the same input.
 */

export type ChartValueFormat = 'number' | 'currency' | 'percent' | 'compact';
export type LegendPosition = 'top' | 'bottom' | 'left' | 'right';

export interface ChartSpec {
  chartType: ChartType;
  /** Category labels, already formatted for the locale. */
  labels: string[];
  series: { name: string; values: (number | null)[]; color: string | null }[];
  title: string | null;
  legend: LegendPosition | null;
  stacked: boolean;
  horizontal: boolean;
  showValues: boolean;
  /** Formats every number the chart shows: value axis, value labels, pie values. */
  formatValue: (value: number) => string;
  /** Formats a pie slice's share (0–1) in the locale. */
  formatShare: (share: number) => string;
  /** Colours of the slices (pie) or of the series without their own colour, in order; null: ECharts' palette. */
  palette: string[] | null;
  fontFamily: string;
  /** Drawn in a right-to-left element: the category axis runs from the right, the value axis is on the right. */
  rtl: boolean;
  widthPx: number;
  heightPx: number;
}

export type ChartOutcome = { ok: true; svg: string } | { ok: false; reason: string };

// Intl formatters are expensive to create and cheap to use: one per (locale, options).
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) {
    if (numberFormats.size >= 200) numberFormats.clear();
    f = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, f);
  }
  return f;
}

/**
 * The value formatter of a chart (issue 21 item 3): the document's locale, the format's style, an optional fixed
 * number of decimals. `percent` takes fractions (0.25 is 25 %), as Intl does.
 */
export function chartValueFormatter(locale: string, format: ChartValueFormat, decimals: number | null, currency: string | null): (value: number) => string {
  const digits = decimals === null ? {} : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  let options: Intl.NumberFormatOptions;
  switch (format) {
    case 'number':
      options = { ...digits };
      break;
    case 'currency':
      options = { style: 'currency', currency: currency ?? 'EUR', ...digits };
      break;
    case 'percent':
      options = { style: 'percent', maximumFractionDigits: decimals ?? 1, ...digits };
      break;
    case 'compact':
      options = { notation: 'compact', ...digits };
      break;
  }
  const f = numberFormat(locale, options);
  return (value) => f.format(value);
}

export function chartShareFormatter(locale: string): (share: number) => string {
  const f = numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  return (share) => f.format(share);
}

function legendOption(spec: ChartSpec): Record<string, unknown> | undefined {
  if (spec.legend === null) return undefined;
  const placed = legendPlace(spec.legend, spec.title !== null);
  if (!spec.rtl) return placed;
  // right to left: each item's symbol on the right of its name, a row of items read from the right
  const names = spec.chartType === 'pie' || spec.chartType === 'doughnut' ? spec.labels : spec.series.map((s) => s.name);
  return { ...placed, align: 'right', ...(placed.orient === 'vertical' ? {} : { data: [...names].reverse() }) };
}

function legendPlace(legend: LegendPosition, titled: boolean): Record<string, unknown> {
  switch (legend) {
    case 'bottom':
      return { bottom: 4, type: 'plain' };
    case 'top':
      return { top: titled ? 26 : 4, type: 'plain' };
    case 'left':
      return { left: 4, top: 'middle', orient: 'vertical', type: 'plain' };
    case 'right':
      return { right: 4, top: 'middle', orient: 'vertical', type: 'plain' };
  }
}

function option(spec: ChartSpec): Record<string, unknown> {
  const title = spec.title ? { text: spec.title, left: 'center', top: 4, textStyle: { fontSize: 13, fontWeight: 700 } } : undefined;
  const base = {
    animation: false,
    textStyle: { fontFamily: spec.fontFamily, fontSize: 11 },
    title,
    legend: legendOption(spec),
    ...(spec.palette ? { color: spec.palette } : {}),
  };
  const side = spec.legend === 'left' || spec.legend === 'right' ? spec.legend : null;
  if (spec.chartType === 'pie' || spec.chartType === 'doughnut') {
    const [first] = spec.series;
    const total = first.values.reduce<number>((sum, v) => sum + (v !== null && v > 0 ? v : 0), 0);
    const x = side === 'left' ? '60%' : side === 'right' ? '40%' : '50%';
    const y = spec.title && spec.legend === 'top' ? '58%' : spec.title || spec.legend === 'top' ? '54%' : spec.legend === 'bottom' ? '46%' : '50%';
    return {
      ...base,
      series: [
        {
          type: 'pie',
          name: first.name,
          radius: spec.chartType === 'doughnut' ? ['40%', '68%'] : '68%',
          center: [x, y],
          data: spec.labels.map((name, i) => ({ name, value: first.values[i] })),
          label: {
            show: true,
            position: 'inside',
            formatter: (p: { value: number }) => (spec.showValues ? spec.formatValue(p.value) : total > 0 ? spec.formatShare(p.value / total) : ''),
            fontSize: 9,
            color: '#ffffff',
          },
        },
      ],
    };
  }
  // right to left: the categories (of columns and lines) run from the right and the value axis stands on the right;
  // the bars of a horizontal chart grow to the left from a category axis on the right
  const category = { type: 'category', data: spec.labels, ...(spec.rtl ? (spec.horizontal ? { position: 'right' } : { inverse: true }) : {}) };
  const value = {
    type: 'value',
    axisLabel: { formatter: (v: number) => spec.formatValue(v) },
    ...(spec.rtl ? (spec.horizontal ? { inverse: true } : { position: 'right' }) : {}),
  };
  return {
    ...base,
    grid: {
      left: side === 'left' ? '22%' : 12,
      right: side === 'right' ? '22%' : 20,
      top: (spec.title ? 40 : 16) + (spec.legend === 'top' ? 22 : 0),
      bottom: spec.legend === 'bottom' ? 40 : 12,
      containLabel: true,
    },
    xAxis: spec.horizontal ? value : category,
    yAxis: spec.horizontal ? category : value,
    series: spec.series.map((s) => ({
      type: spec.chartType,
      name: s.name,
      data: s.values,
      stack: spec.stacked ? 'total' : undefined,
      itemStyle: s.color ? { color: s.color } : undefined,
      lineStyle: s.color && spec.chartType === 'line' ? { color: s.color } : undefined,
      label: spec.showValues
        ? {
            show: true,
            position: spec.stacked ? 'inside' : spec.horizontal ? (spec.rtl ? 'left' : 'right') : 'top',
            formatter: (p: { value: number }) => spec.formatValue(p.value),
          }
        : undefined,
    })),
  };
}

/** ECharts' SVG holds only shapes, text and local clip paths; anything that could load or run something is refused. */
const FORBIDDEN = /<(?:script|image|foreignObject|use|a)\b|\bhref\s*=|url\s*\(\s*(?!#)|\bon[a-z]+\s*=/i;

/** Removes hover styles and instance-numbered classes; renames ECharts' ids with a per-document prefix. */
function clean(svg: string, idPrefix: string): string {
  return svg
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, '')
    .replace(/\s(?:class|ecmeta_[a-z_]+)="[^"]*"/g, '')
    .replace(/\bzr\d+-/g, `${idPrefix}-`)
    .replace(/^<svg width="\d+(?:\.\d+)?" height="\d+(?:\.\d+)?"/, '<svg width="100%" height="100%" preserveAspectRatio="xMidYMid meet"');
}

/** Draws a chart; `idPrefix` keeps the ids of several charts in one document apart. */
export function chartSvg(spec: ChartSpec, idPrefix: string): ChartOutcome {
  let chart: ReturnType<typeof echarts.init> | null = null;
  try {
    chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: spec.widthPx, height: spec.heightPx });
    chart.setOption(option(spec));
    const svg = clean(chart.renderToSVGString(), idPrefix);
    if (FORBIDDEN.test(svg)) return { ok: false, reason: 'the chart library produced markup that is not allowed in a document' };
    return { ok: true, svg };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    chart?.dispose();
  }
}

/**
 * Options of a chart element that its chart type or its other options make meaningless: each is reported
 * (InvalidChartConfig) when the template is prepared, so nothing is ignored silently (issue 21 item 2).
 */
export function ignoredChartOptions(element: ChartElement): string[] {
  const ignored: string[] = [];
  const pie = element.chartType === 'pie' || element.chartType === 'doughnut';
  if (pie) {
    if (element.series.length > 1) ignored.push(`A ${element.chartType} chart shows one series; only "${element.series[0].field}" is drawn`);
    if (element.stacked !== undefined) ignored.push(`"stacked" has no meaning for a ${element.chartType} chart; it is ignored`);
    if (element.horizontal !== undefined) ignored.push(`"horizontal" has no meaning for a ${element.chartType} chart; it is ignored`);
    if (element.series[0].color !== undefined) ignored.push(`The slices of a ${element.chartType} chart take their colours from "colors"; the series colour is ignored`);
  } else if (element.colors !== undefined && element.series.every((s) => s.color !== undefined)) {
    ignored.push('Every series has its own colour; "colors" is ignored');
  }
  if (element.currency !== undefined && element.valueFormat !== 'currency') ignored.push(`"currency" applies to valueFormat "currency" only; it is ignored`);
  if (element.currency !== undefined && !isValidCurrency(element.currency)) ignored.push(`"${element.currency}" is not an ISO 4217 currency code; the template currency is used`);
  return ignored;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const DATE_ONLY = /^\d{4}-\d{2}(-\d{2})?$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

const DATE_OPTIONS: Record<'date' | 'month' | 'year', Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  month: { month: 'short', year: 'numeric' },
  year: { year: 'numeric' },
};

/**
 * A chart label in the locale: a number, or an ISO 8601 date ("2026-03", "2026-03-31", a date-time) or epoch
 * milliseconds as a date, month or year. Null when the value is not one. Calendar days are not shifted by the
 * time zone; date-times are shown in it.
 */
export function formatChartLabel(value: string | number, format: 'number' | 'date' | 'month' | 'year', locale: string, timeZone: string): string | null {
  if (format === 'number') {
    const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value);
    return Number.isFinite(n) ? numberFormat(locale, {}).format(n) : null;
  }
  let date: Date;
  let zone = timeZone;
  if (typeof value === 'number') date = new Date(value);
  else if (DATE_ONLY.test(value.trim())) {
    const text = value.trim();
    date = new Date(`${text.length === 7 ? `${text}-01` : text}T00:00:00Z`);
    zone = 'UTC';
  } else if (ISO_DATE_TIME.test(value.trim())) date = new Date(value.trim());
  else return null;
  if (Number.isNaN(date.getTime())) return null;
  const key = `${locale}\u0000${zone}\u0000${format}`;
  let f = dateFormats.get(key);
  if (!f) {
    if (dateFormats.size >= 200) dateFormats.clear();
    f = new Intl.DateTimeFormat(locale, { ...DATE_OPTIONS[format], timeZone: zone });
    dateFormats.set(key, f);
  }
  return f.format(date);
}
