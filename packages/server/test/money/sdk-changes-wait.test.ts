// Long polling of GET /sdk/v1/changes and the balances of usage acknowledgements (issue 27;
// docs/decisions.md, "Long polling" and "Usage acknowledgements carry balances"): a wait is woken
// by a change committed on another node, ends with the empty page at the same cursor, is bounded
// both sides, and is released by a client that hangs up and by shutdown. Clock-free: each test
// awaits the answer after making the change, or the waiter's registration, never a duration.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ChangeFeed } from '../../src/platform/db/change-feed.js';
import { ChangeWaiters, SDK_CHANGES_TAG } from '../../src/sdk-sync/waiters.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, getWireSnapshot, sdkRequest, usageItem, type ApiFixture } from '../support/money.js';

let t: TestApp;
let nodeB: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  nodeB = await startTestApp({}, { sameDatabaseAs: t });
  owner = await signUp(t);
});
after(async () => {
  await nodeB.close();
  await t.close();
});

interface Changes {
  cursor: string;
  has_more: boolean;
  customers: { id: string; usage_policy_id: string | null; balance_seq: number; credit_balance_micro: number }[];
  keys: { id: string }[];
  removed_keys: string[];
  removed_customers: string[];
  balances: { id: string; credit_balance_micro: number; balance_seq: number }[];
}

async function snapshotOf(f: ApiFixture, app: TestApp = t) {
  const { body } = await getWireSnapshot(app, f.secret);
  return body as unknown as { sync_cursor: string; customers: { id: string; balance_seq: number; credit_balance_micro: number; usage_policy_id: string | null }[] };
}

function changesUrl(since: string, wait?: number | string) {
  return `/sdk/v1/changes?since=${since}${wait !== undefined ? `&wait=${wait}` : ''}`;
}

async function changes(app: TestApp, f: ApiFixture, since: string, wait?: number) {
  const answer = await sdkRequest(app, f.secret, 'GET', changesUrl(since, wait));
  assert.equal(answer.status, 200, answer.text);
  return JSON.parse(answer.text) as Changes;
}

/** Resolves once `app` holds `n` waiting long polls: the wait has begun (no clock involved). */
async function waitersReach(app: TestApp, n: number) {
  while (app.services.sdkWaiters.size !== n) await new Promise((resolve) => setImmediate(resolve));
}

async function customerWithKey(f: ApiFixture) {
  const c = await createCustomer(t, f, `Waiting ${randomUUID().slice(0, 6)}`);
  const key = await createKey(f, c.id);
  const snapshot = await snapshotOf(f);
  const policyId = snapshot.customers.find((x) => x.id === c.id)!.usage_policy_id!;
  return { customer: c, key, policyId, cursor: snapshot.sync_cursor };
}

test('long poll: a change committed on the other node wakes a waiter on this one', async () => {
  const f = await createApi(t, { name: 'Long Poll' }, owner);
  const { customer, key, policyId, cursor } = await customerWithKey(f);
  const waiting = changes(t, f, cursor, 30);
  await waitersReach(t, 1);
  // Usage reported through node B moves the balance; node A's waiter answers with it.
  const posted = await sdkRequest(nodeB, f.secret, 'POST', '/sdk/v1/usage', { items: [usageItem(key.id, policyId, 200, 2, t.clock.now())] });
  assert.equal(posted.status, 200, posted.text);
  const answer = await waiting;
  assert.deepEqual(answer.balances.map((b) => b.id), [customer.id]);
  assert.notEqual(answer.cursor, cursor);
  assert.equal(t.services.sdkWaiters.size, 0, 'the waiter left');
  // A revoked key on node A wakes a waiter on node B.
  const waitingB = changes(nodeB, f, answer.cursor, 30);
  await waitersReach(nodeB, 1);
  const revoked = await f.owner.client.delete(`/apis/${f.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  assert.deepEqual((await waitingB).removed_keys, [key.id]);
});

test('long poll: a change already there answers at once; a wait that ends answers the empty page at the same cursor', async () => {
  const f = await createApi(t, { name: 'Long Poll Ends' }, owner);
  const { customer, cursor } = await customerWithKey(f);
  const credited = await f.owner.client.post(`/apis/${f.apiId}/customers/${customer.id}/credit`, { amount_micro: 1_000, note: 'top-up' });
  assert.equal(credited.status, 200, credited.text);
  const ready = await changes(t, f, cursor, 30);
  assert.deepEqual(ready.balances.map((b) => b.id), [customer.id]);
  // Nothing above the cursor: held for the second asked, then the empty page.
  const quiet = await changes(t, f, ready.cursor, 1);
  assert.equal(quiet.cursor, ready.cursor);
  assert.equal(quiet.has_more, false);
  for (const list of [quiet.customers, quiet.keys, quiet.removed_keys, quiet.removed_customers, quiet.balances]) assert.equal(list.length, 0);
  // wait=0 is the plain read.
  assert.equal((await changes(t, f, ready.cursor, 0)).cursor, ready.cursor);
});

test('long poll: wait is an integer from 0 to 30', async () => {
  const f = await createApi(t, { name: 'Wait Bounds' }, owner);
  const { cursor } = await customerWithKey(f);
  for (const wait of ['-1', '31', '1.5', 'soon', '']) {
    const answer = await sdkRequest(t, f.secret, 'GET', changesUrl(cursor, wait));
    assert.equal(answer.status, 422, `wait=${wait}: ${answer.text}`);
  }
  // 30 is taken: the waiter is woken by a change (and 0 answered above).
  const waiting = changes(t, f, cursor, 30);
  await waitersReach(t, 1);
  await createCustomer(t, f, 'Wakes It');
  assert.equal((await waiting).customers.length, 1);
});

test('long poll: a client that hangs up leaves its place; shutdown answers every waiter at once', async () => {
  const f = await createApi(t, { name: 'Hang Up' }, owner);
  const { cursor } = await customerWithKey(f);
  const abort = new AbortController();
  const hungUp = fetch(`${t.url}${changesUrl(cursor, 30)}`, { headers: { authorization: `Bearer ${f.secret}` }, signal: abort.signal }).catch((error: Error) => error);
  await waitersReach(t, 1);
  abort.abort();
  assert.ok((await hungUp) instanceof Error);
  await waitersReach(t, 0);

  const nodeC = await startTestApp({}, { sameDatabaseAs: t });
  const waiting = changes(nodeC, f, cursor, 30);
  await waitersReach(nodeC, 1);
  const closed = nodeC.close();
  const answer = await waiting;
  await closed;
  assert.equal(answer.cursor, cursor, 'the empty page at the same cursor');
});

test('long poll: waiters are bounded per API and per node, and a place is given back', () => {
  const feed = new ChangeFeed();
  const waiters = new ChangeWaiters(feed, { perApi: 2, total: 3 });
  const a1 = waiters.enter('api_a')!;
  const a2 = waiters.enter('api_a')!;
  assert.ok(a1 && a2);
  assert.equal(waiters.enter('api_a'), null, 'a third waiter of one API is refused');
  const b1 = waiters.enter('api_b')!;
  assert.ok(b1);
  assert.equal(waiters.enter('api_c'), null, 'a fourth waiter of the node is refused');
  a1.leave();
  a1.leave();
  assert.equal(waiters.size, 2, 'leaving twice gives one place back');
  assert.ok(waiters.enter('api_a'), 'the place is taken again');
});

test('long poll: a notification of the API wakes its waiters only', async () => {
  const feed = new ChangeFeed();
  const waiters = new ChangeWaiters(feed);
  const a = waiters.enter('api_a')!;
  const b = waiters.enter('api_b')!;
  // A notification that came before the wait began is not lost (taken before the read).
  feed.apply([`${SDK_CHANGES_TAG}api_a`]);
  await a.until(60_000);
  let bWoken = false;
  const bWait = b.until(60_000).then(() => (bWoken = true));
  feed.apply([`${SDK_CHANGES_TAG}api_a`, 'api:api_b']);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(bWoken, false, 'another API and another tag do not wake it');
  waiters.close();
  await bWait;
  assert.ok(b.closing);
});

test('usage acknowledgements carry the balance of every customer an accepted or duplicate item names', async () => {
  const f = await createApi(t, { name: 'Ack Balances' }, owner);
  const one = await customerWithKey(f);
  const two = await customerWithKey(f);
  const items = [usageItem(one.key.id, one.policyId, 200, 3, t.clock.now()), usageItem(two.key.id, two.policyId, 200, 1, t.clock.now())];
  const unknown = usageItem(randomUUID(), null, 200, 1, t.clock.now());
  const answer = await sdkRequest(t, f.secret, 'POST', '/sdk/v1/usage', { items: [...items, unknown] });
  assert.equal(answer.status, 200, answer.text);
  const body = JSON.parse(answer.text) as { results: { status: string }[]; balances: { id: string; credit_balance_micro: number; balance_seq: number }[] };
  assert.deepEqual(Object.keys(body), ['results', 'balances'], 'results first, as before');
  assert.deepEqual(body.results.map((r) => r.status), ['accepted', 'accepted', 'rejected']);
  const snapshot = await snapshotOf(f);
  const expected = (id: string) => {
    const c = snapshot.customers.find((x) => x.id === id)!;
    return { id, credit_balance_micro: c.credit_balance_micro, balance_seq: c.balance_seq };
  };
  assert.deepEqual([...body.balances].sort((a, b) => (a.id < b.id ? -1 : 1)), [expected(one.customer.id), expected(two.customer.id)].sort((a, b) => (a.id < b.id ? -1 : 1)));
  // Sent again (a lost acknowledgement): duplicates, and the balances as they are now.
  const again = JSON.parse((await sdkRequest(t, f.secret, 'POST', '/sdk/v1/usage', { items: [items[0]] })).text) as typeof body;
  assert.deepEqual(again.results.map((r) => r.status), ['duplicate']);
  assert.deepEqual(again.balances, [expected(one.customer.id)]);
  // Nothing applied, nothing named.
  const none = JSON.parse((await sdkRequest(t, f.secret, 'POST', '/sdk/v1/usage', { items: [unknown] })).text) as typeof body;
  assert.deepEqual(none.balances, []);
});
