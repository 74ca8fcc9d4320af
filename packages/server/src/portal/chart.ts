// Bar charts of daily values as server-rendered SVG: readable without JavaScript (the page's CSP
// allows none to draw them), named for screen readers by a <title> and <desc>, every bar carrying
// its own <title> (the browser shows it on hover), axes with labels. Colours come from the page's
// style by class name, so the chart follows the API's accent colour.
import { html, type SafeHtml } from '../platform/pages/html.js';

export interface ChartSeries {
  /** Named in each day's title ("Nov 4: requests 12, billable 10"). */
  label: string;
  /** Class of its bars, coloured by the portal's style (bar-requests, bar-billable, ...). */
  className: string;
  values: number[];
}

export interface BarChart {
  id: string;
  title: string;
  /** What the chart shows, in words, for screen readers. */
  description: string;
  /** YYYY-MM-DD of each slot, oldest first. */
  days: string[];
  /** Drawn side by side in each day's slot, in this order. */
  series: ChartSeries[];
  /** How an axis label and a bar's title write a value. */
  format: (value: number) => string;
}

const WIDTH = 900;
const HEIGHT = 260;
const LEFT = 72;
const RIGHT = 12;
const TOP = 14;
const BOTTOM = 32;

/**
 * The top of the value axis and its step: the step is 1, 2 or 5 times a power of ten, at least
 * 1 (values are whole counts or micro units), chosen so about `intervals` steps cover `max`.
 */
export function niceScale(max: number, intervals = 4): { step: number; top: number } {
  if (!(max > 0)) return { step: 1, top: 0 };
  const rough = max / intervals;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= rough)!);
  return { step, top: step * Math.ceil(max / step) };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2025-11-04" → "Nov 4". */
export const shortDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/** The chart as inline SVG; with nothing to show it says so inside the frame. */
export function barChart(chart: BarChart): SafeHtml {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const baseline = TOP + plotHeight;
  const max = Math.max(0, ...chart.series.flatMap((s) => s.values));
  const { step, top } = niceScale(max);
  const slot = plotWidth / chart.days.length;
  // Bars of one day share 70% of its slot; the rest is the gap between days.
  const barWidth = (slot * 0.7) / chart.series.length;
  const y = (value: number) => baseline - (top > 0 ? (value / top) * plotHeight : 0);
  const fixed = (n: number) => n.toFixed(1);

  const ticks = top > 0 ? Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) : [0];
  const grid = ticks.map((tick) => html`<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${fixed(y(tick))}" y2="${fixed(y(tick))}"></line><text class="axis-label" x="${LEFT - 8}" y="${fixed(y(tick) + 4)}" text-anchor="end">${chart.format(tick)}</text>`);
  // A label under today and every fifth day before it: six labels fit a 30-day axis.
  const last = chart.days.length - 1;
  const dayLabels = chart.days.map((day, i) => ((last - i) % 5 === 0 ? html`<text class="axis-label" x="${fixed(LEFT + slot * (i + 0.5))}" y="${baseline + 20}" text-anchor="middle">${shortDay(day)}</text>` : ''));
  const bars = chart.days.map((day, i) => {
    const x0 = LEFT + slot * i + slot * 0.15;
    const says = chart.series.map((s) => `${s.label} ${chart.format(s.values[i] ?? 0)}`).join(', ');
    const rects = chart.series.map((s, j) => {
      const value = s.values[i] ?? 0;
      // A day with some usage gets at least a sliver, so it never looks like a day with none.
      const height = value > 0 ? Math.max(1.5, baseline - y(value)) : 0;
      return html`<rect class="${s.className}" x="${fixed(x0 + j * barWidth)}" y="${fixed(baseline - height)}" width="${fixed(Math.max(1, barWidth - 1))}" height="${fixed(height)}"></rect>`;
    });
    // The whole slot is the hover target, so a day with tiny bars still shows its numbers.
    return html`<g class="day"><title>${shortDay(day)}: ${says}</title><rect class="slot" x="${fixed(LEFT + slot * i)}" y="${TOP}" width="${fixed(slot)}" height="${plotHeight}"></rect>${rects}</g>`;
  });
  const empty = max === 0 ? html`<text class="empty" x="${LEFT + plotWidth / 2}" y="${TOP + plotHeight / 2}" text-anchor="middle">No usage in these ${chart.days.length} days</text>` : '';
  return html`<svg class="chart" id="${chart.id}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${chart.id}-title ${chart.id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${chart.id}-title">${chart.title}</title><desc id="${chart.id}-desc">${chart.description}</desc>
${grid}${bars}
<line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${baseline}" y2="${baseline}"></line><line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${baseline}"></line>
${dayLabels}${empty}</svg>`;
}

/** The chart's key, as HTML beside it: a swatch of each series' colour and its name. */
export function legend(series: { label: string; className: string }[]): SafeHtml {
  return html`<ul class="legend">${series.map((s) => html`<li><svg width="12" height="12" aria-hidden="true"><rect class="${s.className}" width="12" height="12" rx="2"></rect></svg>${s.label}</li>`)}</ul>`;
}
