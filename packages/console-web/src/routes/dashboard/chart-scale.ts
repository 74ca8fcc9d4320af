// The arithmetic of the dashboard's bar charts, kept apart from drawing so it can be tested alone.
// Values are whole counts or micro units, so every tick is a whole number and money ticks are
// written exactly by formatMicro.

/**
 * The top of the value axis and its step: the step is 1, 2 or 5 times a power of ten, at least
 * 1, chosen so about `intervals` steps cover `max` (the portal's charts use the same rule).
 */
export function niceScale(max: number, intervals = 4): { step: number; top: number } {
  if (!(max > 0)) return { step: 1, top: 0 };
  const rough = max / intervals;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => Math.round(m * magnitude)).find((candidate) => candidate >= rough)!);
  return { step, top: step * Math.ceil(max / step) };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-11-04" → "Nov 4". */
export const shortDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/** The ticks of an axis from 0 to `top` by `step`; just 0 for an empty chart. */
export const ticksOf = ({ step, top }: { step: number; top: number }) => (top > 0 ? Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) : [0]);

/** Which days get a label under the axis: the last and every fifth before it (six fit 30 days). */
export const labelledDay = (index: number, count: number) => (count - 1 - index) % 5 === 0;
