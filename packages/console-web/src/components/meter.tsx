// An amount used of an allowance as a bar (the platform plan's monthly requests): role="meter"
// with its numbers for assistive technology, and the same numbers written beside it.
import { useId } from 'react';

export function Meter({ label, value, max, valueText }: { label: string; value: number; max: number; valueText: string }) {
  const id = useId();
  const over = max > 0 && value > max;
  // Whole percent for the bar's width; the exact counts are in the text.
  const percent = max > 0 ? Math.min(100, Math.floor((value * 100) / max)) : 0;
  return (
    <div className="field">
      <span className="label" id={id}>
        {label}
      </span>
      <div
        className={over ? 'meter over' : 'meter'}
        role="meter"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.min(value, max)}
        aria-valuetext={valueText}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="hint">{valueText}</p>
    </div>
  );
}
