import { RenderIssueType } from '@docrender/contracts';
import { ChartElement, Template } from '../model/template.types';
import { chartValueFormatter, formatChartLabel } from './chart';
import { compileDocument } from './compile-document';

const months = [
  { month: '2026-01', revenue: 3500000, cost: 1200000 },
  { month: '2026-02', revenue: 2750000.5, cost: 900000 },
];

function chart(extra: Partial<ChartElement>, locale = 'en-US'): Template {
  return {
    locale,
    currency: 'EUR',
    body: [{ type: 'chart', id: 'c', chartType: 'bar', source: 'months', labelField: 'month', series: [{ field: 'revenue' }], ...extra } as ChartElement],
  };
}

function compile(template: Template, data: unknown = { months }) {
  return compileDocument({ template, data });
}

/** The texts ECharts wrote into the chart's SVG. */
function svgTexts(html: string): string[] {
  return [...html.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&#160;|\u00a0|\u202f/g, ' '));
}

describe('charts (issue 21 item 3: locale, formats, colours, legend)', () => {
  it('issue 21 item 3: value formats follow the locale (number, currency, percent, compact, fixed decimals)', () => {
    const de = (format: 'number' | 'currency' | 'percent' | 'compact', decimals: number | null = null) => chartValueFormatter('de-DE', format, decimals, 'EUR');
    expect(de('number')(3500000)).toBe('3.500.000');
    expect(de('number', 2)(1768427.5).replace(/\u00a0/g, ' ')).toBe('1.768.427,50');
    expect(de('currency')(1768427.55).replace(/\u00a0/g, ' ')).toBe('1.768.427,55 €');
    expect(de('percent')(0.3615).replace(/\u00a0/g, ' ')).toBe('36,2 %');
    expect(de('compact')(3500000).replace(/\u00a0/g, ' ')).toBe('3,5 Mio.');
    expect(chartValueFormatter('en-US', 'compact', null, null)(3500000)).toBe('3.5M');
  });

  it('issue 21 item 3: labels as dates, months, years and numbers in the locale; calendar days are not shifted', () => {
    expect(formatChartLabel('2026-03-31', 'date', 'de-DE', 'America/New_York')).toBe('31.03.2026');
    expect(formatChartLabel('2026-03', 'month', 'en-GB', 'UTC')).toBe('Mar 2026');
    expect(formatChartLabel('2026-03-31T23:30:00Z', 'year', 'en-US', 'Europe/Berlin')).toBe('2026');
    expect(formatChartLabel(1234.5, 'number', 'de-DE', 'UTC')).toBe('1.234,5');
    expect(formatChartLabel('soon', 'date', 'de-DE', 'UTC')).toBeNull();
  });

  it('issue 21 item 3: a de-DE chart shows German separators on its value axis and in its labels', () => {
    const doc = compile(chart({ showValues: true, labelFormat: 'month' }, 'de-DE'));
    expect(doc.issues).toEqual([]);
    const texts = svgTexts(doc.html);
    expect(texts).toEqual(expect.arrayContaining(['1.000.000', '3.500.000', '2.750.000,5', 'Jan. 2026']));
    expect(texts).not.toContain('3,500,000');
  });

  it('issue 21 item 3: a pie prints its shares in the locale, and with showValues its values formatted like the value axis', () => {
    const regions = { months: [ { month: 'North', revenue: 1768427.55 }, { month: 'South', revenue: 3123456.45 } ] };
    const shares = svgTexts(compile(chart({ chartType: 'pie' }, 'de-DE'), regions).html);
    expect(shares).toEqual(expect.arrayContaining(['36,2 %', '63,8 %']));
    const values = svgTexts(compile(chart({ chartType: 'pie', showValues: true, valueFormat: 'currency', decimals: 0 }, 'de-DE'), regions).html);
    expect(values).toEqual(expect.arrayContaining(['1.768.428 €', '3.123.456 €']));
    expect(values).not.toContain('1768427.55');
  });

  it('issue 21 item 3: colours per slice (colors) and per series; a bad colour is InvalidColor', () => {
    const pie = compile(chart({ chartType: 'pie', colors: ['#112233', '{{ accent }}'] }), { months, accent: 'rgb(200, 10, 20)' });
    expect(pie.issues).toEqual([]);
    expect(pie.html).toContain('fill="#112233"');
    expect(pie.html).toContain('fill="#c80a14"');
    const bars = compile(chart({ series: [{ field: 'revenue', color: '#abcdef' }, { field: 'cost' }], colors: ['#fedcba'] }));
    expect(bars.html).toContain('fill="#abcdef"');
    expect(bars.html).toContain('fill="#fedcba"');
    const bad = compile(chart({ colors: ['not-a-colour'] }));
    expect(bad.issues.map((i) => i.type)).toEqual([RenderIssueType.InvalidColor]);
  });

  it('issue 21 item 3: the legend goes where it is asked', () => {
    const series = [{ field: 'revenue', name: 'Revenue' }, { field: 'cost', name: 'Cost' }];
    const legendY = (legend: ChartElement['legend']): number => {
      const html = compile(chart({ series, legend, height: '60mm' })).html;
      const m = /<text[^>]*transform="translate\(([0-9.]+) ([0-9.]+)\)"[^>]*>Revenue<\/text>/.exec(html);
      if (!m) throw new Error(`no legend text for ${String(legend)}`);
      return Number(m[2]);
    };
    expect(legendY('top')).toBeLessThan(40);
    expect(legendY(true)).toBeGreaterThan(150);
    expect(legendY('bottom')).toBeGreaterThan(150);
    expect(compile(chart({ series, legend: false })).html).not.toMatch(/>Revenue<\/text>/);
  });

  it('issue 21 item 2: an option the chart ignores is InvalidChartConfig, once per element', () => {
    const doc = compile({
      currency: 'EUR',
      body: [
        { type: 'chart', id: 'pie', chartType: 'pie', source: 'months', labelField: 'month', stacked: true, horizontal: true, series: [{ field: 'revenue', color: 'red' }, { field: 'cost' }] },
        { type: 'chart', id: 'bar', chartType: 'bar', source: 'months', labelField: 'month', currency: 'USD', colors: ['red'], series: [{ field: 'revenue', color: 'blue' }] },
      ],
    });
    const described = doc.issues.map((i) => `${i.elementId}: ${i.description}`);
    expect(described).toEqual([
      'pie: A pie chart shows one series; only "revenue" is drawn.',
      'pie: "stacked" has no meaning for a pie chart; it is ignored.',
      'pie: "horizontal" has no meaning for a pie chart; it is ignored.',
      'pie: The slices of a pie chart take their colours from "colors"; the series colour is ignored.',
      'bar: Every series has its own colour; "colors" is ignored.',
      'bar: "currency" applies to valueFormat "currency" only; it is ignored.',
    ]);
    expect(doc.issues.every((i) => i.type === RenderIssueType.InvalidChartConfig)).toBe(true);
  });

  it('issue 21 item 2: a misspelt series field over 60 items is one issue, not 60', () => {
    const many = { months: Array.from({ length: 60 }, (_, i) => ({ month: `M${i}`, revenue: i })) };
    const doc = compile(chart({ series: [{ field: 'revenu' }] }), many);
    expect(doc.issues.map((i) => [i.type, i.description])).toEqual([
      [RenderIssueType.InvalidChartConfig, '"revenu" is not a number in any of the 60 items of "months"; they are drawn as gaps.'],
    ]);
  });

  it('issue 21 item 2: labels that are not dates are reported once and shown as they are', () => {
    const doc = compile(chart({ labelFormat: 'date' }), { months: [{ month: 'soon', revenue: 1 }, { month: '2026-01-05', revenue: 2 }] });
    expect(doc.issues.map((i) => i.description)).toEqual(['"month" cannot be shown as a date in 1 of 2 items of "months"; they are shown as they are.']);
    expect(svgTexts(doc.html)).toEqual(expect.arrayContaining(['soon', 'Jan 5, 2026']));
  });

  it('issue 33 item 1: in a right-to-left document a chart mirrors: categories from the right, the value axis on the right, legend items read from the right', () => {
    const template = (direction: 'ltr' | 'rtl'): Template => ({ ...chart({ series: [{ field: 'revenue', name: 'Revenue' }, { field: 'cost', name: 'Cost' }], legend: 'bottom', labelFormat: 'month' }), direction });
    /** The x of a text's anchor (ECharts writes each text translated to its place). */
    const xOf = (html: string, text: string): number => {
      const found = new RegExp(`<text[^>]*transform="(?:matrix\\([^)]*?([-\\d.]+) [-\\d.]+\\)|translate\\(([-\\d.]+) [-\\d.]+\\))"[^>]*>${text}</text>`).exec(html);
      if (!found) throw new Error(`no text ${text} in ${svgTexts(html).join('|')}`);
      return Number(found[1] ?? found[2]);
    };
    const ltr = compile(template('ltr'));
    const rtl = compile(template('rtl'));
    expect(rtl.issues).toEqual([]);
    expect(xOf(ltr.html, 'Jan 2026')).toBeLessThan(xOf(ltr.html, 'Feb 2026'));
    expect(xOf(rtl.html, 'Jan 2026')).toBeGreaterThan(xOf(rtl.html, 'Feb 2026'));
    // the value axis labels stand on the left of the plot in ltr, on its right in rtl
    expect(xOf(ltr.html, '1,000,000')).toBeLessThan(xOf(ltr.html, 'Jan 2026'));
    expect(xOf(rtl.html, '1,000,000')).toBeGreaterThan(xOf(rtl.html, 'Jan 2026'));
    // legend: Revenue (the first series) left of Cost in ltr, right of it in rtl
    expect(xOf(ltr.html, 'Revenue')).toBeLessThan(xOf(ltr.html, 'Cost'));
    expect(xOf(rtl.html, 'Revenue')).toBeGreaterThan(xOf(rtl.html, 'Cost'));
  });
});
