// POST /sdk/v1/usage, billing (shared/spec/sdk-wire-protocol.md section 4 "Billing" and
// "usage_policy_id", DESIGN section 7): count × price of the named policy for billable statuses
// only, every status counted, the test customer never charged, late usage billed at the policy it
// names, usage after revocation or suspension still accepted, one ledger entry per customer per
// UTC day, balance_seq growing with every balance change.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  apiStats, createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, hourStamp, postWireUsage, usageEntries, usageItem, type ApiFixture,
} from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const PRICE = 1000;

async function tenant(name: string, body: Record<string, unknown> = {}) {
  const api = await createApi(t, { name, ...body }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const policy = await policyOf(api, customer.id);
  return { api, customer, key, policy };
}

async function policyOf(api: ApiFixture, customerId: string): Promise<string> {
  return customerIn((await getWireSnapshot(t, api.secret)).body, customerId).usage_policy_id;
}

const sameMonth = (a: string, b: Date) => a.slice(0, 7) === b.toISOString().slice(0, 7);

test('usage billing: only billable statuses are charged (count × price); every status counts in month_requests, platform_monthly_used and stats', async () => {
  const x = await tenant('Billable API');
  const now = t.clock.now();
  const items = [
    usageItem(x.key.id, x.policy, 200, 10, now),
    usageItem(x.key.id, x.policy, 201, 2, now),
    usageItem(x.key.id, x.policy, 204, 1, now),
    usageItem(x.key.id, x.policy, 404, 3, now),
    usageItem(x.key.id, x.policy, 429, 4, now),
    usageItem(x.key.id, x.policy, 500, 1, now),
    usageItem(x.key.id, x.policy, 302, 5, now),
  ];
  assert.deepEqual((await postWireUsage(t, x.api.secret, items)).map((r) => r.status), Array(7).fill('accepted'));
  const charged = 13 * PRICE;
  const detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - charged);
  assert.equal(detail.month_requests, 26);
  const snap = await getWireSnapshot(t, x.api.secret);
  assert.equal(customerIn(snap.body, x.customer.id).month_requests, 26);
  assert.equal(snap.body.platform_monthly_used, 26);
  const stats = await apiStats(x.api);
  assert.equal(stats.requests_today, 26);
  assert.equal(stats.requests_month, 26);
  assert.equal(stats.charged_month_micro, charged);
  const today = stats.daily.at(-1);
  assert.equal(today.requests, 26);
  assert.equal(today.billable, 13);
  assert.equal(today.errors, 1);
  assert.equal(today.charged_micro, charged);
  const [entry] = await usageEntries(x.api, x.customer.id);
  assert.equal(entry.amount_micro, -charged);
  assert.equal(entry.requests, 26);
});

test('usage billing: items are charged at the price of the policy they name (custom limits), and a price of 0 charges nothing', async () => {
  const x = await tenant('Custom Price API');
  const limits = await x.api.owner.client.put(`/apis/${x.api.apiId}/customers/${x.customer.id}/limits`, { price_per_request_micro: 2_500 });
  assert.equal(limits.status, 200, limits.text);
  const custom = await policyOf(x.api, x.customer.id);
  assert.notEqual(custom, x.policy);
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(x.key.id, custom, 200, 4, t.clock.now())]))[0]!.status, 'accepted');
  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 10_000);

  const free = await x.api.owner.client.put(`/apis/${x.api.apiId}/customers/${x.customer.id}/limits`, { price_per_request_micro: 0 });
  assert.equal(free.status, 200, free.text);
  const freePolicy = await policyOf(x.api, x.customer.id);
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(x.key.id, freePolicy, 200, 40, t.clock.now())]))[0]!.status, 'accepted');
  const detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - 10_000);
  assert.equal(detail.month_requests, 44);
});

test('usage billing: an item without usage_policy_id (the customer had none) is billed at the current policy', async () => {
  const x = await tenant('No Policy Item API');
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(x.key.id, null, 200, 3, t.clock.now())]))[0]!.status, 'accepted');
  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 3 * PRICE);
});

test("usage billing: the test customer's usage counts but is never charged", async () => {
  const x = await tenant('Test Customer API');
  const testKey = await x.api.owner.client.post(`/apis/${x.api.apiId}/test-key`);
  assert.equal(testKey.status, 200, testKey.text);
  const snap = await getWireSnapshot(t, x.api.secret);
  const testCustomer = customerIn(snap.body, testKey.body.customer_id);
  const keyId = snap.body.keys.find((k: any) => k.customer_id === testCustomer.id).id;
  const now = t.clock.now();
  const results = await postWireUsage(t, x.api.secret, [usageItem(keyId, testCustomer.usage_policy_id, 200, 50, now), usageItem(keyId, testCustomer.usage_policy_id, 404, 5, now), usageItem(x.key.id, x.policy, 200, 2, now)]);
  assert.deepEqual(results.map((r) => r.status), ['accepted', 'accepted', 'accepted']);
  const after = await getWireSnapshot(t, x.api.secret);
  const c = customerIn(after.body, testCustomer.id);
  assert.equal(c.credit_balance_micro, testCustomer.credit_balance_micro, 'never charged');
  assert.equal(c.month_requests, 55);
  assert.equal(after.body.platform_monthly_used, 57, 'test requests count toward the platform allowance');
  const stats = await apiStats(x.api);
  assert.equal(stats.requests_today, 57);
  assert.equal(stats.charged_month_micro, 2 * PRICE, 'charged amounts leave the test customer out');
  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 2 * PRICE);
  const connection = await x.api.owner.client.get(`/apis/${x.api.apiId}/connection`);
  assert.equal(connection.body.test_requests, 55);
});

test('usage billing: late usage naming the OLD usage_policy_id is billed at the old price (and old billable codes); the new policy at the new price', async () => {
  const x = await tenant('Late Usage API');
  const oldPolicy = x.policy;
  const patched = await x.api.owner.client.patch(`/apis/${x.api.apiId}`, { price_per_request_micro: 2_500, billable_status_codes: [200, 404] });
  assert.equal(patched.status, 200, patched.text);
  const snap = await getWireSnapshot(t, x.api.secret);
  const current = customerIn(snap.body, x.customer.id);
  assert.notEqual(current.usage_policy_id, oldPolicy);
  assert.equal(current.effective.price_per_request_micro, 2_500);
  const now = t.clock.now();

  // Admitted under the old policy, reported after the change: 1000 each, 404 not billable then.
  const late = [usageItem(x.key.id, oldPolicy, 200, 3, now), usageItem(x.key.id, oldPolicy, 404, 2, now)];
  assert.deepEqual((await postWireUsage(t, x.api.secret, late)).map((r) => r.status), ['accepted', 'accepted']);
  let detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - 3 * 1_000);

  // Under the new policy: 2500 each, and 404 is billable now.
  const fresh = [usageItem(x.key.id, current.usage_policy_id, 200, 3, now), usageItem(x.key.id, current.usage_policy_id, 404, 2, now)];
  assert.deepEqual((await postWireUsage(t, x.api.secret, fresh)).map((r) => r.status), ['accepted', 'accepted']);
  detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - 3 * 1_000 - 5 * 2_500);
  assert.equal(detail.month_requests, 10);

  // Without a policy id, the policy in force now.
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(x.key.id, null, 200, 1, now)]))[0]!.status, 'accepted');
  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 3 * 1_000 - 6 * 2_500);
});

test('usage billing: usage for a key revoked, a customer suspended, or an API suspended after the fact is still accepted and billed', async () => {
  const x = await tenant('After The Fact API');
  const now = t.clock.now();
  const revoked = await x.api.owner.client.delete(`/apis/${x.api.apiId}/customers/${x.customer.id}/keys/${x.key.id}`);
  assert.equal(revoked.status, 204, revoked.text);
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(x.key.id, x.policy, 200, 2, now)]))[0]!.status, 'accepted');

  const second = await createCustomer(t, x.api, 'Second');
  const secondKey = await createKey(x.api, second.id);
  const secondPolicy = await policyOf(x.api, second.id);
  const suspended = await x.api.owner.client.patch(`/apis/${x.api.apiId}/customers/${second.id}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(secondKey.id, secondPolicy, 200, 3, now)]))[0]!.status, 'accepted');

  const apiSuspended = await x.api.owner.client.post(`/apis/${x.api.apiId}/suspend`, { reason: 'review' });
  assert.equal(apiSuspended.status, 200, apiSuspended.text);
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(secondKey.id, secondPolicy, 200, 1, now)]))[0]!.status, 'accepted');

  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 2 * PRICE);
  const secondDetail = await customerDetail(x.api, second.id);
  assert.equal(secondDetail.balance_micro, 1_000_000 - 4 * PRICE);
  assert.equal(secondDetail.month_requests, 4);
});

test('usage billing: folded into one ledger entry per customer per UTC day; another day gets another entry', async () => {
  const x = await tenant('Ledger Day API');
  const hour = hourStamp(t.clock.now());
  const item = (status: number, count: number, periodStart = hour) => ({ ...usageItem(x.key.id, x.policy, status, count, t.clock.now()), period_start: periodStart });
  assert.equal((await postWireUsage(t, x.api.secret, [item(200, 4), item(404, 1)])).length, 2);
  let entries = await usageEntries(x.api, x.customer.id);
  assert.equal(entries.length, 1);
  const firstEntry = entries[0];
  assert.equal(firstEntry.requests, 5);
  assert.equal(firstEntry.amount_micro, -4 * PRICE);
  assert.equal(firstEntry.usage_day, `${hour.slice(0, 10)}T00:00:00.000Z`);

  // A second report the same day: the same entry, summed, updated in place.
  assert.equal((await postWireUsage(t, x.api.secret, [item(201, 6), item(500, 2)]))[0]!.status, 'accepted');
  entries = await usageEntries(x.api, x.customer.id);
  assert.equal(entries.length, 1);
  assert.equal(entries[0].id, firstEntry.id);
  assert.equal(entries[0].requests, 13);
  assert.equal(entries[0].amount_micro, -10 * PRICE);

  // An hour of the day before: its own entry, for that day.
  const yesterday = hourStamp(new Date(Date.parse(hour) - 24 * 3_600_000));
  assert.equal((await postWireUsage(t, x.api.secret, [item(200, 3, yesterday)]))[0]!.status, 'accepted');
  entries = await usageEntries(x.api, x.customer.id);
  assert.equal(entries.length, 2);
  const byDay = new Map(entries.map((e: any) => [e.usage_day.slice(0, 10), e]));
  assert.equal(byDay.get(hour.slice(0, 10)).requests, 13);
  assert.equal(byDay.get(yesterday.slice(0, 10)).requests, 3);
  assert.equal(byDay.get(yesterday.slice(0, 10)).amount_micro, -3 * PRICE);
  const detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - 13 * PRICE);
  // month_requests counts the calendar month of each item's hour.
  const now = t.clock.now();
  assert.equal(detail.month_requests, (sameMonth(hour, now) ? 13 : 0) + (sameMonth(yesterday, now) ? 3 : 0));
  // Two days in one report: one entry each, still folded.
  assert.deepEqual((await postWireUsage(t, x.api.secret, [item(200, 1), item(200, 1, yesterday)])).map((r) => r.status), ['accepted', 'accepted']);
  entries = await usageEntries(x.api, x.customer.id);
  assert.equal(entries.length, 2);
  assert.deepEqual(entries.map((e: any) => e.requests).sort((a: number, b: number) => a - b), [4, 14]);
});

test('usage billing: balance_seq grows with every applied report, not with duplicates; the snapshot and the console agree on the balance', async () => {
  const x = await tenant('Balance Seq API');
  const seqOf = async () => customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id);
  let previous = await seqOf();
  const now = t.clock.now();
  for (let i = 0; i < 3; i++) {
    const item = usageItem(x.key.id, x.policy, 200, 1, now);
    assert.equal((await postWireUsage(t, x.api.secret, [item]))[0]!.status, 'accepted');
    const next = await seqOf();
    assert.ok(next.balance_seq > previous.balance_seq, `${previous.balance_seq} -> ${next.balance_seq}`);
    assert.equal(next.credit_balance_micro, previous.credit_balance_micro - PRICE);
    assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, next.credit_balance_micro);
    assert.equal((await postWireUsage(t, x.api.secret, [item]))[0]!.status, 'duplicate');
    assert.equal((await seqOf()).balance_seq, next.balance_seq);
    previous = next;
  }
  // A console credit moves it too: one sequence for every balance change.
  const credit = await x.api.owner.client.post(`/apis/${x.api.apiId}/customers/${x.customer.id}/credit`, { amount_micro: 5, note: 'seq' });
  assert.equal(credit.status, 200, credit.text);
  assert.ok((await seqOf()).balance_seq > previous.balance_seq);
});

test('usage billing: a subscription plan bills at its own price per request', async () => {
  const x = await tenant('Plan Billing API');
  const plan = await x.api.owner.client.post(`/apis/${x.api.apiId}/plans`, { name: 'Metered', price_monthly_cents: 500, price_per_request_micro: 300 });
  assert.equal(plan.status, 200, plan.text);
  const assigned = await x.api.owner.client.patch(`/apis/${x.api.apiId}/customers/${x.customer.id}`, { plan_id: plan.body.id });
  assert.equal(assigned.status, 200, assigned.text);
  const c = customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id);
  assert.equal(c.effective.billing_model, 'subscription');
  assert.equal(c.effective.price_per_request_micro, 300);
  assert.equal((await postWireUsage(t, x.api.secret, [usageItem(x.key.id, c.usage_policy_id, 200, 10, t.clock.now())]))[0]!.status, 'accepted');
  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 3_000);
});

test('usage billing: past the platform hard cap and below a zero balance, usage is still accepted and charged (never a tenant-level 402)', async () => {
  const x = await tenant('Over Limit API');
  const now = t.clock.now();
  // 120,000 requests: past the free platform plan's 100,000 with its hard cap; 2,000 billable.
  const results = await postWireUsage(t, x.api.secret, [usageItem(x.key.id, x.policy, 404, 118_000, now), usageItem(x.key.id, x.policy, 200, 2_000, now)]);
  assert.deepEqual(results.map((r) => r.status), ['accepted', 'accepted']);
  const snap = await getWireSnapshot(t, x.api.secret);
  assert.equal(snap.body.platform_hard_cap, true);
  assert.equal(snap.body.platform_monthly_remaining, 0);
  const c = customerIn(snap.body, x.customer.id);
  assert.equal(c.credit_balance_micro, 1_000_000 - 2_000 * PRICE);
  assert.ok(c.credit_balance_micro < 0);
  // More usage, with the platform allowance used up and the balance negative: accepted, charged.
  const more = await postWireUsage(t, x.api.secret, [usageItem(x.key.id, x.policy, 200, 5, now)]);
  assert.equal(more[0]!.status, 'accepted');
  const after = await getWireSnapshot(t, x.api.secret);
  assert.equal(customerIn(after.body, x.customer.id).credit_balance_micro, 1_000_000 - 2_005 * PRICE);
  assert.equal(after.body.platform_monthly_used, 120_005);
});
