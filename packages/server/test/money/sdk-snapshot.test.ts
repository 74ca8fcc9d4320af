// GET /sdk/v1/snapshot (shared/spec/sdk-wire-protocol.md section 2, service-spec 2.5 SnapshotBody).
// Every snapshot fetched here goes through test/support/wire-validator.ts (getWireSnapshot).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, postWireUsage, sdkRequest, sha256, usageItem, type ApiFixture,
} from '../support/money.js';
import { assertWireSnapshot } from '../support/wire-validator.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ms = (iso: string) => Date.parse(iso);
const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

async function api(name: string, body: Record<string, unknown> = {}): Promise<ApiFixture> {
  return createApi(t, { name, ...body }, owner);
}

async function customerWithKey(fixture: ApiFixture, name = 'Acme') {
  const customer = await createCustomer(t, fixture, name);
  const key = await createKey(fixture, customer.id);
  return { customer, key };
}

/** GET with node:http, so the test sees the bytes on the wire (fetch would decompress them). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: t.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('snapshot: every field of the wire example and of the spec SnapshotBody', async () => {
  const fixture = await api('Weather API');
  const { customer, key } = await customerWithKey(fixture);
  const before = t.clock.now();
  const { body } = await getWireSnapshot(t, fixture.secret);
  const after = t.clock.now();

  // Top level: the example's fields, the spec's additions, and nothing null that must not be.
  for (const field of ['generated_at', 'tenant_id', 'billable_status_codes', 'platform_monthly_limit', 'platform_monthly_used', 'platform_monthly_remaining', 'platform_period_end', 'platform_hard_cap', 'customers', 'keys', 'tenant_name', 'platform_monthly_allowance']) {
    assert.ok(field in body && body[field] !== null, `${field} present`);
  }
  const generated = new Date(body.generated_at);
  assert.ok(generated >= before && generated <= after, `generated_at ${body.generated_at} stamped during the fetch`);
  assert.match(body.generated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(body.tenant_id, fixture.apiId);
  assert.equal(body.tenant_name, 'Weather API');
  assert.equal(body.tenant_status, 'active');
  assert.deepEqual(body.billable_status_codes, [200, 201, 202, 204]);
  // A new API is on the free platform plan: 100,000 requests a month, hard cap.
  assert.equal(body.platform_monthly_limit, 100_000);
  assert.equal(body.platform_monthly_used, 0);
  assert.equal(body.platform_monthly_remaining, 100_000);
  assert.equal(body.platform_hard_cap, true);
  assert.equal(body.platform_period_end, nextMonthStart(generated).toISOString());
  assert.deepEqual(body.platform_monthly_allowance, {
    limit: 100_000, used: 0, remaining: 100_000,
    period_start: monthStart(generated).toISOString(), period_end: nextMonthStart(generated).toISOString(), hard_cap: true,
  });

  // customers[]: the example's customer fields plus balance_seq (spec SdkCustomer).
  assert.equal(body.customers.length, 1);
  const c = body.customers[0];
  assert.equal(c.id, customer.id);
  assert.equal(c.status, 'active');
  assert.equal(c.credit_balance_micro, 1_000_000, 'the welcome credit');
  assert.equal(c.month_requests, 0);
  assert.ok(Number.isInteger(c.balance_seq) && c.balance_seq >= 1, 'the welcome credit moved balance_seq');
  assert.match(c.usage_policy_id, UUID);
  assert.ok(ms(c.policy_valid_until) - ms(body.generated_at) >= 3_600_000, `policy_valid_until ${c.policy_valid_until} is well in the future`);
  assert.deepEqual(c.effective, { rps: 10, price_per_request_micro: 1000, monthly_quota: null, billing_model: 'payg', source: 'payg' });
  // The console shows the same effective limits.
  const detail = await customerDetail(fixture, customer.id);
  assert.equal(detail.effective.rps, c.effective.rps);
  assert.equal(detail.effective.price_per_request_micro, c.effective.price_per_request_micro);
  assert.equal(detail.effective.source, c.effective.source);
  assert.equal(detail.effective.billing_model, c.effective.billing_model);

  // keys[]: id (uuid, what the SDK sends back as api_key_id), customer_id, SHA-256 of the raw key.
  assert.deepEqual(body.keys, [{ id: key.id, customer_id: customer.id, key_hash: sha256(key.key) }]);
  assert.match(key.id, UUID);
});

test('snapshot: an API without customers sends customers [] and keys [], never null', async () => {
  const fixture = await api('Empty API');
  const { body, answer } = await getWireSnapshot(t, fixture.secret);
  assert.deepEqual(body.customers, []);
  assert.deepEqual(body.keys, []);
  assert.match(answer.text, /"customers":\[\]/);
  assert.match(answer.text, /"keys":\[\]/);
});

test('snapshot: generated_at rises strictly: 50 concurrent fetches are all distinct, sequential fetches strictly increase (in milliseconds)', async () => {
  const fixture = await api('Monotonic API');
  await customerWithKey(fixture);
  const concurrent = await Promise.all(Array.from({ length: 50 }, () => getWireSnapshot(t, fixture.secret)));
  const stamps = concurrent.map((s) => ms(s.body.generated_at));
  assert.equal(new Set(stamps).size, 50, 'every concurrent snapshot has its own millisecond');
  let previous = Math.max(...stamps);
  for (let i = 0; i < 20; i++) {
    const { body } = await getWireSnapshot(t, fixture.secret);
    const stamp = ms(body.generated_at);
    assert.ok(stamp > previous, `fetch ${i}: ${body.generated_at} after ${new Date(previous).toISOString()}`);
    previous = stamp;
  }
  // Another secret of the same tenant (rotation grace) shares the sequence: one tenant, one order.
  const rotated = await fixture.owner.client.post(`/apis/${fixture.apiId}/secret/rotate`, { grace_hours: 1 });
  const pair = await Promise.all([getWireSnapshot(t, fixture.secret), getWireSnapshot(t, rotated.body.secret)]);
  const [a, b] = pair.map((s) => ms(s.body.generated_at)) as [number, number];
  assert.notEqual(a, b);
  assert.ok(Math.min(a, b) > previous);
});

test('snapshot: platform_period_end is the next UTC month start in whole seconds and stays the same across fetches in the period', async () => {
  const fixture = await api('Period API');
  await customerWithKey(fixture);
  const ends = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const { body } = await getWireSnapshot(t, fixture.secret);
    assert.equal(body.platform_period_end, nextMonthStart(new Date(body.generated_at)).toISOString());
    assert.equal(ms(body.platform_period_end) % 1000, 0, 'whole epoch seconds (the SDK keys its counters by them)');
    ends.add(body.platform_period_end);
    ends.add(body.platform_monthly_allowance.period_end);
    // Move a little within the month (never past its end) between fetches.
    const left = ms(body.platform_period_end) - t.clock.now().getTime();
    if (left > 20 * 60_000) t.clock.advance(5 * 60_000);
  }
  assert.equal(ends.size, 1, [...ends].join(', '));
});

test('snapshot: month_requests and platform_monthly_used count every status: 5 × 200 and 3 × 404 add 8 (tests/integration_test.py)', async () => {
  const fixture = await api('Every Status API');
  const { customer, key } = await customerWithKey(fixture);
  const first = await getWireSnapshot(t, fixture.secret);
  const policy = customerIn(first.body, customer.id).usage_policy_id;
  const now = t.clock.now();
  const items = [...Array.from({ length: 5 }, () => usageItem(key.id, policy, 200, 1, now)), ...Array.from({ length: 3 }, () => usageItem(key.id, policy, 404, 1, now))];
  const results = await postWireUsage(t, fixture.secret, items);
  assert.deepEqual(results.map((r) => r.status), Array(8).fill('accepted'));
  const { body } = await getWireSnapshot(t, fixture.secret);
  const c = customerIn(body, customer.id);
  assert.equal(c.month_requests, 8);
  assert.equal(body.platform_monthly_used, 8);
  assert.equal(body.platform_monthly_remaining, 100_000 - 8);
  assert.equal(body.platform_monthly_allowance.used, 8);
  // Only the 200s are billable: 5 × 1000 micro.
  assert.equal(c.credit_balance_micro, 1_000_000 - 5_000);
});

test('snapshot: a pending customer reads suspended in the default shape and pending with shape=full; its keys stay', async () => {
  const fixture = await api('Pending API');
  const { customer, key } = await customerWithKey(fixture, 'Pending Co');
  const other = await customerWithKey(fixture, 'Active Co');
  await t.services.db.updateTable('customers').set({ status: 'pending' }).where('id', '=', customer.id).execute();
  const wire = await getWireSnapshot(t, fixture.secret);
  assert.equal(customerIn(wire.body, customer.id).status, 'suspended');
  assert.equal(customerIn(wire.body, other.customer.id).status, 'active');
  assert.ok(wire.body.keys.some((k: any) => k.id === key.id && k.customer_id === customer.id), 'the pending customer keeps its key');
  assert.doesNotMatch(wire.answer.text, /"pending"/);
  const full = await getWireSnapshot(t, fixture.secret, { full: true });
  assert.equal(customerIn(full.body, customer.id).status, 'pending');
  assert.ok(full.body.keys.some((k: any) => k.id === key.id));
  // Explicitly asking for the wire shape is the default shape.
  const explicit = await sdkRequest(t, fixture.secret, 'GET', '/sdk/v1/snapshot?shape=wire');
  assert.equal(explicit.status, 200);
  assert.equal(customerIn(assertWireSnapshot(explicit.text, { clientNow: t.clock.now() }), customer.id).status, 'suspended');
});

test('snapshot: a suspended customer reads suspended and keeps its keys; reactivated it reads active', async () => {
  const fixture = await api('Suspended Customer API');
  const { customer, key } = await customerWithKey(fixture);
  const suspended = await fixture.owner.client.patch(`/apis/${fixture.apiId}/customers/${customer.id}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  let { body } = await getWireSnapshot(t, fixture.secret);
  assert.equal(customerIn(body, customer.id).status, 'suspended');
  assert.ok(body.keys.some((k: any) => k.id === key.id));
  const active = await fixture.owner.client.patch(`/apis/${fixture.apiId}/customers/${customer.id}`, { status: 'active' });
  assert.equal(active.status, 200, active.text);
  ({ body } = await getWireSnapshot(t, fixture.secret));
  assert.equal(customerIn(body, customer.id).status, 'active');
});

test('snapshot: a suspended API still syncs (200) with tenant_status suspended and every customer suspended; resumed, it is active again', async () => {
  const fixture = await api('Suspended API');
  const a = await customerWithKey(fixture, 'A');
  const b = await customerWithKey(fixture, 'B');
  const suspend = await fixture.owner.client.post(`/apis/${fixture.apiId}/suspend`, { reason: 'unpaid' });
  assert.equal(suspend.status, 200, suspend.text);
  const { body } = await getWireSnapshot(t, fixture.secret);
  assert.equal(body.tenant_status, 'suspended');
  assert.deepEqual(body.customers.map((c: any) => c.status), ['suspended', 'suspended']);
  assert.deepEqual(body.keys.map((k: any) => k.id).sort(), [a.key.id, b.key.id].sort());
  const resume = await fixture.owner.client.post(`/apis/${fixture.apiId}/resume`);
  assert.equal(resume.status, 200, resume.text);
  const again = await getWireSnapshot(t, fixture.secret);
  assert.equal(again.body.tenant_status, 'active');
  assert.deepEqual(again.body.customers.map((c: any) => c.status), ['active', 'active']);
});

test('snapshot: a revoked key disappears from keys[]; the customer and its other keys stay', async () => {
  const fixture = await api('Revoke API');
  const { customer, key } = await customerWithKey(fixture);
  const second = await createKey(fixture, customer.id, 'second');
  let { body } = await getWireSnapshot(t, fixture.secret);
  assert.deepEqual(body.keys.map((k: any) => k.id).sort(), [key.id, second.id].sort());
  const revoked = await fixture.owner.client.delete(`/apis/${fixture.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.equal(revoked.status, 204, revoked.text);
  ({ body } = await getWireSnapshot(t, fixture.secret));
  assert.deepEqual(body.keys, [{ id: second.id, customer_id: customer.id, key_hash: sha256(second.key) }]);
  assert.ok(!body.keys.some((k: any) => k.key_hash === sha256(key.key)));
  customerIn(body, customer.id);
});

test('snapshot: effective: API monthly_quota 0 (unlimited) is null, never 0; a quota is sent as is; rps 0 means no limit; a free API bills none', async () => {
  const fixture = await api('Effective API');
  const { customer } = await customerWithKey(fixture);
  const effective = async () => customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id).effective;
  assert.equal((await effective()).monthly_quota, null);

  let patched = await fixture.owner.client.patch(`/apis/${fixture.apiId}`, { monthly_quota: 5000, rps: 0 });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(await effective(), { rps: 0, price_per_request_micro: 1000, monthly_quota: 5000, billing_model: 'payg', source: 'payg' });

  patched = await fixture.owner.client.patch(`/apis/${fixture.apiId}`, { monthly_quota: 0 });
  assert.equal(patched.status, 200, patched.text);
  assert.equal((await effective()).monthly_quota, null, '0 on the wire would block every request');

  patched = await fixture.owner.client.patch(`/apis/${fixture.apiId}`, { price_per_request_micro: 0 });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(await effective(), { rps: 0, price_per_request_micro: 0, monthly_quota: null, billing_model: 'none', source: 'payg' });
});

test('snapshot: effective: custom limits and a plan, each with a new usage policy', async () => {
  const fixture = await api('Limits API', { preset: 'payg' });
  const { customer } = await customerWithKey(fixture);
  const first = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id);

  const limits = await fixture.owner.client.put(`/apis/${fixture.apiId}/customers/${customer.id}/limits`, { price_per_request_micro: 2500, rps: 3, monthly_quota: 700 });
  assert.equal(limits.status, 200, limits.text);
  const custom = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id);
  assert.deepEqual(custom.effective, { rps: 3, price_per_request_micro: 2500, monthly_quota: 700, billing_model: 'payg', source: 'custom' });
  assert.notEqual(custom.usage_policy_id, first.usage_policy_id);

  // A custom quota of 0 is "no quota" on the wire too: 0 there blocks every request.
  const zero = await fixture.owner.client.put(`/apis/${fixture.apiId}/customers/${customer.id}/limits`, { monthly_quota: 0 });
  assert.equal(zero.status, 200, zero.text);
  const noQuota = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id);
  assert.equal(noQuota.effective.monthly_quota, null);

  const cleared = await fixture.owner.client.put(`/apis/${fixture.apiId}/customers/${customer.id}/limits`, {});
  assert.equal(cleared.status, 200, cleared.text);
  const plan = await fixture.owner.client.post(`/apis/${fixture.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1000, rps: 50, monthly_quota: 20000, price_per_request_micro: 0 });
  assert.equal(plan.status, 200, plan.text);
  const assigned = await fixture.owner.client.patch(`/apis/${fixture.apiId}/customers/${customer.id}`, { plan_id: plan.body.id });
  assert.equal(assigned.status, 200, assigned.text);
  const onPlan = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id);
  assert.deepEqual(onPlan.effective, { rps: 50, price_per_request_micro: 0, monthly_quota: 20000, billing_model: 'subscription', source: 'plan' });
  assert.notEqual(onPlan.usage_policy_id, custom.usage_policy_id);
});

test('snapshot: ETag: If-None-Match with it answers 304 without a body; after a change, 200 with a new ETag', async () => {
  const fixture = await api('ETag API');
  const { customer } = await customerWithKey(fixture);
  // policy_valid_until is rounded to the hour, so an unchanged snapshot keeps its ETag within an
  // hour: step past an hour boundary that is less than two minutes away.
  const toHour = 3_600_000 - (t.clock.now().getTime() % 3_600_000);
  if (toHour < 120_000) t.clock.advance(toHour + 1000);
  const first = await getWireSnapshot(t, fixture.secret);
  assert.ok(first.etag, 'an ETag is sent');
  const unchanged = await sdkRequest(t, fixture.secret, 'GET', '/sdk/v1/snapshot', undefined, { headers: { 'if-none-match': first.etag! } });
  assert.equal(unchanged.status, 304, unchanged.text.slice(0, 200));
  assert.equal(unchanged.text, '');
  assert.equal(unchanged.headers.get('etag'), first.etag);
  // A stale or foreign ETag gets the whole snapshot.
  const stale = await getWireSnapshot(t, fixture.secret, { headers: { 'if-none-match': '"not-this-one"' } });
  assert.equal(stale.etag, first.etag);
  assert.equal(customerIn(stale.body, customer.id).policy_valid_until, customerIn(first.body, customer.id).policy_valid_until);

  const credit = await fixture.owner.client.post(`/apis/${fixture.apiId}/customers/${customer.id}/credit`, { amount_micro: 1, note: 'etag' });
  assert.equal(credit.status, 200, credit.text);
  const changed = await getWireSnapshot(t, fixture.secret, { headers: { 'if-none-match': first.etag! } });
  assert.notEqual(changed.etag, first.etag);
  assert.equal(customerIn(changed.body, customer.id).credit_balance_micro, 1_000_001);
  const again = await sdkRequest(t, fixture.secret, 'GET', '/sdk/v1/snapshot', undefined, { headers: { 'if-none-match': changed.etag! } });
  assert.equal(again.status, 304);
  // Without If-None-Match it is always a full 200 (the Python SDK never sends it).
  assert.equal((await getWireSnapshot(t, fixture.secret)).etag, changed.etag);
});

test('snapshot: acknowledged debits already show in credit_balance_micro of the next snapshot, and balance_seq grows', async () => {
  const fixture = await api('Debit API');
  const { customer, key } = await customerWithKey(fixture);
  const before = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id);
  const results = await postWireUsage(t, fixture.secret, [usageItem(key.id, before.usage_policy_id, 200, 7, t.clock.now())]);
  assert.equal(results[0]!.status, 'accepted');
  // The very next fetch (started after the acknowledgement) shows the debit.
  const after = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id);
  assert.equal(after.credit_balance_micro, before.credit_balance_micro - 7_000);
  assert.equal(after.month_requests, before.month_requests + 7);
  assert.ok(after.balance_seq > before.balance_seq, `balance_seq ${before.balance_seq} -> ${after.balance_seq}`);
});

test('snapshot: gzip when Accept-Encoding: gzip is sent (a snapshot over 1 KB), plain JSON otherwise', async () => {
  const fixture = await api('Gzip API');
  for (let i = 0; i < 8; i++) await customerWithKey(fixture, `Customer ${i}`);
  for (const acceptEncoding of ['gzip', 'gzip, deflate']) {
    const zipped = await rawGet('/sdk/v1/snapshot', { authorization: `Bearer ${fixture.secret}`, 'accept-encoding': acceptEncoding, 'user-agent': 'python-httpx/0.27.0' });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip', acceptEncoding);
    const text = gunzipSync(zipped.body).toString('utf8');
    assert.ok(text.length > 1024, `the snapshot is ${text.length} bytes`);
    const body = assertWireSnapshot(text, { clientNow: t.clock.now() });
    assert.equal(body.customers.length, 8);
    assert.equal(body.keys.length, 8);
  }
  const plain = await rawGet('/sdk/v1/snapshot', { authorization: `Bearer ${fixture.secret}` });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(assertWireSnapshot(plain.body.toString('utf8'), { clientNow: t.clock.now() }).customers.length, 8);
});

test('snapshot: billable_status_codes follow the API, sorted and without duplicates, and [] (never null) when there are none', async () => {
  const fixture = await api('Codes API');
  await customerWithKey(fixture);
  let patched = await fixture.owner.client.patch(`/apis/${fixture.apiId}`, { billable_status_codes: [] });
  assert.equal(patched.status, 200, patched.text);
  let snap = await getWireSnapshot(t, fixture.secret);
  assert.deepEqual(snap.body.billable_status_codes, []);
  assert.match(snap.answer.text, /"billable_status_codes":\[\]/);
  patched = await fixture.owner.client.patch(`/apis/${fixture.apiId}`, { billable_status_codes: [599, 100, 404, 200] });
  assert.equal(patched.status, 200, patched.text);
  snap = await getWireSnapshot(t, fixture.secret);
  assert.deepEqual(snap.body.billable_status_codes, [100, 200, 404, 599]);
});

test('snapshot: a balance below zero is a negative int', async () => {
  const fixture = await api('Negative API');
  const { customer } = await customerWithKey(fixture);
  const debit = await fixture.owner.client.post(`/apis/${fixture.apiId}/customers/${customer.id}/credit`, { amount_micro: -5_000_000, note: 'correction' });
  assert.equal(debit.status, 200, debit.text);
  const { body, answer } = await getWireSnapshot(t, fixture.secret);
  assert.equal(customerIn(body, customer.id).credit_balance_micro, -4_000_000);
  assert.match(answer.text, /"credit_balance_micro":-4000000[,}]/);
});

test('snapshot: platform_monthly_remaining is max(0, limit - used) past the limit; limit and hard_cap follow the platform plan', async () => {
  const fixture = await api('Platform API');
  const { customer, key } = await customerWithKey(fixture);
  const policy = customerIn((await getWireSnapshot(t, fixture.secret)).body, customer.id).usage_policy_id;
  const now = t.clock.now();
  const results = await postWireUsage(t, fixture.secret, [usageItem(key.id, policy, 404, 60_000, now), usageItem(key.id, policy, 404, 60_000, now)]);
  assert.deepEqual(results.map((r) => r.status), ['accepted', 'accepted']);
  let { body } = await getWireSnapshot(t, fixture.secret);
  assert.equal(body.platform_monthly_used, 120_000);
  assert.equal(body.platform_monthly_limit, 100_000);
  assert.equal(body.platform_monthly_remaining, 0);
  assert.equal(body.platform_hard_cap, true);
  await t.services.db.updateTable('apis').set({ platform_plan: 'starter' }).where('id', '=', fixture.apiId).execute();
  ({ body } = await getWireSnapshot(t, fixture.secret));
  assert.equal(body.platform_monthly_limit, 2_000_000);
  assert.equal(body.platform_monthly_remaining, 1_880_000);
  assert.equal(body.platform_hard_cap, false);
  assert.equal(body.platform_monthly_allowance.hard_cap, false);
});

test('snapshot: the test customer and its key are in the snapshot', async () => {
  const fixture = await api('Test Key API');
  const testKey = await fixture.owner.client.post(`/apis/${fixture.apiId}/test-key`);
  assert.equal(testKey.status, 200, testKey.text);
  const { body } = await getWireSnapshot(t, fixture.secret);
  const c = customerIn(body, testKey.body.customer_id);
  assert.equal(c.status, 'active');
  assert.ok(body.keys.some((k: any) => k.key_hash === sha256(testKey.body.key) && k.customer_id === c.id));
});

test('snapshot: generated_at rises past a stamp another replica made with a clock a little ahead (one order per tenant across replicas)', async () => {
  const fixture = await api('Replica API');
  await customerWithKey(fixture);
  const first = await getWireSnapshot(t, fixture.secret);
  // Another node, its clock 5 s ahead of ours, stamped a snapshot of this tenant just now.
  const ahead = new Date(t.clock.now().getTime() + 5_000);
  await t.services.db.updateTable('apis').set({ snapshot_stamped_at: ahead }).where('id', '=', fixture.apiId).execute();
  const next = await getWireSnapshot(t, fixture.secret);
  assert.ok(ms(next.body.generated_at) > ahead.getTime(), `${next.body.generated_at} after the other node's ${ahead.toISOString()}`);
  assert.ok(ms(next.body.generated_at) > ms(first.body.generated_at));
  // Once our clock passes it, stamps follow our clock again.
  t.clock.advance(6_000);
  const later = await getWireSnapshot(t, fixture.secret);
  assert.ok(ms(later.body.generated_at) > ms(next.body.generated_at));
});
