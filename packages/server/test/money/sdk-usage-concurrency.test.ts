// POST /sdk/v1/usage under concurrency (shared/spec/sdk-wire-protocol.md section 4, "Idempotency"
// and "Billing: commit before answering"; section 2, "Synchronous debits"): the SDK resends a
// report while the first attempt is still running (timeouts, several workers), and many servers
// report at once. Every item is applied exactly once and balances come out exact.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  apiStats, createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, hourStamp, postWireUsage, sdkRequest, usageEntries, type ApiFixture, type UsageResultOut,
} from '../support/money.js';
import { assertWireUsageAnswer } from '../support/wire-validator.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const PRICE = 1000;
const BILLABLE = new Set([200, 201, 202, 204]);

interface Payer {
  id: string;
  keyId: string;
  policy: string;
}

/** An API with `n` customers, each with a key and its policy id. */
async function tenant(name: string, n: number): Promise<{ api: ApiFixture; payers: Payer[] }> {
  const api = await createApi(t, { name }, owner);
  const made = [];
  for (let i = 0; i < n; i++) {
    const customer = await createCustomer(t, api, `Customer ${i}`);
    const key = await createKey(api, customer.id);
    made.push({ id: customer.id, keyId: key.id });
  }
  const snap = await getWireSnapshot(t, api.secret);
  return { api, payers: made.map((m) => ({ ...m, policy: customerIn(snap.body, m.id).usage_policy_id })) };
}

function item(payer: Payer, status: number, count: number, periodStart: string) {
  return { idempotency_key: randomUUID(), api_key_id: payer.keyId, usage_policy_id: payer.policy, status_code: status, count, period_start: periodStart };
}

type Item = ReturnType<typeof item>;

/** What a set of items charges and counts, per customer. */
function totals(payers: Payer[], items: Item[]) {
  const out = new Map(payers.map((p) => [p.id, { charge: 0, requests: 0 }]));
  for (const i of items) {
    const payer = payers.find((p) => p.keyId === i.api_key_id)!;
    const total = out.get(payer.id)!;
    total.requests += i.count;
    if (BILLABLE.has(i.status_code)) total.charge += i.count * PRICE;
  }
  return out;
}

async function post(api: ApiFixture, items: Item[]): Promise<UsageResultOut[]> {
  const answer = await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { items });
  assert.equal(answer.status, 200, answer.text);
  return assertWireUsageAnswer(answer.text, items).results;
}

test('usage concurrency: 20 concurrent POSTs of the same report charge exactly once; every answer is accepted or duplicate per item', async () => {
  const { api, payers } = await tenant('Same Report API', 2);
  const [a, b] = payers as [Payer, Payer];
  const hour = hourStamp(t.clock.now());
  const items = [item(a, 200, 3, hour), item(a, 404, 1, hour), item(a, 201, 2, hour), item(b, 200, 5, hour), item(b, 500, 2, hour), item(b, 204, 1, hour), item(a, 200, 4, hourStamp(t.clock.now(), -1))];
  const answers = await Promise.all(Array.from({ length: 20 }, () => post(api, items)));
  for (const results of answers) {
    for (const r of results) assert.ok(r.status === 'accepted' || r.status === 'duplicate', JSON.stringify(r));
  }
  for (const i of items) {
    const accepted = answers.filter((results) => results.find((r) => r.idempotency_key === i.idempotency_key)!.status === 'accepted').length;
    assert.equal(accepted, 1, `item ${i.idempotency_key} accepted by exactly one of the 20 answers`);
  }
  const expected = totals(payers, items);
  for (const payer of payers) {
    const detail = await customerDetail(api, payer.id);
    assert.equal(detail.balance_micro, 1_000_000 - expected.get(payer.id)!.charge, payer.id);
    const entries = await usageEntries(api, payer.id);
    assert.equal(entries.reduce((n: number, e: any) => n + e.requests, 0), expected.get(payer.id)!.requests);
    assert.equal(entries.reduce((n: number, e: any) => n + e.amount_micro, 0), -expected.get(payer.id)!.charge);
  }
  const snap = await getWireSnapshot(t, api.secret);
  const total = items.reduce((n, i) => n + i.count, 0);
  const thisMonth = items.filter((i) => i.period_start.slice(0, 7) === snap.body.generated_at.slice(0, 7)).reduce((n, i) => n + i.count, 0);
  assert.equal(snap.body.platform_monthly_used, thisMonth);
  const stats = await apiStats(api);
  assert.equal(stats.daily.reduce((n: number, d: any) => n + d.requests, 0), total);
  // And afterwards every item is a plain duplicate.
  assert.ok((await postWireUsage(t, api.secret, items)).every((r) => r.status === 'duplicate'));
});

test('usage concurrency: 20 concurrent reports with distinct keys from several customers, over two days: balances are start minus the sum of charges, exactly', async () => {
  const { api, payers } = await tenant('Many Reports API', 5);
  const now = t.clock.now();
  const hours = [hourStamp(now), hourStamp(now, -25), hourStamp(now, -2)];
  const reports: Item[][] = Array.from({ length: 20 }, (_, r) => {
    const items: Item[] = [];
    for (let j = 0; j < 6; j++) {
      const payer = payers[(r + j * 2) % payers.length]!;
      items.push(item(payer, [200, 404, 201, 500, 200, 204][(r + j) % 6]!, 1 + ((r * 7 + j) % 9), hours[(r + j) % hours.length]!));
    }
    return items;
  });
  const answers = await Promise.all(reports.map((items) => post(api, items)));
  for (const results of answers) assert.ok(results.every((r) => r.status === 'accepted'), JSON.stringify(results));
  const all = reports.flat();
  const expected = totals(payers, all);
  for (const payer of payers) {
    const detail = await customerDetail(api, payer.id);
    assert.equal(detail.balance_micro, 1_000_000 - expected.get(payer.id)!.charge, `balance of ${payer.id}`);
    const entries = await usageEntries(api, payer.id);
    const days = new Set(all.filter((i) => i.api_key_id === payer.keyId).map((i) => i.period_start.slice(0, 10)));
    assert.equal(entries.length, days.size, 'one ledger entry per customer per day');
    assert.equal(entries.reduce((n: number, e: any) => n + e.requests, 0), expected.get(payer.id)!.requests);
  }
  const snap = await getWireSnapshot(t, api.secret);
  for (const payer of payers) assert.equal(customerIn(snap.body, payer.id).credit_balance_micro, 1_000_000 - expected.get(payer.id)!.charge);
  const stats = await apiStats(api);
  assert.equal(stats.daily.reduce((n: number, d: any) => n + d.requests, 0), all.reduce((n, i) => n + i.count, 0));
  assert.equal(stats.daily.reduce((n: number, d: any) => n + d.charged_micro, 0), [...expected.values()].reduce((n, v) => n + v.charge, 0));
});

test('usage concurrency: overlapping concurrent reports (resends mixed with new items) apply each item exactly once', async () => {
  const { api, payers } = await tenant('Overlap API', 3);
  const hour = hourStamp(t.clock.now());
  const shared = payers.map((p) => item(p, 200, 2, hour));
  const reports = Array.from({ length: 12 }, (_, r) => [shared[r % 3]!, shared[(r + 1) % 3]!, item(payers[r % 3]!, 201, 1, hour), item(payers[(r + 2) % 3]!, 404, 3, hour)]);
  const answers = await Promise.all(reports.map((items) => post(api, items)));
  for (const s of shared) {
    const statuses = answers.flatMap((results) => results.filter((r) => r.idempotency_key === s.idempotency_key).map((r) => r.status));
    assert.equal(statuses.filter((x) => x === 'accepted').length, 1, JSON.stringify(statuses));
    assert.ok(statuses.every((x) => x === 'accepted' || x === 'duplicate'));
  }
  const unique = [...shared, ...reports.flatMap((items) => items.slice(2))];
  const expected = totals(payers, unique);
  for (const payer of payers) {
    const detail = await customerDetail(api, payer.id);
    assert.equal(detail.balance_micro, 1_000_000 - expected.get(payer.id)!.charge);
    assert.equal(detail.month_requests, hour.slice(0, 7) === t.clock.now().toISOString().slice(0, 7) ? expected.get(payer.id)!.requests : 0);
  }
});

test('usage concurrency: with snapshots fetched while reports land, every snapshot started after an acknowledgement shows its debit', async () => {
  const { api, payers } = await tenant('Debit Order API', 1);
  const payer = payers[0]!;
  const hour = hourStamp(t.clock.now());
  let acknowledged = 0; // micro units debited by reports whose answer has arrived
  const reports = Array.from({ length: 10 }, (_, i) => [item(payer, 200, i + 1, hour)]);
  const observations: { ackedBefore: number; credit: number; generatedAt: string }[] = [];
  const reporting = reports.map(async (items) => {
    const results = await post(api, items);
    assert.equal(results[0]!.status, 'accepted');
    acknowledged += items[0]!.count * PRICE;
  });
  const fetching = Array.from({ length: 30 }, async (_, i) => {
    await new Promise((resolve) => setImmediate(resolve));
    for (let k = 0; k < i % 3; k++) await new Promise((resolve) => setImmediate(resolve));
    const ackedBefore = acknowledged;
    const { body } = await getWireSnapshot(t, api.secret);
    observations.push({ ackedBefore, credit: customerIn(body, payer.id).credit_balance_micro, generatedAt: body.generated_at });
  });
  await Promise.all([...reporting, ...fetching]);
  const all = reports.flat().reduce((n, i) => n + i.count * PRICE, 0);
  for (const o of observations) {
    assert.ok(o.credit <= 1_000_000 - o.ackedBefore, `a snapshot started after ${o.ackedBefore} was acknowledged shows ${1_000_000 - o.credit}`);
    assert.ok(o.credit >= 1_000_000 - all);
  }
  assert.equal(new Set(observations.map((o) => o.generatedAt)).size, observations.length);
  assert.equal(customerIn((await getWireSnapshot(t, api.secret)).body, payer.id).credit_balance_micro, 1_000_000 - all);
});

test('usage concurrency: concurrent reports of different customers covering the same days never fail (no deadlock on the shared day counters)', async () => {
  // Customer locks do not order reports of different customers; they meet only on the API's day
  // counters. Each report spans three days in a random (idempotency key) order.
  const { api, payers } = await tenant('Shared Days API', 10);
  const now = t.clock.now();
  const hours = [hourStamp(now), hourStamp(now, -25), hourStamp(now, -49)];
  const sent: Item[] = [];
  for (let round = 0; round < 3; round++) {
    const reports = Array.from({ length: 20 }, (_, r) => Array.from({ length: 30 }, (_, j) => item(payers[r % payers.length]!, 200, 1, hours[j % hours.length]!)));
    const answers = await Promise.all(reports.map((items) => sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { items })));
    assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200), answers.find((a) => a.status !== 200)?.text);
    answers.forEach((a, i) => assert.ok(assertWireUsageAnswer(a.text, reports[i]!).results.every((r: UsageResultOut) => r.status === 'accepted')));
    sent.push(...reports.flat());
  }
  const expected = totals(payers, sent);
  for (const payer of payers) assert.equal((await customerDetail(api, payer.id)).balance_micro, 1_000_000 - expected.get(payer.id)!.charge);
  const stats = await apiStats(api);
  assert.equal(stats.daily.reduce((n: number, d: any) => n + d.requests, 0), sent.length);
});

test('usage concurrency: a change of the API\'s price while reports of many customers are applied never fails (one lock order: API, then customers by id)', async () => {
  const { api, payers } = await tenant('Repriced While Busy API', 12);
  const hour = hourStamp(t.clock.now());
  for (let round = 0; round < 4; round++) {
    // Each report names its customers in a shuffled order; the price changes in the middle of them.
    const reports = Array.from({ length: 12 }, (_, r) => payers.map((_, j) => item(payers[(j * 7 + r) % payers.length]!, 200, 1, hour)));
    const reporting = reports.map((items) => sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { items }));
    const repricing = [0, 1, 2].map((k) => api.owner.client.patch(`/apis/${api.apiId}`, { price_per_request_micro: PRICE + ((round * 3 + k) % 2) }));
    const answers = await Promise.all(reporting);
    const changes = await Promise.all(repricing);
    assert.deepEqual(answers.map((a) => a.status), Array(12).fill(200), answers.find((a) => a.status !== 200)?.text);
    assert.deepEqual(changes.map((c) => c.status), [200, 200, 200], changes.find((c) => c.status !== 200)?.text);
  }
});
