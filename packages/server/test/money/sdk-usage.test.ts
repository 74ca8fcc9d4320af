// POST /sdk/v1/usage, items and answers (shared/spec/sdk-wire-protocol.md section 4): exact item
// fields, one result per item, idempotency pinned to the payload, summing, per-item rejection that
// never turns into a batch-level 400/402/409/422, and large reports. Billing is in
// sdk-usage-billing.test.ts, the age window in sdk-usage-age.test.ts, races in
// sdk-usage-concurrency.test.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  apiStats, createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, hourStamp, postWireUsage, resultFor, sdkRequest, usageEntries, usageItem, type ApiFixture,
} from '../support/money.js';
import { assertWireUsageAnswer } from '../support/wire-validator.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const PRICE = 1000; // the payg preset's price per request

interface Tenant {
  api: ApiFixture;
  customer: { id: string };
  key: { id: string; key: string };
  policy: string;
}

async function tenant(name: string): Promise<Tenant> {
  const api = await createApi(t, { name }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const policy = customerIn((await getWireSnapshot(t, api.secret)).body, customer.id).usage_policy_id as string;
  return { api, customer, key, policy };
}

/** Everything an applied item changes: balance, counts, ledger, statistics, the snapshot's numbers. */
async function state(x: Tenant) {
  const detail = await customerDetail(x.api, x.customer.id);
  const stats = await apiStats(x.api);
  const snapshot = await getWireSnapshot(t, x.api.secret);
  const c = customerIn(snapshot.body, x.customer.id);
  return {
    balance: detail.balance_micro,
    monthRequests: detail.month_requests,
    ledger: await usageEntries(x.api, x.customer.id),
    stats: { today: stats.requests_today, month: stats.requests_month, charged: stats.charged_month_micro, daily: stats.daily },
    snapshot: { credit: c.credit_balance_micro, seq: c.balance_seq, month: c.month_requests, used: snapshot.body.platform_monthly_used },
  };
}

test('usage: the example of section 4 with exactly its item fields is accepted, one result per item with idempotency_key and status', async () => {
  const x = await tenant('Example Usage API');
  const item = { idempotency_key: randomUUID(), api_key_id: x.key.id, usage_policy_id: x.policy, status_code: 200, count: 42, period_start: hourStamp(t.clock.now()) };
  assert.deepEqual(Object.keys(item).sort(), ['api_key_id', 'count', 'idempotency_key', 'period_start', 'status_code', 'usage_policy_id']);
  const answer = await sdkRequest(t, x.api.secret, 'POST', '/sdk/v1/usage', { items: [item] });
  assert.equal(answer.status, 200, answer.text);
  // results as the wire protocol shows them; balances after them (issue 27: ignored by SDKs that do not know it).
  const { balances, ...rest } = answer.body as { balances: { id: string; credit_balance_micro: number }[] };
  assert.deepEqual(rest, { results: [{ idempotency_key: item.idempotency_key, status: 'accepted' }] });
  assert.deepEqual(balances.map((b) => b.credit_balance_micro), [1_000_000 - 42 * PRICE]);
  const after = await state(x);
  assert.equal(after.balance, 1_000_000 - 42 * PRICE);
  assert.equal(after.monthRequests, 42);
});

test('usage: results are exactly one per item, for every item of a mixed report', async () => {
  const x = await tenant('Results API');
  const now = t.clock.now();
  const items = [
    usageItem(x.key.id, x.policy, 200, 1, now),
    usageItem(x.key.id, x.policy, 404, 2, now),
    usageItem(randomUUID(), x.policy, 200, 3, now),
    usageItem(x.key.id, x.policy, 200, 0, now),
    usageItem(x.key.id, null, 500, 4, now),
  ];
  const results = await postWireUsage(t, x.api.secret, items);
  assert.equal(results.length, items.length);
  assert.deepEqual(items.map((i) => resultFor(results, i.idempotency_key).status), ['accepted', 'accepted', 'rejected', 'rejected', 'accepted']);
  for (const r of results) {
    assert.deepEqual(Object.keys(r).filter((k) => !['idempotency_key', 'status', 'detail'].includes(k)), []);
    if (r.status === 'rejected') assert.ok(typeof r.detail === 'string' && r.detail.length > 0 && r.detail.length <= 2000);
  }
  // An empty report is fine too.
  assert.deepEqual(await postWireUsage(t, x.api.secret, []), []);
});

test('usage: a replay unchanged answers duplicate and changes nothing (balance, month_requests, ledger, stats, snapshot)', async () => {
  const x = await tenant('Replay API');
  const now = t.clock.now();
  const items = [usageItem(x.key.id, x.policy, 200, 5, now), usageItem(x.key.id, x.policy, 404, 2, now), usageItem(x.key.id, null, 201, 1, now)];
  assert.deepEqual((await postWireUsage(t, x.api.secret, items)).map((r) => r.status), ['accepted', 'accepted', 'accepted']);
  const applied = await state(x);
  assert.equal(applied.balance, 1_000_000 - 6 * PRICE);
  assert.equal(applied.monthRequests, 8);
  for (let i = 0; i < 3; i++) {
    const again = await postWireUsage(t, x.api.secret, items);
    assert.deepEqual(items.map((item) => resultFor(again, item.idempotency_key).status), ['duplicate', 'duplicate', 'duplicate']);
  }
  // In another order, and mixed with a new item: the new one is applied, the others are duplicates.
  const fresh = usageItem(x.key.id, x.policy, 200, 1, now);
  const mixed = await postWireUsage(t, x.api.secret, [items[2]!, fresh, items[0]!]);
  assert.equal(resultFor(mixed, fresh.idempotency_key).status, 'accepted');
  assert.equal(resultFor(mixed, items[0]!.idempotency_key).status, 'duplicate');
  assert.equal(resultFor(mixed, items[2]!.idempotency_key).status, 'duplicate');
  const after = await state(x);
  assert.equal(after.balance, applied.balance - PRICE);
  assert.equal(after.monthRequests, applied.monthRequests + 1);
  // Replaying only duplicates leaves everything as it was, down to balance_seq and the ledger row.
  const settled = await state(x);
  await postWireUsage(t, x.api.secret, [...items, fresh]);
  assert.deepEqual(await state(x), settled);
});

test('usage: the same idempotency_key with a different count (or status, hour, key, policy) is rejected and changes nothing', async () => {
  const x = await tenant('Conflict API');
  const other = await createKey(x.api, x.customer.id, 'other');
  const now = t.clock.now();
  const original = usageItem(x.key.id, x.policy, 200, 5, now);
  assert.equal((await postWireUsage(t, x.api.secret, [original]))[0]!.status, 'accepted');
  const applied = await state(x);
  const variants = [
    { ...original, count: 6 },
    { ...original, count: 4 },
    { ...original, status_code: 201 },
    { ...original, period_start: hourStamp(now, -1) },
    { ...original, api_key_id: other.id },
    (({ usage_policy_id: _p, ...rest }) => rest)(original),
  ];
  for (const variant of variants) {
    const answer = await sdkRequest(t, x.api.secret, 'POST', '/sdk/v1/usage', { items: [variant] });
    assert.equal(answer.status, 200, `never a batch-level 409: ${answer.text}`);
    const [result] = assertWireUsageAnswer(answer.text, [variant]).results;
    assert.equal(result.status, 'rejected', JSON.stringify(variant));
    assert.match(result.detail, /idempotency_key/);
  }
  assert.deepEqual(await state(x), applied);
  // The original, sent again, is still a duplicate.
  assert.equal((await postWireUsage(t, x.api.secret, [original]))[0]!.status, 'duplicate');
});

test('usage: an idempotency_key repeated inside one report is applied once; a repeat with a different payload is rejected', async () => {
  const x = await tenant('Repeat In Report API');
  const now = t.clock.now();
  const item = usageItem(x.key.id, x.policy, 200, 3, now);
  const same = await postWireUsage(t, x.api.secret, [item, { ...item }]);
  assert.deepEqual(same.map((r) => r.status).sort(), ['accepted', 'duplicate']);
  assert.equal((await customerDetail(x.api, x.customer.id)).balance_micro, 1_000_000 - 3 * PRICE);

  const first = usageItem(x.key.id, x.policy, 200, 5, now);
  const changed = { ...first, count: 50 };
  const answer = await sdkRequest(t, x.api.secret, 'POST', '/sdk/v1/usage', { items: [first, changed] });
  assert.equal(answer.status, 200, answer.text);
  const statuses = assertWireUsageAnswer(answer.text, [first, changed]).results.map((r: any) => r.status);
  assert.deepEqual(statuses, ['accepted', 'rejected'], 'the second payload under the same key is a conflict, not a duplicate');
  const detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - 8 * PRICE);
  assert.equal(detail.month_requests, 8);
  // Later, the accepted payload is the one pinned to the key.
  assert.equal((await postWireUsage(t, x.api.secret, [first]))[0]!.status, 'duplicate');
  assert.equal((await postWireUsage(t, x.api.secret, [changed]))[0]!.status, 'rejected');
});

test('usage: items sharing key, policy, status and hour with different idempotency keys are summed, in one report and across reports', async () => {
  const x = await tenant('Summing API');
  const now = t.clock.now();
  const one = [usageItem(x.key.id, x.policy, 200, 2, now), usageItem(x.key.id, x.policy, 200, 3, now), usageItem(x.key.id, x.policy, 200, 4, now)];
  assert.deepEqual((await postWireUsage(t, x.api.secret, one)).map((r) => r.status), ['accepted', 'accepted', 'accepted']);
  let detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.month_requests, 9);
  assert.equal(detail.balance_micro, 1_000_000 - 9 * PRICE);
  // The same fields again, in another report (test_failure_backoff_holds_against_full_batches).
  const two = [usageItem(x.key.id, x.policy, 200, 2, now), usageItem(x.key.id, x.policy, 200, 3, now)];
  assert.deepEqual((await postWireUsage(t, x.api.secret, two)).map((r) => r.status), ['accepted', 'accepted']);
  detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.month_requests, 14);
  assert.equal(detail.balance_micro, 1_000_000 - 14 * PRICE);
  const [entry] = await usageEntries(x.api, x.customer.id);
  assert.equal(entry.requests, 14);
  assert.equal(entry.amount_micro, -14 * PRICE);
});

test('usage: bad items are rejected one by one with a detail, the good ones in the same report are applied, and the answer is 200 (never 400/402/409/422)', async () => {
  const a = await tenant('Reject API A');
  const b = await tenant('Reject API B');
  const sibling = await createCustomer(t, a.api, 'Sibling');
  const siblingPolicy = customerIn((await getWireSnapshot(t, a.api.secret)).body, sibling.id).usage_policy_id;
  const now = t.clock.now();
  const good = usageItem(a.key.id, a.policy, 200, 7, now);
  const base = usageItem(a.key.id, a.policy, 200, 1, now);
  const bad: Record<string, Record<string, unknown>> = {
    'unknown api_key_id': { ...base, idempotency_key: randomUUID(), api_key_id: randomUUID() },
    "another API's key": { ...base, idempotency_key: randomUUID(), api_key_id: b.key.id, usage_policy_id: b.policy },
    'api_key_id not a uuid': { ...base, idempotency_key: randomUUID(), api_key_id: 'key_1' },
    'api_key_id missing': (({ api_key_id: _k, ...rest }) => ({ ...rest, idempotency_key: randomUUID() }))(base),
    'unknown usage_policy_id': { ...base, idempotency_key: randomUUID(), usage_policy_id: randomUUID() },
    'a policy of another customer': { ...base, idempotency_key: randomUUID(), usage_policy_id: siblingPolicy },
    "a policy of another API's customer": { ...base, idempotency_key: randomUUID(), usage_policy_id: b.policy },
    'usage_policy_id not a uuid': { ...base, idempotency_key: randomUUID(), usage_policy_id: 'pol_1' },
    'status 99': { ...base, idempotency_key: randomUUID(), status_code: 99 },
    'status 600': { ...base, idempotency_key: randomUUID(), status_code: 600 },
    'status 0': { ...base, idempotency_key: randomUUID(), status_code: 0 },
    'status as a string': { ...base, idempotency_key: randomUUID(), status_code: '200' },
    'status true': { ...base, idempotency_key: randomUUID(), status_code: true },
    'status 200.5': { ...base, idempotency_key: randomUUID(), status_code: 200.5 },
    'status missing': (({ status_code: _s, ...rest }) => ({ ...rest, idempotency_key: randomUUID() }))(base),
    'count 0': { ...base, idempotency_key: randomUUID(), count: 0 },
    'count 10,000,001': { ...base, idempotency_key: randomUUID(), count: 10_000_001 },
    'count -1': { ...base, idempotency_key: randomUUID(), count: -1 },
    'count 1.5': { ...base, idempotency_key: randomUUID(), count: 1.5 },
    'count as a string': { ...base, idempotency_key: randomUUID(), count: '5' },
    'count null': { ...base, idempotency_key: randomUUID(), count: null },
    'count 2^53': { ...base, idempotency_key: randomUUID(), count: 2 ** 53 },
    // Older SDK journals keep non-UUID keys (accepted, see below); one with a space is no key at all.
    'idempotency_key neither a uuid nor an older key': { ...base, idempotency_key: 'not a uuid' },
  };
  const items = [good, ...Object.values(bad)] as { idempotency_key: unknown }[];
  const answer = await sdkRequest(t, a.api.secret, 'POST', '/sdk/v1/usage', { items });
  assert.equal(answer.status, 200, answer.text);
  const results = assertWireUsageAnswer(answer.text, items).results as { idempotency_key: string; status: string; detail?: string }[];
  assert.equal(resultFor(results as never, good.idempotency_key).status, 'accepted');
  for (const [why, item] of Object.entries(bad)) {
    const result = resultFor(results as never, item.idempotency_key as string);
    assert.equal(result.status, 'rejected', why);
    assert.ok(result.detail && result.detail.length <= 2000, `${why}: ${result.detail}`);
  }
  // Only the good item moved anything, and nothing happened at tenant B.
  const detail = await customerDetail(a.api, a.customer.id);
  assert.equal(detail.balance_micro, 1_000_000 - 7 * PRICE);
  assert.equal(detail.month_requests, 7);
  assert.equal((await customerDetail(a.api, sibling.id)).month_requests, 0);
  assert.equal((await customerDetail(b.api, b.customer.id)).month_requests, 0);
});

test('usage: the bounds of status_code (100 and 599) and count (1 and 10,000,000) are accepted', async () => {
  const x = await tenant('Bounds API');
  const patched = await x.api.owner.client.patch(`/apis/${x.api.apiId}`, { billable_status_codes: [200] });
  assert.equal(patched.status, 200, patched.text);
  const policy = customerIn((await getWireSnapshot(t, x.api.secret)).body, x.customer.id).usage_policy_id;
  const now = t.clock.now();
  const items = [usageItem(x.key.id, policy, 100, 1, now), usageItem(x.key.id, policy, 599, 10_000_000, now), usageItem(x.key.id, policy, 200, 1, now)];
  assert.deepEqual((await postWireUsage(t, x.api.secret, items)).map((r) => r.status), ['accepted', 'accepted', 'accepted']);
  const detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.month_requests, 10_000_002);
  assert.equal(detail.balance_micro, 1_000_000 - PRICE, 'only the 200 is billable');
});

test('usage: period_start must be a UTC hour: other spellings and impossible dates are rejected per item, the migrated +00:00 form is accepted', async () => {
  const x = await tenant('Period Format API');
  const now = t.clock.now();
  const hour = hourStamp(now);
  const day = hour.slice(0, 10);
  const yesterday = hourStamp(now, -24).slice(0, 10);
  const accepted = [`${day}T${hour.slice(11, 13)}:00:00+00:00`, hour, hourStamp(now, -1)];
  const rejectedForms = [
    `${day}T${hour.slice(11, 13)}:30:00Z`,
    `${day}T${hour.slice(11, 13)}:00:01Z`,
    `${day}T${hour.slice(11, 13)}:00:00`,
    `${day} ${hour.slice(11, 13)}:00:00Z`,
    `${day}T${hour.slice(11, 13)}:00:00+01:00`,
    `${day}T${hour.slice(11, 13)}:00:00z`,
    `${day}T${hour.slice(11, 13)}`,
    day,
    '',
    'yesterday',
    // Dates JavaScript would quietly move to another day: 24:00 is the next midnight.
    `${yesterday}T24:00:00Z`,
    `${day}T99:00:00Z`,
  ];
  // Day 31 of a shorter month within the age window (JavaScript reads it as the 1st of the next).
  for (let back = 0; back <= 40; back++) {
    const at = new Date(now.getTime() - back * 86_400_000);
    const daysInMonth = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
    const moved = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
    if (daysInMonth < 31 && moved.getTime() <= now.getTime()) {
      rejectedForms.push(`${at.toISOString().slice(0, 8)}31T00:00:00Z`);
      break;
    }
  }
  const good = accepted.map((p) => ({ ...usageItem(x.key.id, x.policy, 200, 1, now), period_start: p }));
  const badItems = rejectedForms.map((p) => ({ ...usageItem(x.key.id, x.policy, 200, 1, now), period_start: p }));
  const badType = { ...usageItem(x.key.id, x.policy, 200, 1, now), period_start: Math.floor(now.getTime() / 1000) };
  const results = await postWireUsage(t, x.api.secret, [...good, ...badItems, badType]);
  for (const item of good) assert.equal(resultFor(results, item.idempotency_key).status, 'accepted', item.period_start);
  for (const item of [...badItems, badType]) assert.equal(resultFor(results, item.idempotency_key).status, 'rejected', String(item.period_start));
  assert.equal((await customerDetail(x.api, x.customer.id)).month_requests, 3);
});

test('usage: idempotency keys, key ids and policy ids in upper case are the same UUIDs; the answer echoes the key as it was sent', async () => {
  const x = await tenant('Case API');
  const now = t.clock.now();
  const key = randomUUID().toUpperCase();
  const item = { ...usageItem(x.key.id.toUpperCase(), x.policy.toUpperCase(), 200, 2, now), idempotency_key: key };
  const results = await postWireUsage(t, x.api.secret, [item]);
  assert.deepEqual(results, [{ idempotency_key: key, status: 'accepted' }]);
  // The same UUID in lower case is the same item.
  const again = await postWireUsage(t, x.api.secret, [{ ...item, idempotency_key: key.toLowerCase(), api_key_id: x.key.id, usage_policy_id: x.policy }]);
  assert.deepEqual(again, [{ idempotency_key: key.toLowerCase(), status: 'duplicate' }]);
  assert.equal((await customerDetail(x.api, x.customer.id)).month_requests, 2);
});

test('usage: items that are not objects are rejected alone; the report still answers 200', async () => {
  const x = await tenant('Junk Items API');
  const good = usageItem(x.key.id, x.policy, 200, 1, t.clock.now());
  const answer = await sdkRequest(t, x.api.secret, 'POST', '/sdk/v1/usage', { items: [null, 5, 'x', [], {}, good] });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.results.length, 6);
  assert.deepEqual(answer.body.results.map((r: any) => r.status), ['rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'accepted']);
  assert.equal(answer.body.results[5].idempotency_key, good.idempotency_key);
});

test('usage: 1000 items in one report are accepted and applied', async () => {
  const x = await tenant('Thousand API');
  const now = t.clock.now();
  const items = Array.from({ length: 1000 }, (_, i) => usageItem(x.key.id, i % 2 ? x.policy : null, i % 4 === 0 ? 404 : 200, 1 + (i % 3), now));
  const results = await postWireUsage(t, x.api.secret, items);
  assert.equal(results.filter((r) => r.status === 'accepted').length, 1000);
  const requests = items.reduce((n, i) => n + i.count, 0);
  const billable = items.filter((i) => i.status_code === 200).reduce((n, i) => n + i.count, 0);
  const detail = await customerDetail(x.api, x.customer.id);
  assert.equal(detail.month_requests, requests);
  assert.equal(detail.balance_micro, 1_000_000 - billable * PRICE);
  const replay = await postWireUsage(t, x.api.secret, items);
  assert.equal(replay.filter((r) => r.status === 'duplicate').length, 1000);
});

test('usage: a report body over 1 MB is accepted', async () => {
  const x = await tenant('Big Body API');
  const now = t.clock.now();
  const items = Array.from({ length: 1000 }, () => usageItem(x.key.id, x.policy, 404, 1, now));
  // JSON whitespace between the items takes the body past 1 MB (the SDK's journal can hold larger
  // items than ours; the bound that matters is the body size).
  const raw = `{"items": [${items.map((i) => JSON.stringify(i)).join(',' + ' '.repeat(1100))}]}`;
  assert.ok(Buffer.byteLength(raw) > 1024 * 1024, `${Buffer.byteLength(raw)} bytes`);
  const answer = await sdkRequest(t, x.api.secret, 'POST', '/sdk/v1/usage', undefined, { raw, headers: { 'content-type': 'application/json' } });
  assert.equal(answer.status, 200, answer.text.slice(0, 300));
  const results = assertWireUsageAnswer(answer.text, items).results;
  assert.equal(results.filter((r: any) => r.status === 'accepted').length, 1000);
  assert.equal((await customerDetail(x.api, x.customer.id)).month_requests, 1000);
});

test('a key from a pre-2.5 SDK journal (not a UUID) is accepted once, echoed as sent, and a replay is a duplicate', async () => {
  const api = await createApi(t, { name: 'Legacy journal' }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const snapshot = await getWireSnapshot(t, api.secret);
  const policy = customerIn(snapshot.body, customer.id).usage_policy_id;
  const legacy = 'journal-2024.11:000042_Ab';
  const item = { ...usageItem(key.id, policy, 200, 3, t.clock.now()), idempotency_key: legacy };
  const first = await postWireUsage(t, api.secret, [item]);
  assert.deepEqual(first, [{ idempotency_key: legacy, status: 'accepted' }]);
  const again = await postWireUsage(t, api.secret, [item]);
  assert.deepEqual(again, [{ idempotency_key: legacy, status: 'duplicate' }]);
  assert.equal((await customerDetail(api, customer.id)).month_requests, 3);
  // Longer than 128 characters, or with other characters, is not a key any SDK wrote.
  for (const bad of ['x'.repeat(129), 'has space', 'ünïcode']) {
    const answer = await postWireUsage(t, api.secret, [{ ...item, idempotency_key: bad }]);
    assert.equal(answer[0]!.status, 'rejected', bad);
  }
});
