import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { createMeter, type Meter } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, type ApiFixture } from '../../server/test/support/money.js';
import { journalDir, serverClock } from './support/gatehouse.js';

// Two meters with their own Redis clients stand for two processes of one API. CI sets REDIS_URL.
const url = process.env.REDIS_URL ?? '';
const skip = url ? false : 'REDIS_URL is not set';
let t: TestApp;
let api: ApiFixture;
const meters: Meter[] = [];
const clients: Redis[] = [];
before(async () => {
  if (skip) return;
  t = await startTestApp();
  api = await createApi(t, { name: 'Shared limits' });
  // Every request charged: rps 0 so only the limits under test refuse.
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}`, { rps: 0, price_per_request_micro: 200_000 })).status, 200);
});
after(async () => {
  for (const meter of meters) await meter.close();
  for (const client of clients) client.disconnect();
  await t?.close();
});

async function twoMeters() {
  const pair = [];
  for (let i = 0; i < 2; i++) {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    clients.push(redis);
    const meter = createMeter({ secret: api.secret, baseUrl: t.url, journalDir: journalDir(), now: serverClock(t), redis, onError: () => {} });
    meters.push(meter);
    await meter.ready;
    pair.push(meter);
  }
  return pair as [Meter, Meter];
}

test('100 concurrent requests through two processes against a quota of 10 admit exactly 10', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Quota Co');
  await api.owner.client.put(`/apis/${api.apiId}/customers/${customer.id}/limits`, { monthly_quota: 10 });
  // Credit for far more than 10 requests: only the quota may refuse.
  await api.owner.client.post(`/apis/${api.apiId}/customers/${customer.id}/credit`, { amount_micro: 100_000_000, note: 'plenty' });
  const key = await createKey(api, customer.id);
  const [one, two] = await twoMeters();
  const decisions = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).admit({ key: key.key })));
  const admitted = decisions.filter((d) => d.ok);
  assert.equal(admitted.length, 10);
  assert.ok(decisions.every((d) => d.ok || d.reason === 'quota_exceeded'));
  for (const d of admitted) if (d.ok) d.finish(404);
  await Promise.all([one.flush(), two.flush()]);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.month_requests, 10);
});

test('credit for 5 requests admits exactly 5 across two processes, and the balance ends at exactly 0', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Credit Co'); // welcome credit 1,000,000 = 5 × 200,000
  const key = await createKey(api, customer.id);
  const [one, two] = await twoMeters();
  const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).admit({ key: key.key })));
  const admitted = decisions.filter((d) => d.ok);
  assert.equal(admitted.length, 5);
  assert.ok(decisions.every((d) => d.ok || (d.status === 402 && d.reason === 'insufficient_credit')));
  for (const d of admitted) if (d.ok) d.finish(200);
  await Promise.all([one.flush(), two.flush()]);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.balance_micro, 0);
  // Still held until a snapshot shows the debit, then refused by the balance itself.
  const after = await one.admit({ key: key.key });
  assert.equal(after.ok ? 'admitted' : after.status, 402);
});

test('a request that is not billable releases its hold for the next one', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Release Co');
  await api.owner.client.post(`/apis/${api.apiId}/customers/${customer.id}/credit`, { amount_micro: -800_000, note: 'leave one request' });
  const key = await createKey(api, customer.id);
  const [one, two] = await twoMeters();
  const first = await one.admit({ key: key.key });
  assert.ok(first.ok);
  const refused = await two.admit({ key: key.key });
  assert.equal(refused.ok ? 'admitted' : refused.status, 402, 'the one request of credit is held by the other process');
  first.finish(404);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the release is one Redis round trip
  const second = await two.admit({ key: key.key });
  assert.ok(second.ok, 'a 404 is not billed, so its hold came back');
  second.finish(200);
  await Promise.all([one.flush(), two.flush()]);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.balance_micro, 0);
});

test('when Redis does not answer, requests get 503 (fail closed)', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Down Co');
  const key = await createKey(api, customer.id);
  const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true, enableOfflineQueue: false });
  clients.push(down);
  const meter = createMeter({ secret: api.secret, baseUrl: t.url, journalDir: journalDir(), now: serverClock(t), redis: down, onError: () => {} });
  meters.push(meter);
  await meter.ready;
  const decision = await meter.admit({ key: key.key });
  assert.deepEqual(decision.ok ? null : [decision.status, decision.reason], [503, 'unavailable']);
});
