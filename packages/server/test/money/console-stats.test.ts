// Statistics from usage reported by the SDK: totals, customer counts, the daily series (days
// 1..90), the busiest customers, the test key's requests counted but never charged; and the
// connection status an SDK's snapshot fetches leave (spec 2.1 StatsBody, DayStat, TopCustomer,
// ConnectionBody; DESIGN 7).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  assertRefusedAt, createApi, createCustomer, createKey, createPendingCustomer, fetchSnapshot, reportUsage, sha256, usageItem, type ApiFixture,
} from '../support/money.js';
import { addMember, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let viewer: Member;
let api: ApiFixture;
let a: { id: string };
let b: { id: string };
let testCustomerId: string;
const day = (at: Date) => at.toISOString().slice(0, 10);
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Stat Owner' });
  viewer = await addMember(t, owner.client, owner.workspaceId, 'viewer');
  // The payg preset: 1000 micro a request, statuses 200, 201, 202 and 204 billable.
  api = await createApi(t, { name: 'Stats API', preset: 'payg' }, owner);
  a = await createCustomer(t, api, 'Busy Customer');
  b = await createCustomer(t, api, 'Quiet Customer');
  await createCustomer(t, api, 'Idle Customer');
  await createPendingCustomer(t, api, 'Waiting Customer');
  const keyA = await createKey(api, a.id);
  const keyB = await createKey(api, b.id);
  const testKey = await owner.client.post(`/apis/${api.apiId}/test-key`);
  assert.equal(testKey.status, 200, testKey.text);
  testCustomerId = testKey.body.customer_id;
  const snap = await fetchSnapshot(api);
  const testKeyId = snap.keys.find((k) => k.key_hash === sha256(testKey.body.key))!.id;
  const policy = (id: string) => snap.customers.find((c) => c.id === id)!.usage_policy_id;
  const now = t.clock.now();
  await reportUsage(api, [
    usageItem(keyA.id, policy(a.id), 200, 10, now),
    usageItem(keyA.id, policy(a.id), 404, 3, now),
    usageItem(keyA.id, policy(a.id), 500, 2, now),
    usageItem(keyB.id, policy(b.id), 201, 5, now),
    usageItem(testKeyId, policy(testCustomerId), 200, 7, now),
  ]);
});
after(() => t.close());

const stats = async (query = '', client = viewer.client) => {
  const answer = await client.get(`/apis/${api.apiId}/stats${query}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
};

test('totals: every request counts, only real customers are charged', async () => {
  const body = await stats();
  assert.deepEqual(Object.keys(body).sort(), [
    'active_customers', 'charged_month_micro', 'customers', 'daily', 'pending_customers', 'platform_limit', 'requests_month', 'requests_today', 'top_customers', 'topups_month_micro',
  ]);
  // 15 + 5 from customers and 7 from the test key.
  assert.equal(body.requests_today, 27);
  assert.equal(body.requests_month, 27);
  // (10 + 5) billable requests of real customers at 1000 micro; the test key's 7 are free.
  assert.equal(body.charged_month_micro, 15_000);
  assert.equal(body.topups_month_micro, 0);
  assert.equal(body.customers, 4, 'busy, quiet, idle and waiting; not the test customer');
  assert.equal(body.active_customers, 2, 'the ones with requests this month');
  assert.equal(body.pending_customers, 1);
  assert.equal(body.platform_limit, 100_000);
});

test('the test customer is counted in requests but never charged', async () => {
  const testCustomer = await viewer.client.get(`/apis/${api.apiId}/customers/${testCustomerId}`);
  assert.equal(testCustomer.body.month_requests, 7);
  assert.equal(testCustomer.body.balance_micro, 10_000_000);
  const busy = await viewer.client.get(`/apis/${api.apiId}/customers/${a.id}`);
  assert.equal(busy.body.month_requests, 15);
  assert.equal(busy.body.balance_micro, 1_000_000 - 10_000);
  const summaries = await viewer.client.get(`/workspaces/${owner.workspaceId}/apis`);
  assert.equal(summaries.body.apis.find((s: { id: string }) => s.id === api.apiId).month_requests, 27);
});

test('the daily series has one entry per day, oldest first, ending today', async () => {
  const body = await stats();
  assert.equal(body.daily.length, 30, 'days defaults to 30');
  const today = day(t.clock.now());
  assert.equal(body.daily.at(-1).day, today);
  assert.deepEqual(body.daily.at(-1), { day: today, requests: 27, billable: 22, errors: 2, charged_micro: 15_000 });
  const days = body.daily.map((d: { day: string }) => d.day);
  assert.deepEqual(days, [...days].sort(), 'oldest first');
  assert.equal(new Set(days).size, 30);
  for (const entry of body.daily.slice(0, -1)) assert.deepEqual({ ...entry, day: '' }, { day: '', requests: 0, billable: 0, errors: 0, charged_micro: 0 });
});

test('days is 1 to 90: the series has that many entries; 0 and 91 are refused', async () => {
  for (const days of [1, 2, 90]) {
    const body = await stats(`?days=${days}`);
    assert.equal(body.daily.length, days, `days=${days}`);
    assert.equal(body.daily.at(-1).day, day(t.clock.now()));
    assert.equal(body.requests_month, 27, 'totals do not depend on days');
  }
  for (const days of ['0', '91', '-1', 'week', '1.5']) assertRefusedAt(await viewer.client.get(`/apis/${api.apiId}/stats?days=${days}`), 'query.days');
});

test('usage reported late lands on its own day', async () => {
  const fresh = await createApi(t, { name: 'Late Stats' }, owner);
  const customer = await createCustomer(t, fresh, 'Late Reporter');
  const key = await createKey(fresh, customer.id);
  const now = t.clock.now();
  const yesterday = new Date(now.getTime() - 24 * HOUR);
  await reportUsage(fresh, [usageItem(key.id, null, 200, 4, yesterday), usageItem(key.id, null, 200, 1, now)]);
  const body = (await owner.client.get(`/apis/${fresh.apiId}/stats?days=2`)).body;
  assert.deepEqual(body.daily.map((d: { day: string; requests: number }) => [d.day, d.requests]), [[day(yesterday), 4], [day(now), 1]]);
  assert.equal(body.requests_today, 1);
  assert.equal(body.requests_month, monthOf(yesterday) === monthOf(now) ? 5 : 1);
});

test('top customers are the busiest real customers of the month, busiest first', async () => {
  const body = await stats();
  assert.deepEqual(body.top_customers, [
    { id: a.id, name: 'Busy Customer', requests: 15, charged_micro: 10_000, balance_micro: 990_000 },
    { id: b.id, name: 'Quiet Customer', requests: 5, charged_micro: 5_000, balance_micro: 995_000 },
  ]);
});

test('stats are for members: viewers read them, others get 404 and strangers 401', async () => {
  assert.equal((await stats('', owner.client)).requests_today, 27);
  const stranger = await signUp(t, { name: 'Stat Stranger' });
  assert.equal((await stranger.client.get(`/apis/${api.apiId}/stats`)).status, 404);
  assert.equal((await t.client().get(`/apis/${api.apiId}/stats`)).status, 401);
  assert.equal((await stranger.client.get(`/apis/${api.apiId}/connection`)).status, 404);
});

test('connection: connected right after a snapshot fetch, not after 11 minutes; agent and test requests', async () => {
  const fresh = await createApi(t, { name: 'Connection API' }, owner);
  const connection = async () => {
    const answer = await viewer.client.get(`/apis/${fresh.apiId}/connection`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body;
  };
  assert.deepEqual(await connection(), { sdk_connected: false, test_requests: 0, customers: 0, payments_ready: false });

  const agent = 'gatehouse-sdk-node/1.4.0 (node 20.11; linux)';
  await fetchSnapshot(fresh, { 'user-agent': agent });
  let body = await connection();
  assert.equal(body.sdk_connected, true);
  assert.equal(body.sdk_agent, agent);
  assert.ok(body.sdk_first_seen_at && body.sdk_last_seen_at);
  assert.equal(body.first_usage_at, undefined, 'no usage yet');
  const firstSeen = body.sdk_first_seen_at;

  // The test key's requests are counted apart; real customers are counted without it.
  const testKey = (await owner.client.post(`/apis/${fresh.apiId}/test-key`)).body;
  await createCustomer(t, fresh, 'Connected Customer');
  const snap = await fetchSnapshot(fresh, { 'user-agent': agent });
  const key = snap.keys.find((k) => k.customer_id === testKey.customer_id)!;
  await reportUsage(fresh, [usageItem(key.id, null, 200, 4, t.clock.now()), usageItem(key.id, null, 503, 2, t.clock.now())]);
  body = await connection();
  assert.equal(body.test_requests, 6);
  assert.equal(body.customers, 1);
  assert.ok(body.first_usage_at);
  assert.equal((await owner.client.get(`/apis/${fresh.apiId}/stats`)).body.charged_month_micro, 0);

  t.clock.advance(9 * MINUTE);
  assert.equal((await connection()).sdk_connected, true, '9 minutes after the last fetch');
  t.clock.advance(2 * MINUTE);
  assert.equal((await connection()).sdk_connected, false, '11 minutes after the last fetch');
  // The next fetch connects it again; a new agent is recorded, the first sighting kept.
  await fetchSnapshot(fresh, { 'user-agent': 'gatehouse-sdk-node/1.5.0' });
  body = await connection();
  assert.equal(body.sdk_connected, true);
  assert.equal(body.sdk_agent, 'gatehouse-sdk-node/1.5.0');
  assert.equal(body.sdk_first_seen_at, firstSeen);
  assert.ok(Date.parse(body.sdk_last_seen_at) > Date.parse(firstSeen));
  const apiOut = (await owner.client.get(`/apis/${fresh.apiId}`)).body;
  assert.equal(apiOut.sdk_agent, 'gatehouse-sdk-node/1.5.0');
  assert.equal(apiOut.sdk_first_seen_at, firstSeen);
});
