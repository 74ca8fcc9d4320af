// Money bounds of usage reports (hardening issue, item 7; wire protocol section 4): an item whose
// charge would take the customer's balance, or its usage ledger entry of the day, past
// ±(2^53 - 1) micro units is answered `rejected` (terminal: the SDK dead-letters it instead of
// retrying) and changes nothing; the other items of the report are applied exactly once. Each side
// of the bound is tested: an item that lands exactly on it is accepted, one micro unit past it is
// rejected. Before the fix such a report answered 500 on every retry.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  apiStats, createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, hourStamp, postWireUsage, resultFor, usageEntries, usageItem, type ApiFixture,
} from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const BOUND = 9_007_199_254_740_991; // 2^53 - 1
// PRICE × UNITS is the bound exactly (2^53 - 1 = 20,394,401 × 441,650,591), so a report can land on it.
const PRICE = 20_394_401;
const UNITS = 441_650_591;
const MAX_COUNT = 10_000_000; // the largest count of one item (wire protocol section 4)

interface Customer {
  api: ApiFixture;
  id: string;
  keyId: string;
  policy: string;
}

/** An API that charges PRICE per request and gives no welcome credit. */
async function pricedApi(name: string): Promise<ApiFixture> {
  const api = await createApi(t, { name }, owner);
  const patched = await api.owner.client.patch(`/apis/${api.apiId}`, { price_per_request_micro: PRICE, welcome_credit_micro: 0 });
  assert.equal(patched.status, 200, patched.text);
  return api;
}

async function credit(api: ApiFixture, customerId: string, amount: number) {
  const res = await api.owner.client.post(`/apis/${api.apiId}/customers/${customerId}/credit`, { amount_micro: amount, note: 'test balance' });
  assert.equal(res.status, 200, res.text);
}

/** A customer of `api` starting at `balance` (reached by credits, as an owner would). */
async function customerAt(api: ApiFixture, balance: number): Promise<Customer> {
  const customer = await createCustomer(t, api);
  if (balance) await credit(api, customer.id, balance);
  const key = await createKey(api, customer.id);
  const policy = customerIn((await getWireSnapshot(t, api.secret)).body, customer.id).usage_policy_id as string;
  return { api, id: customer.id, keyId: key.id, policy };
}

/** Billable items of `units` requests in all, at most MAX_COUNT each. */
function itemsOf(c: Customer, units: number, policy = c.policy, periodStart = t.clock.now()) {
  const items = [];
  for (let left = units; left > 0; left -= MAX_COUNT) items.push(usageItem(c.keyId, policy, 200, Math.min(left, MAX_COUNT), periodStart));
  return items;
}

/** Everything an applied item changes for one customer, as the console and the snapshot show it. */
async function stateOf(c: Customer) {
  const detail = await customerDetail(c.api, c.id);
  const wire = customerIn((await getWireSnapshot(t, c.api.secret)).body, c.id);
  return { balance: detail.balance_micro, monthRequests: detail.month_requests, seq: wire.balance_seq, wireBalance: wire.credit_balance_micro, ledger: await usageEntries(c.api, c.id) };
}

const statuses = (results: { status: string }[]) => results.map((r) => r.status);

test('bounds: a report that takes a balance exactly to -(2^53 - 1) is accepted; an item one micro unit past it is rejected and changes nothing', async () => {
  const api = await pricedApi('Bound Balance API');
  const atBound = await customerAt(api, 0);
  const pastBound = await customerAt(api, -1);
  // All but the last 1,650,591 units: both customers stay inside the bound.
  const head = UNITS - (UNITS % MAX_COUNT);
  for (const c of [atBound, pastBound]) assert.deepEqual(statuses(await postWireUsage(t, api.secret, itemsOf(c, head))), Array(head / MAX_COUNT).fill('accepted'));

  const lastAt = itemsOf(atBound, UNITS - head);
  assert.deepEqual(statuses(await postWireUsage(t, api.secret, lastAt)), ['accepted']);
  const landed = await stateOf(atBound);
  assert.equal(landed.balance, -BOUND);
  assert.equal(landed.wireBalance, -BOUND);
  assert.equal(landed.monthRequests, UNITS);
  assert.equal(landed.ledger.length, 1);
  assert.equal(landed.ledger[0].amount_micro, -BOUND, "the day's usage entry is at the bound too");

  const before = await stateOf(pastBound);
  const lastPast = itemsOf(pastBound, UNITS - head);
  const [result] = await postWireUsage(t, api.secret, lastPast);
  assert.equal(result!.status, 'rejected');
  assert.match(result!.detail ?? '', /balance/);
  assert.match(result!.detail ?? '', /9007199254740991/);
  assert.deepEqual(await stateOf(pastBound), before, 'the rejected item changed nothing: balance, balance_seq, month_requests, ledger');

  // Rejected is terminal for the SDK, but a journal replayed after a crash may send it again: it is
  // answered the same way, never `duplicate` (no receipt was kept for it).
  assert.equal((await postWireUsage(t, api.secret, lastPast))[0]!.status, 'rejected');
  // One more micro unit on the customer at the bound is past it as well; a non-billable item (no
  // charge) is still counted.
  const oneMore = await postWireUsage(t, api.secret, [usageItem(atBound.keyId, atBound.policy, 200, 1, t.clock.now()), usageItem(atBound.keyId, atBound.policy, 404, 3, t.clock.now())]);
  assert.deepEqual(statuses(oneMore), ['rejected', 'accepted']);
  const after = await stateOf(atBound);
  assert.equal(after.balance, -BOUND);
  assert.equal(after.monthRequests, UNITS + 3);
});

test('bounds: a report whose charges pass 2^53 (the finding: 500 on every retry) answers per item; the items within the bound are applied once, the rest rejected', async () => {
  const api = await pricedApi('Overflow Report API');
  const c = await customerAt(api, 0);
  const bystander = await customerAt(api, 0);
  // 46 items of 10,000,000 requests at PRICE: 9.38e15 micro units, past the bound by one item and more.
  const items = [...itemsOf(c, 46 * MAX_COUNT), usageItem(bystander.keyId, bystander.policy, 200, 7, t.clock.now())];
  const first = await postWireUsage(t, api.secret, items);
  const accepted = first.filter((r) => r.status === 'accepted');
  const rejected = first.filter((r) => r.status === 'rejected');
  // Units of 10,000,000 fit 44 times into the bound (UNITS is 44.2 of them).
  assert.equal(accepted.length, 44 + 1, JSON.stringify(first.filter((r) => r.status !== 'accepted')));
  assert.equal(rejected.length, 2);
  assert.equal(resultFor(first, items.at(-1)!.idempotency_key).status, 'accepted', "another customer's item is applied normally");
  for (const r of rejected) assert.match(r.detail ?? '', /bound/);
  const applied = await stateOf(c);
  assert.equal(applied.balance, -44 * MAX_COUNT * PRICE);
  assert.equal(applied.monthRequests, 44 * MAX_COUNT);
  assert.equal(applied.ledger[0].amount_micro, -44 * MAX_COUNT * PRICE);
  assert.equal((await stateOf(bystander)).balance, -7 * PRICE);

  // The same report again: the applied items are duplicates, the rejected ones rejected again; no 500.
  const again = await postWireUsage(t, api.secret, items);
  for (const r of first) assert.equal(resultFor(again, r.idempotency_key).status, r.status === 'accepted' ? 'duplicate' : 'rejected');
  assert.deepEqual(await stateOf(c), applied, 'exactly once');
});

test("bounds: the day's usage ledger entry is bounded too: exactly at -(2^53 - 1) it is accepted, one micro unit past it rejected; another day has its own entry", async () => {
  const api = await pricedApi('Bound Entry API');
  // A credit of 1 keeps the balance inside the bound when the day's entry passes it.
  const c = await customerAt(api, 1);
  assert.deepEqual(new Set(statuses(await postWireUsage(t, api.secret, itemsOf(c, UNITS)))), new Set(['accepted']));
  const atBound = await stateOf(c);
  assert.equal(atBound.ledger[0].amount_micro, -BOUND);
  assert.equal(atBound.balance, 1 - BOUND);
  // One micro unit more (a policy priced at 1) would make the entry -(2^53): rejected, though the
  // balance would still be inside the bound.
  const limits = await api.owner.client.put(`/apis/${api.apiId}/customers/${c.id}/limits`, { price_per_request_micro: 1 });
  assert.equal(limits.status, 200, limits.text);
  const cheap = customerIn((await getWireSnapshot(t, api.secret)).body, c.id).usage_policy_id as string;
  const micro = usageItem(c.keyId, cheap, 200, 1, t.clock.now());
  const [result] = await postWireUsage(t, api.secret, [micro]);
  assert.equal(result!.status, 'rejected');
  assert.match(result!.detail ?? '', /ledger entry/);
  assert.deepEqual(await stateOf(c), atBound);
  // The same micro unit used yesterday goes to yesterday's entry and is accepted.
  const yesterday = { ...micro, idempotency_key: randomUUID(), period_start: hourStamp(t.clock.now(), -24) };
  assert.equal((await postWireUsage(t, api.secret, [yesterday]))[0]!.status, 'accepted');
  const afterYesterday = await stateOf(c);
  assert.equal(afterYesterday.balance, -BOUND);
  assert.equal(afterYesterday.ledger.length, 2);
});

test('bounds: statistics that add up bounded amounts saturate at 2^53 - 1 instead of failing (two customers each charged the bound in one day)', async () => {
  const api = await pricedApi('Saturated Stats API');
  const a = await customerAt(api, 0);
  const b = await customerAt(api, 0);
  const results = await postWireUsage(t, api.secret, [...itemsOf(a, UNITS), ...itemsOf(b, UNITS)]);
  assert.deepEqual(new Set(statuses(results)), new Set(['accepted']));
  const stats = await apiStats(api);
  assert.equal(stats.charged_month_micro, BOUND);
  assert.equal(stats.daily.at(-1).charged_micro, BOUND);
  assert.equal(stats.requests_today, 2 * UNITS);
  assert.deepEqual(stats.top_customers.map((x: { charged_micro: number; balance_micro: number }) => [x.charged_micro, x.balance_micro]), [[BOUND, -BOUND], [BOUND, -BOUND]]);
  const snapshot = await getWireSnapshot(t, api.secret);
  assert.equal(snapshot.body.platform_monthly_used, 2 * UNITS);
});
