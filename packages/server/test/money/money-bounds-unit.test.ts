// The pure parts of the money bounds (platform/money.ts, sdk-sync/usage-bounds.ts): reading a
// bigint column is total and saturates; items fit in order, counting the ones before them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MONEY_BOUND, parseInt8, saturate } from '../../src/platform/money.js';
import { fitWithinBounds, type BoundedItem } from '../../src/sdk-sync/usage-bounds.js';

const M = BigInt(MONEY_BOUND);

test('parseInt8 reads every bigint as a safe integer, saturated at ±(2^53 - 1)', () => {
  assert.equal(parseInt8('0'), 0);
  assert.equal(parseInt8('9007199254740991'), MONEY_BOUND);
  assert.equal(parseInt8('-9007199254740991'), -MONEY_BOUND);
  for (const past of ['9007199254740992', '9223372036854775807']) assert.equal(parseInt8(past), MONEY_BOUND);
  for (const past of ['-9007199254740992', '-9223372036854775808']) assert.equal(parseInt8(past), -MONEY_BOUND);
  assert.equal(saturate(2n ** 64n), MONEY_BOUND);
});

const item = (customerId: string, charge: bigint, count = 1, day = '2026-01-01'): BoundedItem => ({ customerId, day, count, charge });

test('fitWithinBounds: an item landing exactly on the bound fits, one micro unit past it does not; later items still fit when they can', () => {
  const standing = { balances: new Map([['a', 0n], ['b', -1n]]), entries: new Map() };
  const verdicts = fitWithinBounds([item('a', M), item('b', M), item('a', 1n), item('a', 0n), item('b', M - 1n)], standing);
  assert.equal(verdicts[0], null);
  assert.match(verdicts[1]!, /balance/);
  assert.match(verdicts[2]!, /balance/);
  assert.equal(verdicts[3], null, 'an item that charges nothing moves no amount');
  assert.equal(verdicts[4], null, 'the rejected item before it counted for nothing');
});

test("fitWithinBounds: the day's entry is bounded in amount and requests; another day has its own", () => {
  const standing = { balances: new Map([['a', 10n]]), entries: new Map([['a|2026-01-01', { amount: -M + 5n, requests: M - 2n }]]) };
  const verdicts = fitWithinBounds([item('a', 6n), item('a', 5n, 3), item('a', 0n, 2), item('a', 0n, 1), item('a', 6n, 1, '2026-01-02')], standing);
  assert.match(verdicts[0]!, /ledger entry of 2026-01-01/);
  assert.match(verdicts[1]!, /requests/);
  assert.equal(verdicts[2], null);
  assert.match(verdicts[3]!, /requests/);
  assert.equal(verdicts[4], null);
  // The standing given is not changed.
  assert.deepEqual(standing.entries.get('a|2026-01-01'), { amount: -M + 5n, requests: M - 2n });
});
