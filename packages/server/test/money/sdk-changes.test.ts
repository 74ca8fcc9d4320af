// GET /sdk/v1/changes and the snapshot's sync_cursor (issue 27 items 1 and 2; docs/decisions.md,
// "SDK change sequence (issue 27)"): every kind of change arrives once per answer in sequence
// order, a change committed late is not skipped, answers page, tombstones expire into 410, and two
// nodes hand out the same cursors.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { sdkChangeRetentionJob, TOMBSTONE_RETENTION_MS } from '../../src/jobs/retention.js';
import { MINUTE } from '../../src/platform/clock.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, testDatabaseKind, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, getWireSnapshot, postWireUsage, sdkRequest, sha256, usageItem, type ApiFixture } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

interface Changes {
  cursor: string;
  has_more: boolean;
  generated_at: string;
  tenant_id: string;
  tenant_status: string;
  billable_status_codes: number[];
  platform_monthly_remaining: number;
  customers: { id: string; status: string; credit_balance_micro: number; balance_seq: number; usage_policy_id: string | null; effective: { rps: number } }[];
  keys: { id: string; customer_id: string; key_hash: string }[];
  removed_keys: string[];
  removed_customers: string[];
  balances: { id: string; credit_balance_micro: number; balance_seq: number }[];
}

const LISTS = ['customers', 'keys', 'removed_keys', 'removed_customers', 'balances'] as const;

/** GET /sdk/v1/changes through `app` (node A unless told); asserts 200 and the answer's shape. */
async function changes(f: ApiFixture, since: string, options: { limit?: number; app?: TestApp } = {}): Promise<Changes> {
  const answer = await sdkRequest(options.app ?? t, f.secret, 'GET', `/sdk/v1/changes?since=${since}${options.limit ? `&limit=${options.limit}` : ''}`);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  const body = JSON.parse(answer.text) as Changes;
  assert.match(body.cursor, /^(0|[1-9][0-9]*)$/);
  assert.ok(BigInt(body.cursor) >= BigInt(since), `the cursor ${body.cursor} never goes back from ${since}`);
  assert.equal(typeof body.has_more, 'boolean');
  assert.equal(body.tenant_id, f.apiId);
  assert.ok(Array.isArray(body.billable_status_codes) && Number.isInteger(body.platform_monthly_remaining));
  for (const list of LISTS) {
    assert.ok(Array.isArray(body[list]), `${list} is an array`);
    const ids = body[list].map((x: string | { id: string }) => (typeof x === 'string' ? x : x.id));
    assert.equal(new Set(ids).size, ids.length, `each ${list} record at most once: ${JSON.stringify(ids)}`);
  }
  // A customer sent whole carries its balance: it is not repeated among the balances.
  for (const b of body.balances) assert.ok(!body.customers.some((c) => c.id === b.id), `balance of ${b.id} beside its customer`);
  for (const k of body.keys) assert.match(k.key_hash, /^[0-9a-f]{64}$/);
  return body;
}

const ids = (list: (string | { id: string })[]) => list.map((x) => (typeof x === 'string' ? x : x.id));
const empty = (c: Changes) => LISTS.every((list) => c[list].length === 0);

async function snapshotCursor(f: ApiFixture, app: TestApp = t): Promise<string> {
  const { body } = await getWireSnapshot(app, f.secret);
  const cursor = (body as { sync_cursor?: unknown }).sync_cursor;
  assert.equal(typeof cursor, 'string', 'the snapshot carries sync_cursor');
  return cursor as string;
}

test('changes: the snapshot hands out a cursor; nothing changed answers empty lists at the same cursor', async () => {
  const f = await createApi(t, { name: 'Quiet API' }, owner);
  const cursor = await snapshotCursor(f);
  const quiet = await changes(f, cursor);
  assert.ok(empty(quiet), JSON.stringify(quiet));
  assert.equal(quiet.cursor, cursor);
  assert.equal(quiet.has_more, false);
  // A second snapshot with nothing changed: the same cursor, and still the same ETag (304).
  const first = await getWireSnapshot(t, f.secret);
  const again = await sdkRequest(t, f.secret, 'GET', '/sdk/v1/snapshot', undefined, { headers: { 'if-none-match': first.etag! } });
  assert.equal(again.status, 304);
  assert.equal((first.body as { sync_cursor?: string }).sync_cursor, cursor);
});

test('changes: every kind of change arrives once, with its newest state, in the order of the sequence', async () => {
  const f = await createApi(t, { name: 'Every Kind' }, owner);
  let cursor = await snapshotCursor(f);
  const step = async (what: string, check: (c: Changes) => void) => {
    const answer = await changes(f, cursor);
    assert.ok(BigInt(answer.cursor) > BigInt(cursor), `${what}: the cursor moved`);
    assert.equal(answer.has_more, false);
    check(answer);
    // Read again from the new cursor: nothing more, nothing twice.
    const after = await changes(f, answer.cursor);
    assert.ok(empty(after), `${what}: nothing after ${answer.cursor}: ${JSON.stringify(after)}`);
    cursor = answer.cursor;
    return answer;
  };
  const start = cursor;

  const a = await createCustomer(t, f, 'Added Co');
  const added = await step('customer added', (c) => {
    assert.deepEqual(ids(c.customers), [a.id]);
    assert.deepEqual([c.keys, c.balances, c.removed_keys, c.removed_customers].map((l) => l.length), [0, 0, 0, 0]);
  });
  const policyId = added.customers[0]!.usage_policy_id;
  assert.ok(policyId, 'the new customer has a usage policy');

  const key = await createKey(f, a.id);
  await step('key added', (c) => {
    assert.deepEqual(c.keys, [{ id: key.id, customer_id: a.id, key_hash: sha256(key.key) }]);
    assert.deepEqual(ids(c.customers), []);
  });

  const credited = await f.owner.client.post(`/apis/${f.apiId}/customers/${a.id}/credit`, { amount_micro: 5_000_000, note: 'top-up' });
  assert.equal(credited.status, 200, credited.text);
  const balanceSeq = (await step('balance credited', (c) => {
    assert.deepEqual(ids(c.customers), [], 'a balance move alone sends no whole customer');
    assert.deepEqual(ids(c.balances), [a.id]);
    assert.equal(c.balances[0]!.credit_balance_micro, added.customers[0]!.credit_balance_micro + 5_000_000);
  })).balances[0]!.balance_seq;

  const results = await postWireUsage(t, f.secret, [usageItem(key.id, policyId, 200, 3, t.clock.now())]);
  assert.equal(results[0]!.status, 'accepted');
  await step('balance moved by usage', (c) => {
    assert.deepEqual(ids(c.balances), [a.id]);
    assert.ok(c.balances[0]!.balance_seq > balanceSeq, 'balance_seq grew');
  });

  const limits = await f.owner.client.put(`/apis/${f.apiId}/customers/${a.id}/limits`, { rps: 7 });
  assert.equal(limits.status, 200, limits.text);
  await step('limits changed', (c) => {
    assert.deepEqual(ids(c.customers), [a.id]);
    assert.equal(c.customers[0]!.effective.rps, 7);
    assert.notEqual(c.customers[0]!.usage_policy_id, policyId, 'a new policy');
  });

  const suspended = await f.owner.client.patch(`/apis/${f.apiId}/customers/${a.id}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  await step('status changed', (c) => {
    assert.deepEqual(ids(c.customers), [a.id]);
    assert.equal(c.customers[0]!.status, 'suspended');
  });

  const revoked = await f.owner.client.delete(`/apis/${f.apiId}/customers/${a.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  await step('key revoked', (c) => {
    assert.deepEqual(c.removed_keys, [key.id]);
    assert.deepEqual(ids(c.keys), []);
  });

  const key2 = await createKey(f, a.id, 'second');
  await step('second key', (c) => assert.deepEqual(ids(c.keys), [key2.id]));
  const removed = await f.owner.client.delete(`/apis/${f.apiId}/customers/${a.id}`);
  assert.equal(removed.status, 200, `archived, since it has keys on record: ${removed.text}`);
  await step('customer removed', (c) => {
    assert.deepEqual(c.removed_customers, [a.id]);
    assert.deepEqual(c.removed_keys, [key2.id], 'its keys were revoked with it');
    assert.deepEqual(ids(c.customers), []);
  });

  // A customer with nothing on record is deleted outright: a tombstone all the same.
  const b = await createCustomer(t, f, 'Brief Co');
  await step('customer b added', (c) => assert.deepEqual(ids(c.customers), [b.id]));
  const deleted = await f.owner.client.delete(`/apis/${f.apiId}/customers/${b.id}`);
  assert.equal(deleted.status, 204, deleted.text);
  await step('customer b deleted', (c) => assert.deepEqual(c.removed_customers, [b.id]));

  // Everything from the start in one answer: each object once, as it is now.
  const all = await changes(f, start);
  assert.equal(all.cursor, cursor);
  assert.deepEqual(ids(all.customers), []);
  assert.deepEqual(ids(all.keys), []);
  assert.deepEqual(ids(all.balances), [], 'the removed customer has no balance to follow');
  assert.deepEqual([...all.removed_keys].sort(), [key.id, key2.id].sort());
  assert.deepEqual(all.removed_customers, [a.id, b.id], 'in the order of their removal');
  // The snapshot now agrees with the cursor: it hands out the same one.
  assert.equal(await snapshotCursor(f), cursor);
});

test('changes: objects come in the order of their latest change; a customer changed twice comes once, as it is now', async () => {
  const f = await createApi(t, { name: 'Ordering' }, owner);
  const start = await snapshotCursor(f);
  const c1 = await createCustomer(t, f, 'One');
  const c2 = await createCustomer(t, f, 'Two');
  const c3 = await createCustomer(t, f, 'Three');
  // c1 changes after the others were added: it moves to the end; its credit rides along.
  for (const amount of [1_000, 2_000]) {
    const credited = await f.owner.client.post(`/apis/${f.apiId}/customers/${c1.id}/credit`, { amount_micro: amount, note: 'top-up' });
    assert.equal(credited.status, 200, credited.text);
  }
  const suspended = await f.owner.client.patch(`/apis/${f.apiId}/customers/${c1.id}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  const credited = await f.owner.client.post(`/apis/${f.apiId}/customers/${c2.id}/credit`, { amount_micro: 3_000, note: 'top-up' });
  assert.equal(credited.status, 200, credited.text);

  const all = await changes(f, start);
  assert.deepEqual(ids(all.customers), [c2.id, c3.id, c1.id]);
  const one = all.customers.find((c) => c.id === c1.id)!;
  assert.equal(one.status, 'suspended');
  assert.equal(one.credit_balance_micro, c1.balance_micro + 3_000, 'the newest balance');
  assert.deepEqual(ids(all.balances), [], 'c2 is sent whole: its balance is in it');
  assert.equal(all.customers.find((c) => c.id === c2.id)!.credit_balance_micro, c2.balance_micro + 3_000);
});

test('changes: pages of `limit` changed objects, each once, until has_more is false', async () => {
  const f = await createApi(t, { name: 'Paged' }, owner);
  const start = await snapshotCursor(f);
  const made: string[] = [];
  for (let i = 0; i < 5; i++) made.push((await createCustomer(t, f, `Paged ${i}`)).id);
  const seen: string[] = [];
  let cursor = start;
  const pages: boolean[] = [];
  for (;;) {
    const page = await changes(f, cursor, { limit: 2 });
    assert.ok(page.customers.length <= 2);
    seen.push(...ids(page.customers));
    pages.push(page.has_more);
    cursor = page.cursor;
    if (!page.has_more) break;
  }
  assert.deepEqual(seen, made, 'every customer once, in order');
  assert.deepEqual(pages, [true, true, false]);
  assert.equal(cursor, await snapshotCursor(f));
  // The bounds of limit, both sides.
  for (const limit of [1, 10_000]) assert.equal((await sdkRequest(t, f.secret, 'GET', `/sdk/v1/changes?since=${start}&limit=${limit}`)).status, 200, `limit ${limit}`);
  for (const limit of ['0', '10001', '-1', 'x']) {
    const refused = await sdkRequest(t, f.secret, 'GET', `/sdk/v1/changes?since=${start}&limit=${limit}`);
    assert.equal(refused.status, 422, `limit ${limit}: ${refused.text}`);
  }
  const one = await changes(f, start, { limit: 1 });
  assert.deepEqual([ids(one.customers), one.has_more], [[made[0]], true]);
});

test('changes: since is a cursor of this API; malformed is 422, one never handed out is 410; another API sees nothing of it', async () => {
  const f = await createApi(t, { name: 'Cursors' }, owner);
  const other = await createApi(t, { name: 'Other' }, owner);
  const cursor = await snapshotCursor(f);
  await createCustomer(t, f, 'Mine');
  for (const since of ['', 'abc', '-1', '01', '1.0', '1234567890123456']) {
    const refused = await sdkRequest(t, f.secret, 'GET', `/sdk/v1/changes?since=${encodeURIComponent(since)}`);
    assert.equal(refused.status, 422, `since ${JSON.stringify(since)}: ${refused.text}`);
  }
  assert.equal((await sdkRequest(t, f.secret, 'GET', '/sdk/v1/changes')).status, 422, 'since is required');
  // The largest cursor the pattern admits, and the counter plus one: never handed out.
  const now = await changes(f, cursor);
  for (const since of ['999999999999999', String(BigInt(now.cursor) + 1n)]) {
    const gone = await sdkRequest(t, f.secret, 'GET', `/sdk/v1/changes?since=${since}`);
    assert.equal(gone.status, 410, gone.text);
    assert.match(gone.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(JSON.parse(gone.text).type, 'urn:gatehouse:problem:cursor_expired');
  }
  // Tenant isolation: the other API's changes hold nothing of this one.
  const theirs = await changes(other, '0');
  assert.ok(!ids(theirs.customers).some((id) => ids(now.customers).includes(id)));
  assert.equal((await sdkRequest(t, null, 'GET', `/sdk/v1/changes?since=0`)).status, 401);
  assert.equal((await sdkRequest(t, 'mas_wrong', 'GET', `/sdk/v1/changes?since=0`)).status, 401);
});

test('changes: two nodes of one database hand out the same cursors and the same changes', async () => {
  const nodeB = await startTestApp({}, { sameDatabaseAs: t });
  try {
    const f = await createApi(t, { name: 'Two Nodes' }, owner);
    const start = await snapshotCursor(f);
    assert.equal(await snapshotCursor(f, nodeB), start);
    const c = await createCustomer(t, f, 'Via A');
    const key = await createKey(f, c.id);
    const [viaA, viaB] = [await changes(f, start), await changes(f, start, { app: nodeB })];
    const { generated_at: _a, ...restA } = viaA;
    const { generated_at: _b, ...restB } = viaB;
    assert.deepEqual(restB, restA);
    assert.deepEqual(ids(viaB.keys), [key.id]);
    assert.equal(await snapshotCursor(f, nodeB), viaA.cursor);
  } finally {
    await nodeB.close();
  }
});

test('changes: a change committed late is not skipped by a reader who read in between', {
  skip: testDatabaseKind === 'pglite' ? 'PGlite runs one transaction at a time: no other can commit while one is open' : false,
}, async () => {
  const f = await createApi(t, { name: 'Late Commit' }, owner);
  const x = await createCustomer(t, f, 'Slow Writer');
  const y = await createCustomer(t, f, 'Fast Writer');
  const start = await snapshotCursor(f);
  const db = t.database.db;
  // Transaction A changes x first and stays open; B changes y after it and commits first.
  let wrote!: () => void;
  let release!: () => void;
  const aWrote = new Promise<void>((resolve) => (wrote = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const a = db.transaction().execute(async (trx) => {
    await sql`update customers set status = 'suspended' where id = ${x.id}`.execute(trx);
    wrote();
    await gate;
  });
  await aWrote;
  await db.transaction().execute(async (trx) => {
    await sql`update customers set status = 'suspended' where id = ${y.id}`.execute(trx);
  });
  // A reader between the two commits sees B's change only, and moves its cursor past it.
  const between = await changes(f, start);
  assert.deepEqual(ids(between.customers), [y.id]);
  release();
  await a;
  // A's change was numbered at its commit: after the reader's cursor, so it is not skipped.
  const later = await changes(f, between.cursor);
  assert.deepEqual(ids(later.customers), [x.id]);
  assert.equal(later.customers[0]!.status, 'suspended');
  const whole = await changes(f, start);
  assert.deepEqual(ids(whole.customers), [y.id, x.id], 'in the order of the commits');
});

test('changes: deleting an API leaves nothing of its changes behind', async () => {
  const f = await createApi(t, { name: 'Deleted API' }, owner);
  const c = await createCustomer(t, f, 'Gone With It');
  await createKey(f, c.id);
  const count = async () => {
    const rows = await sql<{ n: number }>`select (select count(*) from sdk_changes where api_id = ${f.apiId}) + (select count(*) from sdk_change_counters where api_id = ${f.apiId}) + (select count(*) from sdk_change_waiting where api_id = ${f.apiId}) + (select count(*) from sdk_change_pending) as n`.execute(t.database.db);
    return Number(rows.rows[0]!.n);
  };
  assert.ok((await count()) > 0, 'the API has changes on record');
  const deleted = await f.owner.client.delete(`/apis/${f.apiId}`);
  assert.ok(deleted.status < 300, deleted.text);
  assert.equal(await count(), 0, 'its rows went with it, in the same transaction');
  assert.equal((await sdkRequest(t, f.secret, 'GET', '/sdk/v1/changes?since=0')).status, 401);
});

// Last: it moves the clock a week on.
test('changes: tombstones are kept 7 days; then a cursor from before them answers 410, and the snapshot gives a new one', async () => {
  const f = await createApi(t, { name: 'Tombstones' }, owner);
  const c = await createCustomer(t, f, 'Keyed');
  const key = await createKey(f, c.id);
  const before = await snapshotCursor(f);
  const revoked = await f.owner.client.delete(`/apis/${f.apiId}/customers/${c.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  const afterRevoke = (await changes(f, before)).cursor;
  const job = sdkChangeRetentionJob(t.clock);
  // Seven days less a minute: kept.
  t.clock.advance(TOMBSTONE_RETENTION_MS - MINUTE);
  await job.run(t.database.db);
  assert.deepEqual((await changes(f, before)).removed_keys, [key.id]);
  // Past seven days: removed, and a cursor from before it can no longer learn of the removal.
  t.clock.advance(2 * MINUTE);
  await job.run(t.database.db);
  const gone = await sdkRequest(t, f.secret, 'GET', `/sdk/v1/changes?since=${before}`);
  assert.equal(gone.status, 410, gone.text);
  assert.equal(JSON.parse(gone.text).type, 'urn:gatehouse:problem:cursor_expired');
  // A cursor at or after the removal lost nothing: still answered.
  assert.ok(empty(await changes(f, afterRevoke)));
  // The SDK reads the snapshot again and follows from its cursor; live objects' changes stay.
  const fresh = await snapshotCursor(f);
  assert.equal(fresh, afterRevoke);
  const added = await createCustomer(t, f, `Later ${randomUUID().slice(0, 4)}`);
  assert.deepEqual(ids((await changes(f, fresh)).customers), [added.id]);
});
