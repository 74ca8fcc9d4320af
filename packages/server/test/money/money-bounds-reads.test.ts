// No read path fails on a stored amount (hardening issue, item 7): rows an older version could
// have left past ±(2^53 - 1), up to the ends of PostgreSQL's bigint, written here by SQL. The
// customer list and detail, the ledger, statistics, connection, the API list, the SDK snapshot and
// key verification all answer 200 and show such an amount as the bound (saturated), and sums
// of many rows saturate instead of overflowing. Before the fix the customer list and statistics
// answered 500 on both databases, and on PGlite the snapshot and key verification too.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import {
  createCustomer, createKey, getWireSnapshot, getWireVerify, postWireUsage, reportUsage, sha256, startWithApi, usageItem, type ApiFixture,
} from '../support/money.js';
import { parseJsonKeepingNumbers } from '../support/wire-validator.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;

const BOUND = 9_007_199_254_740_991; // 2^53 - 1
const INT8_MAX = '9223372036854775807';
const INT8_MIN = '-9223372036854775808';
const JUST_PAST = '-9007199254740993'; // -(2^53 + 1): Number() of it is not a safe integer

const run = (query: ReturnType<typeof sql>) => query.execute(t.services.db);
let low: { id: string };
let high: { id: string };
let past: { id: string };
let lowKey: { id: string; key: string };
let pastKey: { id: string; key: string };
let today: string;
let policies: Map<string, string>;
const policyOf = (customer: { id: string }) => policies.get(customer.id)!;

before(async () => {
  ({ t, owner, api } = await startWithApi('Extreme Owner', { name: 'Extreme Rows API' }));
  low = await createCustomer(t, api, 'Lowest Co');
  high = await createCustomer(t, api, 'Highest Co');
  past = await createCustomer(t, api, 'Just Past Co');
  lowKey = await createKey(api, low.id);
  pastKey = await createKey(api, past.id);
  const now = t.clock.now();
  today = now.toISOString().slice(0, 10);
  policies = new Map((await getWireSnapshot(t, api.secret)).body.customers.map((c: { id: string; usage_policy_id: string }) => [c.id, c.usage_policy_id]));
  // Some real usage first, so the ledger, month and day rows exist.
  await reportUsage(api, [usageItem(lowKey.id, policyOf(low), 200, 3, now), usageItem(pastKey.id, policyOf(past), 200, 1, now)]);

  await run(sql`update customers set balance_micro = ${INT8_MIN}::bigint, low_balance_micro = ${INT8_MAX}::bigint, auto_recharge_threshold_micro = ${INT8_MIN}::bigint where id = ${low.id}`);
  await run(sql`update customers set balance_micro = ${INT8_MAX}::bigint where id = ${high.id}`);
  await run(sql`update customers set balance_micro = ${JUST_PAST}::bigint where id = ${past.id}`);
  await run(sql`update ledger_entries set amount_micro = ${INT8_MIN}::bigint, requests = ${INT8_MAX}::bigint where customer_id = ${low.id} and kind = 'usage'`);
  await run(sql`update customer_usage_months set requests = ${INT8_MAX}::bigint, billable = ${INT8_MAX}::bigint, charged_micro = ${INT8_MAX}::bigint where customer_id = ${low.id}`);
  // Two top-ups of the largest bigint: their sum does not fit a bigint.
  for (const id of ['led_extreme_topup_1', 'led_extreme_topup_2']) {
    await run(sql`insert into ledger_entries (id, api_id, customer_id, kind, amount_micro, requests, usage_day, note, actor, ref, created_at, updated_at)
      values (${id}, ${api.apiId}, ${high.id}, 'topup', ${INT8_MAX}::bigint, 0, null, 'extreme', 'test', null, ${now}, ${now})`);
  }
  // Day rows of this month at the largest bigint: their sums do not fit a bigint either (on the
  // first of a month there is one row only).
  for (const day of new Set([today.slice(0, 8) + '01', today])) {
    await run(sql`insert into api_usage_days (api_id, day, requests, billable, errors, charged_micro, test_requests)
      values (${api.apiId}, ${day}::date, ${INT8_MAX}::bigint, ${INT8_MAX}::bigint, ${INT8_MAX}::bigint, ${INT8_MAX}::bigint, ${INT8_MAX}::bigint)
      on conflict (api_id, day) do update set requests = excluded.requests, billable = excluded.billable, errors = excluded.errors,
        charged_micro = excluded.charged_micro, test_requests = excluded.test_requests`);
  }
});
after(() => t.close());

/** A console GET that must answer 200 with only safe integers (JSON.parse would round a larger one). */
async function get(path: string) {
  const res = await owner.client.get(path);
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  for (const n of res.text.match(/-?\d{16,}/g) ?? []) assert.ok(Math.abs(Number(n)) <= BOUND && String(Number(n)) === n, `${path} carries ${n}`);
  return res.body;
}

test('reads: the customer list and detail show balances and counters past the bound as the bound', async () => {
  const list = await get(`/apis/${api.apiId}/customers?limit=200`);
  const byId = new Map<string, any>(list.customers.map((c: { id: string }) => [c.id, c]));
  assert.equal(byId.get(low.id).balance_micro, -BOUND);
  assert.equal(byId.get(low.id).month_requests, BOUND);
  assert.equal(byId.get(high.id).balance_micro, BOUND);
  assert.equal(byId.get(past.id).balance_micro, -BOUND);
  const detail = await get(`/apis/${api.apiId}/customers/${low.id}`);
  assert.equal(detail.balance_micro, -BOUND);
  assert.equal(detail.month_requests, BOUND);
  assert.equal(detail.low_balance_micro, BOUND);
  assert.equal(detail.auto_recharge.threshold_micro, -BOUND);
  assert.equal((await get(`/apis/${api.apiId}/customers/${past.id}`)).balance_micro, -BOUND);
});

test('reads: the ledger shows entries past the bound as the bound', async () => {
  const ledger = await get(`/apis/${api.apiId}/ledger?limit=200`);
  const usage = ledger.entries.find((e: any) => e.customer_id === low.id && e.kind === 'usage');
  assert.equal(usage.amount_micro, -BOUND);
  assert.equal(usage.requests, BOUND);
  assert.deepEqual(ledger.entries.filter((e: any) => e.kind === 'topup').map((e: any) => e.amount_micro), [BOUND, BOUND]);
});

test('reads: statistics, connection and the API list saturate their sums at the bound', async () => {
  const stats = await get(`/apis/${api.apiId}/stats`);
  assert.equal(stats.requests_today, BOUND);
  assert.equal(stats.requests_month, BOUND);
  assert.equal(stats.charged_month_micro, BOUND);
  assert.equal(stats.topups_month_micro, BOUND);
  assert.deepEqual(stats.daily.at(-1), { day: today, requests: BOUND, billable: BOUND, errors: BOUND, charged_micro: BOUND });
  assert.deepEqual(stats.top_customers[0], { id: low.id, name: 'Lowest Co', requests: BOUND, charged_micro: BOUND, balance_micro: -BOUND });
  assert.equal((await get(`/apis/${api.apiId}/connection`)).test_requests, BOUND);
  const apis = await get(`/workspaces/${owner.workspaceId}/apis`);
  assert.ok(JSON.stringify(apis).includes(String(BOUND)), 'the API list shows the saturated month');
});

test('reads: the SDK snapshot keeps every wire rule (ints within 0..2^53-1, balances down to -(2^53-1)), in both shapes', async () => {
  for (const full of [false, true]) {
    const snapshot = await getWireSnapshot(t, api.secret, { full });
    const wire = (id: string) => snapshot.body.customers.find((c: { id: string }) => c.id === id);
    assert.equal(wire(low.id).credit_balance_micro, -BOUND);
    assert.equal(wire(low.id).month_requests, BOUND);
    assert.equal(wire(high.id).credit_balance_micro, BOUND);
    assert.equal(wire(past.id).credit_balance_micro, -BOUND);
    assert.equal(snapshot.body.platform_monthly_used, BOUND);
    assert.equal(snapshot.body.platform_monthly_remaining, 0);
    assert.ok(parseJsonKeepingNumbers(snapshot.answer.text), 'the snapshot parses');
  }
});

test('reads: key verification keeps every wire rule', async () => {
  for (const [key, balance] of [[lowKey, -BOUND], [pastKey, -BOUND]] as const) {
    const verified = await getWireVerify(t, api.secret, sha256(key.key));
    assert.equal(verified.valid, true);
    assert.equal(verified.customer.credit_balance_micro, balance);
  }
  assert.equal((await getWireVerify(t, api.secret, sha256(lowKey.key), { full: true })).customer.month_requests, BOUND);
});

test('reads: usage on such rows is answered per item, never 500: a charge on a balance past the bound is rejected; a free item is counted, counters saturated', async () => {
  const now = t.clock.now();
  const results = await postWireUsage(t, api.secret, [
    usageItem(lowKey.id, policyOf(low), 200, 1, now),
    usageItem(pastKey.id, policyOf(past), 200, 1, now),
    usageItem(pastKey.id, policyOf(past), 404, 2, now),
    usageItem(lowKey.id, policyOf(low), 404, 2, now),
  ]);
  assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'accepted', 'rejected']);
  assert.match(results[3]!.detail ?? '', /requests/, "the low customer's usage entry already holds more requests than the bound");
  assert.equal((await get(`/apis/${api.apiId}/stats`)).requests_month, BOUND);
  const detail = await get(`/apis/${api.apiId}/customers/${past.id}`);
  assert.equal(detail.balance_micro, -BOUND);
  assert.equal(detail.month_requests, 1 + 2);
});
