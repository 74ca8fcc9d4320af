// Every admission answer of the meter, one by one, against the real server (issue 4, "the
// admission statuses one by one"; wire protocol sections 1 to 3 for what each one means).
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createMeter, type Admission, type Meter } from '../src/index.js';
import { signUp, type SignedUp } from '../../server/test/support/flows.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, createPendingCustomer, customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { addCredit, journalDir, Meters, patchApi, serve, setLimits, unknownKey, wireTap } from './support/gatehouse.js';

let t: TestApp;
let owner: SignedUp;
const meters = new Meters();
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Admission Owner' });
});
after(async () => {
  await meters.closeAll();
  await t.close();
});

/** An API without a default rate limit (tests that want one set it per customer), one customer, one key. */
async function setUp(name: string) {
  const api = await createApi(t, { name }, owner);
  await patchApi(api, { rps: 0 });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  return { api, customer, key };
}

function denial(decision: Admission) {
  assert.equal(decision.ok, false, 'expected a denial');
  if (decision.ok) throw new Error('unreachable');
  return decision;
}

test('no key: 401 missing_key with WWW-Authenticate and a JSON body', async () => {
  const { api } = await setUp('Missing Key');
  const meter = meters.make(t, api);
  for (const key of [undefined, null, '']) {
    const d = denial(await meter.admit({ key }));
    assert.equal(d.status, 401);
    assert.equal(d.reason, 'missing_key');
    assert.match(d.headers['www-authenticate'] ?? '', /^Bearer /);
    assert.deepEqual(Object.keys(d.body).sort(), ['error', 'message']);
    assert.equal(d.body.error, 'missing_key');
  }
});

test('a well-formed key nobody holds: one lookup, then 401 invalid_key with WWW-Authenticate', async () => {
  const { api } = await setUp('Unknown Key');
  const tap = wireTap();
  const meter = meters.make(t, api, { fetch: tap.fetch });
  await meter.ready;
  const key = unknownKey();
  const d = denial(await meter.admit({ key }));
  assert.deepEqual([d.status, d.reason, d.body.error], [401, 'invalid_key', 'invalid_key']);
  assert.equal(d.headers['www-authenticate'], 'Bearer error="invalid_token"');
  assert.equal(tap.count('/sdk/v1/keys/verify'), 1);
  // A value without the key shape is also asked about once: it may be a key of another format.
  const odd = denial(await meter.admit({ key: 'not-a-gatehouse-key' }));
  assert.equal(odd.status, 401);
  assert.equal(tap.count('/sdk/v1/keys/verify'), 2);
});

test('a mistyped key (checksum wrong) is refused 401 without any call to Gatehouse', async () => {
  const { api, key } = await setUp('Mistyped Key');
  const tap = wireTap();
  const meter = meters.make(t, api, { fetch: tap.fetch });
  await meter.ready;
  const callsBefore = tap.calls.length;
  const last = key.key.at(-1)!;
  const mistyped = key.key.slice(0, -1) + (last === 'A' ? 'B' : 'A');
  const d = denial(await meter.admit({ key: mistyped }));
  assert.deepEqual([d.status, d.reason], [401, 'invalid_key']);
  assert.ok(d.headers['www-authenticate']);
  assert.equal(tap.calls.length, callsBefore, 'no verify, no snapshot');
  // Refused even before any snapshot: a meter whose Gatehouse is unreachable answers it the same way.
  const offline = createMeter({ secret: api.secret, baseUrl: 'http://127.0.0.1:9', journalDir: null, onError: () => {} });
  const quick = denial(await offline.admit({ key: mistyped }));
  assert.equal(quick.status, 401);
  await offline.close();
});

test('a suspended customer: 403 suspended once the meter syncs, and admitted again when reactivated', async () => {
  const { api, customer, key } = await setUp('Suspended');
  const meter = meters.make(t, api, { syncIntervalMs: 3_600_000 });
  await serve(meter, key.key);
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { status: 'suspended' })).status, 200);
  await meter.sync();
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.body.error], [403, 'suspended', 'suspended']);
  assert.equal(d.headers['www-authenticate'], undefined);
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { status: 'active' })).status, 200);
  await meter.sync();
  await serve(meter, key.key);
});

test('a customer waiting for approval: 403 pending', async () => {
  const { api } = await setUp('Pending');
  const pending = await createPendingCustomer(t, api);
  const key = await createKey(api, pending.id);
  const meter = meters.make(t, api);
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.body.error], [403, 'pending', 'pending']);
  // A key created after the snapshot is looked up, and the customer's status still holds.
  const later = await createKey(api, pending.id, 'later');
  assert.equal(denial(await meter.admit({ key: later.key })).reason, 'pending');
});

test('credit below one price: 402; a hold is released by a non-billable answer and kept by a billable one', async () => {
  const { api, customer, key } = await setUp('Out Of Credit');
  // 2,500 micro left at 1,000 a request: two requests can be held, not three.
  assert.equal(await addCredit(api, customer.id, 2_500 - customer.balance_micro), 2_500);
  const meter = meters.make(t, api);
  const first = await meter.admit({ key: key.key });
  const second = await meter.admit({ key: key.key });
  assert.ok(first.ok && second.ok);
  const refused = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([refused.status, refused.reason, refused.body.error], [402, 'insufficient_credit', 'insufficient_credit']);
  first.finish(404); // not billable: its hold goes back
  const third = await meter.admit({ key: key.key });
  assert.ok(third.ok, 'the released hold admits one more');
  second.finish(200);
  third.finish(200);
  assert.equal(denial(await meter.admit({ key: key.key })).status, 402, '2,000 charged and not yet acknowledged');
  await meter.flush();
  await meter.sync();
  assert.equal(denial(await meter.admit({ key: key.key })).status, 402, 'acknowledged and in the new snapshot');
  assert.equal((await customerDetail(api, customer.id)).balance_micro, 500);
  // A price the balance covers again (PATCH the API price) admits again after a sync.
  await patchApi(api, { price_per_request_micro: 500 });
  await meter.sync();
  await serve(meter, key.key, 200);
  assert.equal(denial(await meter.admit({ key: key.key })).status, 402);
});

test('rate limit: 429 rate_limited with Retry-After; after a full burst requests pass at exactly the rate', async () => {
  const { api, customer, key } = await setUp('Rate Limited');
  await setLimits(api, customer.id, { rps: 2 });
  // The meter's clock stands still unless the test moves it: GCRA's arithmetic is checked exactly.
  let now = t.clock.now().getTime();
  const meter = meters.make(t, api, { now: () => now });
  const admit = async () => {
    const d = await meter.admit({ key: key.key });
    if (d.ok) d.finish(404);
    return d;
  };
  assert.ok((await admit()).ok);
  assert.ok((await admit()).ok);
  const limited = denial(await admit());
  assert.deepEqual([limited.status, limited.reason, limited.body.error], [429, 'rate_limited', 'rate_limited']);
  assert.equal(limited.headers['retry-after'], '1');
  now += 499;
  assert.equal(denial(await admit()).reason, 'rate_limited', 'one interval (500 ms) has not passed');
  now += 1;
  assert.ok((await admit()).ok, 'one interval later, one request');
  assert.equal(denial(await admit()).reason, 'rate_limited', 'and only one');
  now += 1_000;
  assert.ok((await admit()).ok);
  assert.ok((await admit()).ok);
  assert.equal(denial(await admit()).reason, 'rate_limited', 'a second brings back two, not more');
});

test('rate limit is per customer, as the wire protocol carries it: two keys of one customer share one rps', async () => {
  // Wire protocol section 2: rps is a field of the customer's `effective` limits; keys carry no
  // limit of their own, so every key of a customer draws on the same rate.
  const { api, customer, key } = await setUp('Rate Per Customer');
  const second = await createKey(api, customer.id, 'second');
  await setLimits(api, customer.id, { rps: 2 });
  const now = t.clock.now().getTime();
  const meter = meters.make(t, api, { now: () => now });
  for (const k of [key.key, second.key]) {
    const d = await meter.admit({ key: k });
    assert.ok(d.ok);
    d.finish(404);
  }
  assert.equal(denial(await meter.admit({ key: second.key })).reason, 'rate_limited', 'the second key found the burst used by both');
  assert.equal(denial(await meter.admit({ key: key.key })).reason, 'rate_limited');
});

test('rate limit: no double burst at a second boundary (GCRA, not a fixed window)', async () => {
  const { api, customer, key } = await setUp('No Double Burst');
  await setLimits(api, customer.id, { rps: 2 });
  const start = t.clock.now().getTime();
  let now = start;
  const meter = meters.make(t, api, { now: () => now });
  await meter.ready;
  // A request every 10 ms for 10 s. A fixed one-second window would let 2 through just before
  // each boundary and 2 more just after: 4 within 20 ms.
  const admittedAt: number[] = [];
  for (let at = 0; at <= 10_000; at += 10) {
    now = start + at;
    const d = await meter.admit({ key: key.key });
    if (d.ok) {
      admittedAt.push(at);
      d.finish(404);
    } else assert.equal(d.reason, 'rate_limited');
  }
  // The burst of 2 (the first two requests), then exactly one every 500 ms.
  assert.deepEqual(admittedAt, [0, 10, ...Array.from({ length: 20 }, (_, i) => 500 * (i + 1))]);
  for (const from of admittedAt) {
    const inSecond = admittedAt.filter((at) => at >= from && at < from + 1_000).length;
    assert.ok(inSecond <= 3, `at most the burst and one more in any second, got ${inSecond} from ${from} ms`);
    const inMoment = admittedAt.filter((at) => at >= from && at < from + 100).length;
    assert.ok(inMoment <= 2, `at most 2 in any 100 ms, got ${inMoment} from ${from} ms`);
  }
});

test('a refused request takes nothing from the rate limit: out of credit stays 402, not 429', async () => {
  const { api, customer, key } = await setUp('Refusal Takes Nothing');
  await setLimits(api, customer.id, { rps: 1 });
  await addCredit(api, customer.id, 500 - customer.balance_micro);
  let now = t.clock.now().getTime();
  const meter = meters.make(t, api, { now: () => now });
  for (let i = 0; i < 3; i++) assert.equal(denial(await meter.admit({ key: key.key })).reason, 'insufficient_credit', `request ${i + 1}`);
  // Topped up in the same instant: the first request is admitted, as the rate allows one.
  await addCredit(api, customer.id, 10_000);
  await meter.sync();
  const topped = await meter.admit({ key: key.key });
  assert.ok(topped.ok, 'the refusals used none of the rate');
  topped.finish(200);
  assert.equal(denial(await meter.admit({ key: key.key })).reason, 'rate_limited');
  now += 1_000;
  await serve(meter, key.key);
});

test('monthly quota: 429 quota_exceeded with Retry-After until the period ends; every status counts', async () => {
  const { api, customer, key } = await setUp('Quota');
  await setLimits(api, customer.id, { monthly_quota: 3 });
  const meter = meters.make(t, api);
  await serve(meter, key.key, 200);
  await serve(meter, key.key, 404);
  await serve(meter, key.key, 500);
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.body.error], [429, 'quota_exceeded', 'quota_exceeded']);
  const retryAfter = Number(d.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 31 * 86_400, `Retry-After ${d.headers['retry-after']}`);
  await meter.flush();
  assert.equal((await customerDetail(api, customer.id)).month_requests, 3);
  // A second meter (another process) learns the count from the snapshot.
  const other = meters.make(t, api);
  assert.equal(denial(await other.admit({ key: key.key })).reason, 'quota_exceeded');
});

test('100 concurrent requests against a quota of 10: exactly 10 admitted, with one lookup of the new key', async () => {
  const { api, customer } = await setUp('Concurrent Quota');
  await setLimits(api, customer.id, { monthly_quota: 10 });
  const tap = wireTap();
  // Not following changes: a following meter may learn of the new key before the requests come,
  // and this test is about the lookup made once for many requests.
  const meter = meters.make(t, api, { fetch: tap.fetch, followChanges: false });
  await meter.ready;
  // Made after the snapshot: every request needs the lookup, which is made once.
  const key = await createKey(api, customer.id, 'fresh');
  const decisions = await Promise.all(Array.from({ length: 100 }, () => meter.admit({ key: key.key })));
  const admitted = decisions.filter((d) => d.ok);
  assert.equal(admitted.length, 10);
  assert.deepEqual([...new Set(decisions.filter((d) => !d.ok).map((d) => (d.ok ? '' : `${d.status} ${d.reason}`)))], ['429 quota_exceeded']);
  assert.equal(tap.count('/sdk/v1/keys/verify'), 1);
  for (const d of admitted) if (d.ok) d.finish(200);
  await meter.flush();
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, 10);
  assert.equal(detail.balance_micro, customer.balance_micro - 10 * 1_000);
});

test('a snapshot older than staleAfterMs: 503 stale_snapshot, admitted again once a sync succeeds', async () => {
  const { api, key } = await setUp('Stale');
  const meter = meters.make(t, api, { syncIntervalMs: 3_600_000, staleAfterMs: 60_000 });
  await serve(meter, key.key);
  t.clock.advance(50_000);
  await serve(meter, key.key);
  t.clock.advance(11_000);
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.headers['retry-after']], [503, 'stale_snapshot', '5']);
  assert.ok(meter.metrics().snapshotAgeMs! > 60_000);
  await meter.sync();
  await serve(meter, key.key);
});

test('failOpen keeps admitting past staleAfterMs, up to maxStaleMs, then 503', async () => {
  const { api, key } = await setUp('Fail Open');
  const meter = meters.make(t, api, { syncIntervalMs: 3_600_000, staleAfterMs: 60_000, maxStaleMs: 120_000, failOpen: true });
  await serve(meter, key.key);
  t.clock.advance(61_000);
  await serve(meter, key.key);
  t.clock.advance(49_000);
  await serve(meter, key.key);
  t.clock.advance(11_000);
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason], [503, 'stale_snapshot']);
});

test('Gatehouse unreachable at start: 503 unavailable with Retry-After, no snapshot age', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const { api, key } = await setUp('Unreachable');
  const errors: Error[] = [];
  const meter: Meter = meters.make(t, api, { baseUrl: `http://127.0.0.1:${port}`, onError: (e) => errors.push(e) });
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.headers['retry-after']], [503, 'unavailable', '5']);
  assert.equal(meter.metrics().snapshotAgeMs, null);
  assert.equal(meter.metrics().admissions.unavailable, 1);
  assert.ok(errors.length >= 1, 'the failed sync was reported to onError');
});

test('the secret rotated with no grace: the refused secret turns every request into 503, usage is kept', async () => {
  const { api, key } = await setUp('Rotated');
  const meter = meters.make(t, api);
  await serve(meter, key.key);
  const rotated = await api.owner.client.post(`/apis/${api.apiId}/secret/rotate`, { grace_hours: 0 });
  assert.equal(rotated.status, 200, rotated.text);
  await assert.rejects(meter.sync(), /refused the SDK secret \(HTTP 401/);
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.headers['retry-after']], [503, 'unavailable', '5']);
  // Unknown keys are not looked up with a refused secret either.
  assert.equal(denial(await meter.admit({ key: unknownKey() })).status, 503);
  await assert.rejects(meter.flush(), /refused the SDK secret \(HTTP 401/);
  const metrics = meter.metrics();
  assert.equal(metrics.admissions.admitted, 1);
  assert.equal(metrics.admissions.unavailable, 2);
  assert.equal(metrics.queueDepth, 1, 'the request is kept for when a valid secret is back');
  assert.equal(metrics.reportFailures, 1);
  assert.match(meter.prometheus(), /gatehouse_sdk_admissions_total\{outcome="unavailable"\} 2/);
});

// Last: it moves the shared clock a day ahead.
test('a usage policy past policy_valid_until that cannot be refreshed: 503 policy_expired', async () => {
  const { api, key } = await setUp('Policy Expired');
  let snapshotsDown = false;
  const tap = wireTap((call) => (snapshotsDown && call.path === '/sdk/v1/snapshot' ? { answer: new Response('{}', { status: 404 }) } : undefined));
  const day = 86_400_000;
  const meter = meters.make(t, api, { fetch: tap.fetch, syncIntervalMs: 3_600_000, staleAfterMs: 3 * day, maxStaleMs: 3 * day, journalDir: journalDir() });
  await serve(meter, key.key);
  snapshotsDown = true;
  t.clock.advance(day + 3_600_000);
  const before = tap.count('/sdk/v1/snapshot');
  const d = denial(await meter.admit({ key: key.key }));
  assert.deepEqual([d.status, d.reason, d.headers['retry-after']], [503, 'policy_expired', '5']);
  assert.equal(tap.count('/sdk/v1/snapshot'), before + 1, 'a refresh was tried first');
  snapshotsDown = false;
  await serve(meter, key.key);
});
