// POST /sdk/v1/usage, the age window of period_start (shared/spec/sdk-wire-protocol.md section 4,
// "Age" and "Idempotency"): 45 days plus a margin for clock skew, and a slightly future hour, are
// accepted; both bounds of src/sdk-sync/usage-items.ts are crossed here with the clock, on both
// sides. Receipts outlive the SDK's 46 days. This file moves its clock by weeks: its own app.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { receiptRetentionJob, RECEIPT_RETENTION_MS } from '../../src/jobs/retention.js';
import { MAX_ITEM_AGE_MS, MAX_ITEM_FUTURE_MS } from '../../src/sdk-sync/usage-items.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, customerIn, getWireSnapshot, hourOf, postWireUsage } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How far each probe sits from a bound: far more than a request takes, far less than an hour. */
const SIDE = 15_000;

async function tenant(name: string) {
  const api = await createApi(t, { name }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const policy = customerIn((await getWireSnapshot(t, api.secret)).body, customer.id).usage_policy_id as string;
  const item = (periodStart: string, count = 1, idempotencyKey: string = randomUUID()) => ({
    idempotency_key: idempotencyKey, api_key_id: key.id, usage_policy_id: policy, status_code: 200, count, period_start: periodStart,
  });
  return { api, customer, key, policy, item };
}

const ceilHour = (ms: number) => Math.ceil(ms / HOUR) * HOUR;

test('usage age: the window is at least the SDK\'s 45 days plus a margin, and at least the next hour ahead', () => {
  assert.ok(MAX_ITEM_AGE_MS > 45 * DAY, `MAX_ITEM_AGE_MS ${MAX_ITEM_AGE_MS}`);
  assert.ok(MAX_ITEM_FUTURE_MS >= HOUR, `MAX_ITEM_FUTURE_MS ${MAX_ITEM_FUTURE_MS}`);
  assert.ok(RECEIPT_RETENTION_MS >= 46 * DAY, 'receipts are kept at least as long as the SDK may resend (46 days)');
});

test('usage age: 45 and 46 days old, this hour and the next hour are accepted; 100 days old and a day ahead are rejected', async () => {
  const x = await tenant('Age Window API');
  const now = t.clock.now().getTime();
  const accepted = [hourOf(new Date(now - 45 * DAY)), hourOf(new Date(now - 46 * DAY)), hourOf(new Date(now)), hourOf(new Date(now + HOUR))];
  const rejected = [hourOf(new Date(now - 100 * DAY)), hourOf(new Date(now + DAY))];
  const items = [...accepted, ...rejected].map((p) => x.item(p));
  const results = await postWireUsage(t, x.api.secret, items);
  assert.deepEqual(results.map((r) => r.status), ['accepted', 'accepted', 'accepted', 'accepted', 'rejected', 'rejected']);
  assert.match(results[4]!.detail!, /older/);
  assert.match(results[5]!.detail!, /future/);
});

test(`usage age: both sides of the exact age bound (period_start older than MAX_ITEM_AGE_MS is rejected)`, async () => {
  const x = await tenant('Age Bound API');
  // An hour whose bound (hour + MAX_ITEM_AGE_MS) is just ahead of the clock.
  const hour = ceilHour(t.clock.now().getTime() - MAX_ITEM_AGE_MS + 2 * SIDE);
  const bound = hour + MAX_ITEM_AGE_MS;
  t.clock.advance(bound - SIDE - t.clock.now().getTime());
  const inside = x.item(hourOf(new Date(hour)), 2);
  assert.deepEqual((await postWireUsage(t, x.api.secret, [inside])).map((r) => r.status), ['accepted']);
  t.clock.advance(2 * SIDE);
  assert.ok(t.clock.now().getTime() > bound);
  const outside = x.item(hourOf(new Date(hour)), 3);
  const results = await postWireUsage(t, x.api.secret, [outside]);
  assert.equal(results[0]!.status, 'rejected');
  assert.match(results[0]!.detail!, /older than 45 days/);
  // Only the accepted item was billed.
  assert.equal(customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id).credit_balance_micro, 1_000_000 - 2_000);
});

test('usage age: both sides of the exact future bound (period_start more than MAX_ITEM_FUTURE_MS ahead is rejected); a rejected item leaves no receipt', async () => {
  const x = await tenant('Future Bound API');
  // An hour whose bound (hour - MAX_ITEM_FUTURE_MS) is just ahead of the clock.
  const hour = ceilHour(t.clock.now().getTime() + MAX_ITEM_FUTURE_MS + 2 * SIDE);
  const bound = hour - MAX_ITEM_FUTURE_MS;
  t.clock.advance(bound - SIDE - t.clock.now().getTime());
  const item = x.item(hourOf(new Date(hour)), 4);
  const early = await postWireUsage(t, x.api.secret, [item]);
  assert.equal(early[0]!.status, 'rejected');
  assert.match(early[0]!.detail!, /future/);
  t.clock.advance(2 * SIDE);
  assert.ok(t.clock.now().getTime() > bound);
  // The very same item (same idempotency key) is now inside the window: accepted, not a conflict.
  assert.deepEqual((await postWireUsage(t, x.api.secret, [item])).map((r) => r.status), ['accepted']);
  assert.equal(customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id).credit_balance_micro, 1_000_000 - 4_000);
});

test('usage age: a receipt outlives the SDK\'s resend window: 46 days later, after the retention job, a replay is still a duplicate', async () => {
  const x = await tenant('Receipt Retention API');
  const item = x.item(hourOf(t.clock.now()), 5);
  assert.equal((await postWireUsage(t, x.api.secret, [item]))[0]!.status, 'accepted');
  const charged = customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id);
  t.clock.advance(46 * DAY);
  await receiptRetentionJob(t.clock).run(t.services.db);
  assert.equal((await postWireUsage(t, x.api.secret, [item]))[0]!.status, 'duplicate');
  const after = customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id);
  assert.equal(after.credit_balance_micro, charged.credit_balance_micro, 'not billed twice');
  assert.equal(after.balance_seq, charged.balance_seq);
});
