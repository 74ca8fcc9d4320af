// A bar chart of daily values, drawn as SVG by React (docs/decisions.md: not uPlot): named for
// screen readers by its <title> and <desc>, every day's slot carrying its own <title> that the
// browser shows on hover, axes labelled with whole ticks written by the caller's format. The
// colours come from styles.css by class name, as the portal's charts do.
import { labelledDay, niceScale, shortDay, ticksOf } from './chart-scale.js';

export interface ChartSeries {
  label: string;
  /** Class of its bars (bar-requests, bar-billable, bar-errors, bar-charged). */
  className: string;
  values: number[];
}

interface DayChartProps {
  id: string;
  title: string;
  description: string;
  /** YYYY-MM-DD of each slot, oldest first. */
  days: string[];
  series: ChartSeries[];
  format: (value: number) => string;
}

const WIDTH = 900;
const HEIGHT = 240;
const LEFT = 76;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 30;

export function DayChart({ id, title, description, days, series, format }: DayChartProps) {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const baseline = TOP + plotHeight;
  const max = Math.max(0, ...series.flatMap((s) => s.values));
  const scale = niceScale(max);
  const slot = plotWidth / Math.max(1, days.length);
  // The bars of one day share 70% of its slot; the rest is the gap between days.
  const barWidth = (slot * 0.7) / series.length;
  const y = (value: number) => baseline - (scale.top > 0 ? (value / scale.top) * plotHeight : 0);
  return (
    <svg className="day-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} data-testid={id}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {ticksOf(scale).map((tick) => (
        <g key={tick}>
          <line className="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(tick)} y2={y(tick)} />
          <text className="axis-label" x={LEFT - 8} y={y(tick) + 4} textAnchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
      {days.map((day, i) => {
        const x0 = LEFT + slot * i + slot * 0.15;
        const says = series.map((s) => `${s.label} ${format(s.values[i] ?? 0)}`).join(', ');
        return (
          <g key={day} className="day">
            <title>{`${shortDay(day)}: ${says}`}</title>
            <rect className="slot" x={LEFT + slot * i} y={TOP} width={slot} height={plotHeight} />
            {series.map((s, j) => {
              const value = s.values[i] ?? 0;
              // A day with some usage gets at least a sliver, so it never looks like a day with none.
              const height = value > 0 ? Math.max(1.5, baseline - y(value)) : 0;
              return <rect key={s.className} className={s.className} x={x0 + j * barWidth} y={baseline - height} width={Math.max(1, barWidth - 1)} height={height} />;
            })}
          </g>
        );
      })}
      <line className="axis" x1={LEFT} x2={WIDTH - RIGHT} y1={baseline} y2={baseline} />
      <line className="axis" x1={LEFT} x2={LEFT} y1={TOP} y2={baseline} />
      {days.map((day, i) =>
        labelledDay(i, days.length) ? (
          <text key={day} className="axis-label" x={LEFT + slot * (i + 0.5)} y={baseline + 20} textAnchor="middle">
            {shortDay(day)}
          </text>
        ) : null,
      )}
    </svg>
  );
}

/** The chart's key: a swatch of each series' colour and its name. */
export function Legend({ series }: { series: { label: string; className: string }[] }) {
  return (
    <ul className="chart-legend">
      {series.map((s) => (
        <li key={s.className}>
          <svg width="12" height="12" aria-hidden="true" focusable="false">
            <rect className={s.className} width="12" height="12" rx="2" />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}
