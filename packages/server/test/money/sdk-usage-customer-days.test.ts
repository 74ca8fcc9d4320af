// A customer's usage per UTC day (issue 12, the portal's usage page), kept by usage ingestion in
// the report's transaction beside the monthly counters: every item in requests, billable statuses
// in billable, statuses of 500 and above in errors (the API's daily statistics' rule), charges of
// real customers only; a replay changes nothing; each day on its own row; the counters saturate at
// ±(2^53 - 1) like the others. Read through the portal's reader (CustomerPortalView.usage).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { apiStats, createApi, createCustomer, createKey, customerIn, getWireSnapshot, postWireUsage, usageItem, type ApiFixture } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const BOUND = 9_007_199_254_740_991; // 2^53 - 1
const PRICE = 1000; // the payg preset's price per billable request

async function customerWithKey(api: ApiFixture, name: string) {
  const customer = await createCustomer(t, api, name);
  const key = await createKey(api, customer.id);
  const policy = customerIn((await getWireSnapshot(t, api.secret)).body, customer.id).usage_policy_id as string;
  return { id: customer.id, keyId: key.id, policy };
}

/** The customer's last 30 days as the portal reads them, by day. */
async function daysOf(api: ApiFixture, customerId: string) {
  const actor = { apiId: api.apiId, customerId, person: { id: 'per_reader', email: 'reader@people.test', name: 'Reader' }, role: 'member' as const, ip: '127.0.0.1' };
  const days = await t.services.customerPortalView.usage(actor);
  assert.equal(days.length, 30);
  return new Map(days.map((d) => [d.day, d]));
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

test('one report: each customer and day gets its requests, billable requests, errors and charge; a replay changes nothing', async () => {
  const api = await createApi(t, { name: 'Daily API' }, owner);
  const a = await customerWithKey(api, 'Alpha');
  const b = await customerWithKey(api, 'Beta');
  const now = t.clock.now();
  const yesterday = new Date(now.getTime() - DAY);
  const items = [
    usageItem(a.keyId, a.policy, 200, 10, now),
    usageItem(a.keyId, a.policy, 404, 3, now),
    usageItem(a.keyId, a.policy, 500, 2, now),
    usageItem(a.keyId, a.policy, 503, 1, now),
    usageItem(a.keyId, a.policy, 201, 4, yesterday),
    usageItem(b.keyId, b.policy, 204, 7, now),
  ];
  assert.deepEqual((await postWireUsage(t, api.secret, items)).map((r) => r.status), Array(items.length).fill('accepted'));

  const alpha = await daysOf(api, a.id);
  assert.deepEqual(alpha.get(dayOf(now)), { day: dayOf(now), requests: 16, billable: 10, errors: 3, chargedMicro: 10 * PRICE });
  assert.deepEqual(alpha.get(dayOf(yesterday)), { day: dayOf(yesterday), requests: 4, billable: 4, errors: 0, chargedMicro: 4 * PRICE });
  const beta = await daysOf(api, b.id);
  assert.deepEqual(beta.get(dayOf(now)), { day: dayOf(now), requests: 7, billable: 7, errors: 0, chargedMicro: 7 * PRICE });
  assert.equal(beta.get(dayOf(yesterday))!.requests, 0, "another customer's usage stays on its own rows");

  // The API's daily statistics count errors by the same rule: the customers' days add up to them.
  const stats = await apiStats(api);
  const today = stats.daily.find((d: { day: string }) => d.day.startsWith(dayOf(now)));
  assert.equal(today.errors, alpha.get(dayOf(now))!.errors + beta.get(dayOf(now))!.errors);
  assert.equal(today.requests, 16 + 7);

  assert.deepEqual((await postWireUsage(t, api.secret, items)).map((r) => r.status), Array(items.length).fill('duplicate'));
  assert.deepEqual(await daysOf(api, a.id), alpha, 'a replay changes nothing');
});

test('the test customer: its requests count on its days, never charged', async () => {
  const api = await createApi(t, { name: 'Test Key API' }, owner);
  const made = await api.owner.client.post(`/apis/${api.apiId}/test-key`);
  assert.equal(made.status, 200, made.text);
  const snapshot = (await getWireSnapshot(t, api.secret, { full: true })).body;
  const testKey = snapshot.keys.find((k: { customer_id: string }) => k.customer_id === made.body.customer_id);
  const policy = customerIn(snapshot, made.body.customer_id).usage_policy_id;
  const now = t.clock.now();
  assert.equal((await postWireUsage(t, api.secret, [usageItem(testKey.id, policy, 200, 5, now)]))[0]!.status, 'accepted');
  assert.deepEqual((await daysOf(api, made.body.customer_id)).get(dayOf(now)), { day: dayOf(now), requests: 5, billable: 5, errors: 0, chargedMicro: 0 });
});

test('the window: today and the 29 days before it; older days are not shown', async () => {
  const api = await createApi(t, { name: 'Window API' }, owner);
  const c = await customerWithKey(api, 'Gamma');
  const now = t.clock.now();
  const oldest = new Date(now.getTime() - 29 * DAY);
  const tooOld = new Date(now.getTime() - 30 * DAY);
  const items = [usageItem(c.keyId, c.policy, 200, 1, oldest), usageItem(c.keyId, c.policy, 200, 2, tooOld), usageItem(c.keyId, c.policy, 200, 3, now)];
  assert.deepEqual((await postWireUsage(t, api.secret, items)).map((r) => r.status), ['accepted', 'accepted', 'accepted']);
  const days = await daysOf(api, c.id);
  assert.equal([...days.keys()][0], dayOf(oldest), 'the first day shown is 29 days ago');
  assert.equal([...days.keys()].at(-1), dayOf(now), 'the last is today');
  assert.equal(days.get(dayOf(oldest))!.requests, 1);
  assert.equal(days.get(dayOf(now))!.requests, 3);
  assert.ok(!days.has(dayOf(tooOld)), '30 days ago is out of the window');
  assert.equal([...days.values()].reduce((sum, d) => sum + d.requests, 0), 4);
});

test('the counters saturate at the bound instead of failing the report', async () => {
  const api = await createApi(t, { name: 'Saturated Days API' }, owner);
  const c = await customerWithKey(api, 'Delta');
  const now = t.clock.now();
  assert.equal((await postWireUsage(t, api.secret, [usageItem(c.keyId, c.policy, 500, 1, now)]))[0]!.status, 'accepted');
  // A row an older version could have left one below the bound, written here by SQL.
  await sql`update customer_usage_days set requests = ${BOUND - 1}, billable = ${BOUND - 1}, errors = ${BOUND - 1}, charged_micro = ${BOUND - 1} where customer_id = ${c.id}`.execute(t.services.db);
  const answer = await postWireUsage(t, api.secret, [usageItem(c.keyId, c.policy, 200, 2, now), usageItem(c.keyId, c.policy, 503, 2, now)]);
  assert.deepEqual(answer.map((r) => r.status), ['accepted', 'accepted']);
  const today = (await daysOf(api, c.id)).get(dayOf(now))!;
  assert.deepEqual(today, { day: dayOf(now), requests: BOUND, billable: BOUND, errors: BOUND, chargedMicro: BOUND });
});
