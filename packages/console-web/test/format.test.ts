// Money and time as the console writes them: integer arithmetic only, exact at the edges of int64
// amounts the API sends (within 2^53 - 1), and typed amounts read back without floating point.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents, formatMicro, formatSignedMicro, parseCents, parseMicro } from '../src/format/money.js';
import { formatAgo, formatTime } from '../src/format/time.js';

test('formatMicro writes units with two decimals, up to six when needed, thousands grouped', () => {
  assert.equal(formatMicro(0), '0.00');
  assert.equal(formatMicro(5_990_000), '5.99');
  assert.equal(formatMicro(1_234), '0.001234');
  assert.equal(formatMicro(1), '0.000001');
  assert.equal(formatMicro(-10_000), '-0.01');
  assert.equal(formatMicro(12_000_000_000), '12,000.00');
  assert.equal(formatMicro(Number.MAX_SAFE_INTEGER), '9,007,199,254.740991');
  assert.equal(formatMicro(-Number.MAX_SAFE_INTEGER), '-9,007,199,254.740991');
  assert.equal(formatSignedMicro(5_000_000), '+5.00');
  assert.equal(formatSignedMicro(-1_000), '-0.001');
});

test('formatCents writes dollars and cents', () => {
  assert.equal(formatCents(2900), '$29.00');
  assert.equal(formatCents(5), '$0.05');
  assert.equal(formatCents(123456789), '$1,234,567.89');
  assert.equal(formatCents(-250), '-$2.50');
});

test('parseMicro reads typed units exactly, and refuses more than six decimals or junk', () => {
  assert.equal(parseMicro('5'), 5_000_000);
  assert.equal(parseMicro('5.5'), 5_500_000);
  assert.equal(parseMicro('-0.001234'), -1_234);
  assert.equal(parseMicro('+1,000.25'), 1_000_250_000);
  assert.equal(parseMicro('.5'), 500_000);
  // 0.1 + 0.2 in floating point is 0.30000000000000004; here it is what was typed.
  assert.equal(parseMicro('0.3'), 300_000);
  assert.equal(parseMicro('100000.000001'), 100_000_000_001);
  assert.equal(parseMicro('1.0000001'), null);
  assert.equal(parseMicro(''), null);
  assert.equal(parseMicro('abc'), null);
  assert.equal(parseMicro('1e6'), null);
  assert.equal(parseMicro('9007199254.740991'), Number.MAX_SAFE_INTEGER);
  assert.equal(parseMicro('9007199254.740992'), null);
});

test('parseCents reads dollars and cents exactly', () => {
  assert.equal(parseCents('25'), 2500);
  assert.equal(parseCents('$25.5'), 2550);
  assert.equal(parseCents('1,000.05'), 100005);
  assert.equal(parseCents('2.555'), null);
  assert.equal(parseCents('-5'), null);
});

test('times are written in UTC; ages in the largest whole unit', () => {
  assert.equal(formatTime('2026-11-26T14:05:59.999Z'), '2026-11-26 14:05 UTC');
  assert.equal(formatTime(null), 'never');
  const now = Date.parse('2026-11-26T12:00:00Z');
  assert.equal(formatAgo('2026-11-26T11:59:30Z', now), 'just now');
  assert.equal(formatAgo('2026-11-26T11:55:00Z', now), '5 minutes ago');
  assert.equal(formatAgo('2026-11-26T11:00:00Z', now), '1 hour ago');
  assert.equal(formatAgo('2026-11-23T12:00:00Z', now), '3 days ago');
});
