// The usage page's SVG bar charts (src/portal/chart.ts), as pure functions: the value axis's
// scale on both sides of its steps and at the largest counter, day labels, and a chart that
// escapes what it is given and names itself for screen readers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { barChart, niceScale, shortDay } from '../../src/portal/chart.js';

const BOUND = 9_007_199_254_740_991; // the largest stored counter (platform/money.ts)

test('niceScale: steps of 1, 2 or 5 times a power of ten, at least 1, with a top covering the largest value', () => {
  assert.deepEqual(niceScale(0), { step: 1, top: 0 }, 'nothing to show: no scale');
  assert.deepEqual(niceScale(1), { step: 1, top: 1 });
  assert.deepEqual(niceScale(4), { step: 1, top: 4 });
  assert.deepEqual(niceScale(5), { step: 2, top: 6 });
  assert.deepEqual(niceScale(8), { step: 2, top: 8 });
  assert.deepEqual(niceScale(9), { step: 5, top: 10 });
  assert.deepEqual(niceScale(20), { step: 5, top: 20 });
  assert.deepEqual(niceScale(21), { step: 10, top: 30 });
  assert.deepEqual(niceScale(3_000), { step: 1_000, top: 3_000 });
  for (const max of [1, 7, 99, 101, 12_345, 1_000_001, BOUND]) {
    const { step, top } = niceScale(max);
    assert.ok(top >= max && top - step < max, `${max}: the top is the first step at or above it`);
    assert.ok(Number.isInteger(step) && Number.isInteger(top), `${max}: whole numbers, so micro units format`);
    assert.ok(top / step <= 5, `${max}: at most five steps`);
  }
});

test('shortDay names a UTC day by month and day', () => {
  assert.equal(shortDay('2025-01-01'), 'Jan 1');
  assert.equal(shortDay('2025-12-31'), 'Dec 31');
});

test('a chart: one titled group per day, labelled axes, escaped text, and a message when empty', () => {
  const days = ['2025-11-22', '2025-11-23', '2025-11-24'];
  const svg = barChart({
    id: 'c', title: 'Requests <per> day', description: 'A & B', days,
    series: [{ label: 'requests', className: 'bar-requests', values: [0, 3, 10] }, { label: 'errors', className: 'bar-errors', values: [0, 0, 1] }],
    format: String,
  }).value;
  assert.match(svg, /^<svg class="chart" id="c" viewBox="0 0 \d+ \d+" role="img" aria-labelledby="c-title c-desc"/);
  assert.match(svg, /<title id="c-title">Requests &lt;per&gt; day<\/title><desc id="c-desc">A &amp; B<\/desc>/);
  assert.equal(svg.match(/<g class="day">/g)?.length, 3);
  assert.match(svg, /<title>Nov 24: requests 10, errors 1<\/title>/);
  assert.match(svg, /<title>Nov 22: requests 0, errors 0<\/title>/);
  assert.match(svg, /<rect class="bar-requests" [^>]*height="0\.0"/, 'a day without usage has no bar');
  assert.match(svg, />10<\/text>/, 'the axis reaches the largest value');
  assert.doesNotMatch(svg, /No usage/);
  const empty = barChart({ id: 'e', title: 't', description: 'd', days, series: [{ label: 'x', className: 'bar-charged', values: [0, 0, 0] }], format: String }).value;
  assert.match(empty, /No usage in these 3 days/);
});
