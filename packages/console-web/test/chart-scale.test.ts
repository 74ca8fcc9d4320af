// The arithmetic of the dashboard's charts: whole ticks (counts and micro units), so money on the
// axis is written exactly; labels under the axis; days named as the portal names them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMicro } from '../src/format/money.js';
import { labelledDay, niceScale, shortDay, ticksOf } from '../src/routes/dashboard/chart-scale.js';

test('the value axis steps by 1, 2 or 5 times a power of ten, whole, and covers the largest value', () => {
  assert.deepEqual(niceScale(0), { step: 1, top: 0 });
  assert.deepEqual(niceScale(1), { step: 1, top: 1 });
  assert.deepEqual(niceScale(3), { step: 1, top: 3 });
  assert.deepEqual(niceScale(22), { step: 10, top: 30 });
  assert.deepEqual(niceScale(38), { step: 10, top: 40 });
  assert.deepEqual(niceScale(17_000), { step: 5_000, top: 20_000 });
  assert.deepEqual(niceScale(1_000_001), { step: 500_000, top: 1_500_000 });
  for (const max of [1, 7, 99, 101, 12_345, 9_007_199_254_740_991]) {
    const { step, top } = niceScale(max);
    assert.ok(Number.isInteger(step) && step >= 1, `step of ${max}`);
    assert.ok(top >= max && top - step < max, `top of ${max}`);
  }
});

test('ticks run from 0 to the top and write money exactly', () => {
  assert.deepEqual(ticksOf(niceScale(0)), [0]);
  assert.deepEqual(ticksOf(niceScale(17_000)), [0, 5_000, 10_000, 15_000, 20_000]);
  assert.deepEqual(ticksOf(niceScale(17_000)).map(formatMicro), ['0.00', '0.005', '0.01', '0.015', '0.02']);
});

test('days are labelled at the last and every fifth before it, and named short', () => {
  assert.deepEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => labelledDay(i, 30)), [4, 9, 14, 19, 24, 29]);
  assert.equal(shortDay('2026-11-04'), 'Nov 4');
  assert.equal(shortDay('2026-01-31'), 'Jan 31');
});
