import * as echarts from 'echarts';
import { ChartType } from '../model/template.types';

/**
 * Charts drawn server-side by Apache ECharts (SSR, SVG renderer): no browser, no script, no network. The
 * SVG is cleaned of the interactive parts ECharts adds (hover styles, class names numbered per instance) so
 * the output is the same for the same input.
 */

export interface ChartSpec {
  chartType: ChartType;
  labels: string[];
  series: { name: string; values: (number | null)[]; color: string | null }[];
  title: string | null;
  legend: boolean;
  stacked: boolean;
  horizontal: boolean;
  showValues: boolean;
  fontFamily: string;
  widthPx: number;
  heightPx: number;
}

export type ChartOutcome = { ok: true; svg: string } | { ok: false; reason: string };

function option(spec: ChartSpec): Record<string, unknown> {
  const title = spec.title ? { text: spec.title, left: 'center', top: 4, textStyle: { fontSize: 13, fontWeight: 700 } } : undefined;
  const legend = spec.legend ? { bottom: 4, type: 'plain' } : undefined;
  const base = { animation: false, textStyle: { fontFamily: spec.fontFamily, fontSize: 11 }, title, legend };
  if (spec.chartType === 'pie' || spec.chartType === 'doughnut') {
    const [first] = spec.series;
    return {
      ...base,
      series: [
        {
          type: 'pie',
          name: first.name,
          radius: spec.chartType === 'doughnut' ? ['40%', '68%'] : '68%',
          center: ['50%', spec.title ? '54%' : '50%'],
          data: spec.labels.map((name, i) => ({ name, value: first.values[i] })),
          label: { show: true, position: 'inside', formatter: spec.showValues ? '{c}' : '{d}%', fontSize: 9, color: '#ffffff' },
        },
      ],
    };
  }
  const category = { type: 'category', data: spec.labels };
  const value = { type: 'value' };
  return {
    ...base,
    grid: { left: 12, right: 20, top: spec.title ? 40 : 16, bottom: spec.legend ? 40 : 12, containLabel: true },
    xAxis: spec.horizontal ? value : category,
    yAxis: spec.horizontal ? category : value,
    series: spec.series.map((s) => ({
      type: spec.chartType,
      name: s.name,
      data: s.values,
      stack: spec.stacked ? 'total' : undefined,
      itemStyle: s.color ? { color: s.color } : undefined,
      lineStyle: s.color && spec.chartType === 'line' ? { color: s.color } : undefined,
      label: spec.showValues ? { show: true, position: spec.stacked ? 'inside' : spec.horizontal ? 'right' : 'top' } : undefined,
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
