// The meter state's rules for followed changes and acknowledged balances (docs/decisions.md, "SDK
// following changes"), on the state alone: a balance never goes back, a held charge is released
// exactly when a balance_seq at or above its acknowledgement's has been seen, and removals drop
// keys and invalidate what admission remembered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangesBody, SnapshotBody, WireCustomer } from '@gatehouse/protocol';
import { MeterState } from '../src/state.js';

const customer = (id: string, balance: number, seq: number, status: WireCustomer['status'] = 'active'): WireCustomer => ({
  id, status, credit_balance_micro: balance, balance_seq: seq, month_requests: 0, usage_policy_id: null, policy_valid_until: null,
  effective: { rps: 0, price_per_request_micro: 1_000, monthly_quota: null, billing_model: 'payg', source: 'payg' },
});
const top = {
  tenant_id: 'api_1', tenant_name: 'A', tenant_status: 'active' as const, billable_status_codes: [200],
  platform_monthly_limit: 1_000_000, platform_monthly_used: 0, platform_monthly_remaining: 1_000_000,
  platform_period_end: '2099-01-01T00:00:00.000Z', platform_hard_cap: false,
  platform_monthly_allowance: { limit: 1_000_000, used: 0, remaining: 1_000_000, period_start: '2098-12-01T00:00:00.000Z', period_end: '2099-01-01T00:00:00.000Z', hard_cap: false },
};
const snapshot = (at: number, customers: WireCustomer[], cursor = '10'): SnapshotBody => ({
  ...top, generated_at: new Date(at).toISOString(), customers,
  keys: customers.map((c, i) => ({ id: `k${i}`, customer_id: c.id, key_hash: String(i).padStart(64, '0') })), sync_cursor: cursor,
});
const changes = (cursor: string, part: Partial<ChangesBody>): ChangesBody => ({
  ...top, generated_at: new Date().toISOString(), cursor, has_more: false, customers: [], keys: [], removed_keys: [], removed_customers: [], balances: [], ...part,
});

test('a balance never goes back: an older balance_seq from a snapshot, a change or an acknowledgement is not taken', () => {
  const state = new MeterState();
  state.apply(snapshot(1_000, [customer('c1', 5_000, 3)]), 900, 1_000);
  state.applyChanges(changes('11', { balances: [{ id: 'c1', credit_balance_micro: 4_000, balance_seq: 5 }] }), 1_100);
  assert.deepEqual([state.customers.get('c1')!.balance, state.customers.get('c1')!.balanceSeq], [4_000, 5]);
  state.applyBalance({ id: 'c1', credit_balance_micro: 4_500, balance_seq: 4 });
  state.applyChanges(changes('12', { customers: [customer('c1', 9_999, 4, 'suspended')] }), 1_200);
  const view = state.customers.get('c1')!;
  assert.deepEqual([view.balance, view.balanceSeq, view.status], [4_000, 5, 'suspended'], 'the record is taken, its older balance is not');
  state.apply(snapshot(2_000, [customer('c1', 7_000, 4)], '12'), 1_900, 2_000);
  assert.equal(state.customers.get('c1')!.balance, 4_000);
  state.apply(snapshot(3_000, [customer('c1', 7_000, 6)], '13'), 2_900, 3_000);
  assert.equal(state.customers.get('c1')!.balance, 7_000, 'a newer one is');
});

test('an acknowledged charge is held until a balance_seq at or above the acknowledgement\'s is seen, not before', () => {
  const state = new MeterState();
  state.apply(snapshot(1_000, [customer('c1', 10_000, 3)]), 900, 1_000);
  state.acknowledge('c1', 2_000, 1_500, 5);
  assert.equal(state.local.get('c1')!.ackedMicro, 2_000);
  state.applyChanges(changes('11', { balances: [{ id: 'c1', credit_balance_micro: 9_000, balance_seq: 4 }] }), 2_000);
  assert.equal(state.local.get('c1')!.ackedMicro, 2_000, 'seq 4 < 5: still held, though the answer was fetched after the acknowledgement');
  state.applyChanges(changes('12', { balances: [{ id: 'c1', credit_balance_micro: 7_000, balance_seq: 5 }] }), 2_100);
  assert.equal(state.local.get('c1')!.ackedMicro, 0, 'seq 5: released, and the balance shows it');
  assert.equal(state.available(state.customers.get('c1')!, state.local.get('c1')!), 7_000);
  // An acknowledgement whose balance the state has already seen holds nothing.
  state.acknowledge('c1', 1_000, 2_200, 5);
  assert.equal(state.local.get('c1')!.ackedMicro, 0);
});

test('without a balance_seq, the time rule: released by a changes answer fetched after the acknowledgement, not by one fetched before', () => {
  const state = new MeterState();
  state.apply(snapshot(1_000, [customer('c1', 10_000, 3)]), 900, 1_000);
  state.acknowledge('c1', 2_000, 1_500);
  state.applyChanges(changes('11', {}), 1_400);
  assert.equal(state.local.get('c1')!.ackedMicro, 2_000);
  state.applyChanges(changes('12', {}), 1_600);
  assert.equal(state.local.get('c1')!.ackedMicro, 0);
});

test('removed keys and customers leave the maps and change the keys token; a replaced customer view is marked stale', () => {
  const state = new MeterState();
  state.apply(snapshot(1_000, [customer('c1', 10_000, 3), customer('c2', 10_000, 3)]), 900, 1_000);
  const token = state.keysToken;
  const c1 = state.customers.get('c1')!;
  state.applyChanges(changes('11', { customers: [customer('c1', 10_000, 3)] }), 1_100);
  assert.equal(c1.stale, true);
  assert.equal(state.keysToken, token, 'no key left: what admission remembered stays');
  state.applyChanges(changes('12', { removed_keys: ['k0'], removed_customers: ['c2'] }), 1_200);
  assert.notEqual(state.keysToken, token);
  // Refused from the answer on (admission reads removedKeyIds; c2's keys find no customer), and
  // taken out of the map by the sweep the meter runs after the answer.
  assert.equal(state.removedKeyIds.has('k0'), true);
  assert.equal(state.sweepPending, true);
  const before = state.keysToken;
  while (state.sweepRemoved(1)) {
    // one entry a slice
  }
  assert.equal(state.sweepPending, false);
  assert.notEqual(state.keysToken, before, 'the cache of keys by raw value is dropped once the entries are out');
  assert.equal(state.keys.size, 0);
  assert.equal(state.customers.has('c2'), false);
  assert.equal(state.cursor, '12');
  assert.equal(state.applyChanges(changes('13', { platform_period_end: '2099-02-01T00:00:00.000Z' }), 1_300), 'resnapshot', 'a new period needs the snapshot');
  assert.equal(state.cursor, '12');
});
