// Defects found in review (issue 16, item 6) on the console's money side, each pinned by a test
// that failed before its fix: a change that changes nothing writes no audit event, on every PATCH
// and PUT route of the console that had written one; a credit of 0 is refused (422), -1 and 1 apply;
// deleting a plan while a customer is being put on it keeps the foreign key (PostgreSQL); an API's
// logo can be removed; a customer can be removed: deleted without records, archived with them.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import pg from 'pg';
import type { SignedUp } from '../support/flows.js';
import { testDatabaseKind, type TestApp } from '../support/harness.js';
import { assertRefusedAt, createCustomer, createKey, fetchSnapshot, sha256, snapshotCustomer, type ApiFixture, startWithApi } from '../support/money.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithApi('Rev Owner', { name: 'Review API', preset: 'subscriptions' }));
});
after(() => t.close());

/** Every audit event of the workspace (the API's and the workspace's own), newest first. */
async function workspaceEvents() {
  const page = await owner.client.get(`/workspaces/${owner.workspaceId}/audit?limit=200`);
  assert.equal(page.status, 200, page.text);
  return page.body.events as { id: string; action: string; summary: string }[];
}

/** Asserts that `change` answers 200 and writes no audit event. */
async function assertNoEvent(label: string, change: () => Promise<{ status: number; text: string }>) {
  const before = (await workspaceEvents()).length;
  const answer = await change();
  assert.equal(answer.status, 200, `${label}: ${answer.text}`);
  const events = await workspaceEvents();
  assert.equal(events.length, before, `${label} wrote ${JSON.stringify(events.slice(0, events.length - before).map((e) => e.summary))}`);
}

/** Asserts that `change` answers 200 and writes exactly one event with `action`. */
async function assertOneEvent(label: string, action: string, change: () => Promise<{ status: number; text: string }>) {
  const before = (await workspaceEvents()).length;
  const answer = await change();
  assert.equal(answer.status, 200, `${label}: ${answer.text}`);
  const events = await workspaceEvents();
  assert.equal(events.length, before + 1, label);
  assert.equal(events[0]!.action, action, label);
}

test('PATCH of a customer that changes nothing writes no audit event; a real change still writes one', async () => {
  const customer = await createCustomer(t, api, 'Idle Co');
  const path = `/apis/${api.apiId}/customers/${customer.id}`;
  const patch = (body: Record<string, unknown>) => () => editor.client.patch(path, body);
  await assertNoEvent('{}', patch({}));
  await assertNoEvent('the same status', patch({ status: 'active' }));
  await assertNoEvent('the same notes', patch({ notes: '' }));
  await assertNoEvent('no plan, again', patch({ plan_id: null }));
  await assertOneEvent('new notes', 'customer.update', patch({ notes: 'VIP' }));
  await assertNoEvent('the same notes again', patch({ notes: 'VIP', status: 'active' }));
  const plan = await editor.client.post(`/apis/${api.apiId}/plans`, { name: 'Idle plan', price_monthly_cents: 0 });
  assert.equal(plan.status, 200, plan.text);
  await assertOneEvent('a plan by hand', 'customer.update', patch({ plan_id: plan.body.id }));
  await assertNoEvent('the same plan by hand', patch({ plan_id: plan.body.id }));
  await assertOneEvent('suspend', 'customer.suspend', patch({ status: 'suspended' }));
  const detail = await viewer.client.get(path);
  assert.equal(detail.body.notes, 'VIP');
  assert.equal(detail.body.plan_id, plan.body.id);
  assert.equal(detail.body.status, 'suspended');
});

test('PUT of the limits a customer already has writes no audit event and no new usage policy', async () => {
  const customer = await createCustomer(t, api, 'Limits Co');
  const path = `/apis/${api.apiId}/customers/${customer.id}/limits`;
  const policyOf = async () => (await t.services.customers.findRow(t.services.db, api.apiId, customer.id))!.usage_policy_id;
  const policy = await policyOf();
  await assertNoEvent('{} without custom limits', () => editor.client.put(path, {}));
  await assertNoEvent('all null without custom limits', () => editor.client.put(path, { rps: null, monthly_quota: null, price_per_request_micro: null }));
  assert.equal(await policyOf(), policy, 'no new policy');
  await assertOneEvent('a custom rps', 'customer.limits', () => editor.client.put(path, { rps: 7 }));
  await assertNoEvent('the same rps', () => editor.client.put(path, { rps: 7, monthly_quota: null }));
  // {} on a customer with custom limits is a change: it removes them.
  await assertOneEvent('{} with custom limits', 'customer.limits', () => editor.client.put(path, {}));
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.custom_limits, false);
});

test('PATCH of a plan that changes nothing writes no audit event', async () => {
  const created = await editor.client.post(`/apis/${api.apiId}/plans`, { name: 'Still plan', price_monthly_cents: 500, rps: 5 });
  assert.equal(created.status, 200, created.text);
  const path = `/apis/${api.apiId}/plans/${created.body.id}`;
  await assertNoEvent('{}', () => editor.client.patch(path, {}));
  await assertNoEvent('the same fields', () => editor.client.patch(path, { name: ' Still plan ', price_monthly_cents: 500, rps: 5, visibility: 'public', active: true }));
  await assertOneEvent('a new price', 'plan.update', () => editor.client.patch(path, { price_monthly_cents: 600, rps: 5 }));
  const events = await workspaceEvents();
  assert.equal(events[0]!.summary, 'Changed price_monthly_cents of plan Still plan', 'only what changed is named');
});

test('the same logo, workspace name or member role again writes no audit event', async () => {
  const logo = () => editor.client.put(`/apis/${api.apiId}/logo`, { logo_url: 'https://cdn.example/logo.png' });
  await assertOneEvent('a logo', 'api.logo', logo);
  await assertNoEvent('the same logo', logo);
  const rename = () => owner.client.patch(`/workspaces/${owner.workspaceId}`, { name: 'Review workspace' });
  await assertOneEvent('a name', 'workspace.rename', rename);
  await assertNoEvent('the same name', rename);
  const role = () => owner.client.put(`/workspaces/${owner.workspaceId}/members/${viewer.userId}/role`, { role: 'viewer' });
  await assertNoEvent('the role they have', role);
  await assertNoEvent('the same API settings', () => editor.client.patch(`/apis/${api.apiId}`, { name: 'Review API' }));
});

test('a credit of 0 micro units is refused naming the field and changes nothing; -1 and 1 apply', async () => {
  const customer = await createCustomer(t, api, 'Credit Co');
  const credit = (amount: number, ref?: string) => editor.client.post(`/apis/${api.apiId}/customers/${customer.id}/credit`, { amount_micro: amount, note: 'review', ...(ref ? { ref } : {}) });
  const ledger = async () => (await viewer.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}`)).body.entries as unknown[];
  const start = await snapshotCustomer(api, customer.id);
  const entries = (await ledger()).length;
  const events = (await workspaceEvents()).length;
  for (const ref of [undefined, 'zero-ref']) {
    const zero = await credit(0, ref);
    assertRefusedAt(zero, 'body.amount_micro');
    assert.match(zero.body.errors[0].message, /must not be 0/);
  }
  const still = await snapshotCustomer(api, customer.id);
  assert.equal(still.credit_balance_micro, start.credit_balance_micro);
  assert.equal(still.balance_seq, start.balance_seq, 'balance_seq does not move');
  assert.equal((await ledger()).length, entries, 'no ledger entry');
  assert.equal((await workspaceEvents()).length, events, 'no audit event');
  // The refused ref was never used: a real credit with it applies.
  const one = await credit(1, 'zero-ref');
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.body, { applied: true, balance_micro: start.credit_balance_micro + 1 });
  const minusOne = await credit(-1);
  assert.equal(minusOne.status, 200, minusOne.text);
  assert.deepEqual(minusOne.body, { applied: true, balance_micro: start.credit_balance_micro });
  const end = await snapshotCustomer(api, customer.id);
  assert.equal(end.balance_seq, start.balance_seq + 2);
  assert.equal((await ledger()).length, entries + 2);
});

/** A connection of its own to the test's schema, beside the app's pool. */
async function sideConnection() {
  const schema = (await t.services.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('schema')).executeTakeFirstOrThrow()).schema;
  const client = new pg.Client({ connectionString: t.databaseUrl! });
  await client.connect();
  await client.query(`set search_path to ${schema}`);
  return client;
}

/** Waits until `count` backends wait, directly or behind one another, on the backend `holder`. */
async function waitForWaiters(observer: pg.Client, holder: number, count: number, settled: () => boolean) {
  for (let tries = 0; tries < 600; tries++) {
    const { rows } = await observer.query(
      `with w as (select pid, pg_blocking_pids(pid) as by from pg_stat_activity where datname = current_database())
       select count(*)::int as n from w where $1 = any(w.by) or exists (select 1 from w d where $1 = any(d.by) and d.pid = any(w.by))`,
      [holder],
    );
    if (rows[0].n >= count || settled()) return;
    await sleep(50);
  }
  assert.fail(`${count} backends never waited on ${holder}`);
}

test('deleting a plan while a customer is being put on it: the delete waits and deactivates, the foreign key holds (PostgreSQL)', { skip: testDatabaseKind !== 'postgres' && 'needs concurrent connections' }, async () => {
  const plan = (await editor.client.post(`/apis/${api.apiId}/plans`, { name: 'Contended plan', price_monthly_cents: 100 })).body as { id: string };
  const customer = await createCustomer(t, api, 'Contended Co');
  const holder = await sideConnection();
  const observer = await sideConnection();
  try {
    // Another transaction holds the plan row, so both requests stop at it, the assignment first:
    // before the fix the assignment read the plan unlocked and waited only in its foreign key check,
    // while the delete counted no subscribers and then failed its own foreign key check (500).
    await holder.query('begin');
    await holder.query('select id from plans where id = $1 for update', [plan.id]);
    const holderPid = (await holder.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    let settled = 0;
    const assigning = editor.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: plan.id }).finally(() => settled++);
    await waitForWaiters(observer, holderPid, 1, () => settled > 0);
    const deleting = editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`).finally(() => settled++);
    await waitForWaiters(observer, holderPid, 2, () => settled > 1);
    await holder.query('commit');
    const [assigned, deleted] = await Promise.all([assigning, deleting]);
    assert.equal(assigned.status, 200, assigned.text);
    assert.equal(deleted.status, 200, `the plan has a subscriber now, so it is deactivated: ${deleted.text}`);
    assert.equal(deleted.body.active, false);
    assert.equal(deleted.body.subscribers, 1);
    assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.plan_id, plan.id);
  } finally {
    await holder.end();
    await observer.end();
  }
});

test('assignments and deletions of plans at once never answer 5xx and leave every customer on an existing plan', async () => {
  const rounds = await Promise.all(Array.from({ length: 6 }, async (_, i) => {
    const plan = (await editor.client.post(`/apis/${api.apiId}/plans`, { name: `Raced plan ${i}`, price_monthly_cents: 100 })).body as { id: string };
    const customer = await createCustomer(t, api, `Raced Co ${i}`);
    const [assigned, deleted] = await Promise.all([
      editor.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: plan.id }),
      editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`),
    ]);
    return { plan, customer, assigned, deleted };
  }));
  const plans = (await viewer.client.get(`/apis/${api.apiId}/plans`)).body.plans as { id: string; active: boolean }[];
  for (const { plan, customer, assigned, deleted } of rounds) {
    assert.ok([200, 422].includes(assigned.status), `assignment: ${assigned.status} ${assigned.text}`);
    assert.ok([200, 204].includes(deleted.status), `deletion: ${deleted.status} ${deleted.text}`);
    const onPlan = (await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.plan_id;
    if (assigned.status === 200) {
      // Assigned first: the deletion saw the subscriber and only deactivated the plan.
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal(onPlan, plan.id);
      assert.equal(plans.find((p) => p.id === plan.id)?.active, false);
    } else {
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal(onPlan, undefined);
      assert.equal(plans.find((p) => p.id === plan.id), undefined);
    }
  }
});

test('an API logo can be removed with logo_url null; removing it again writes nothing', async () => {
  const path = `/apis/${api.apiId}/logo`;
  await assertOneEvent('a logo', 'api.logo', () => editor.client.put(path, { logo_url: 'https://cdn.example/removable.png' }));
  const removed = await editor.client.put(path, { logo_url: null });
  assert.equal(removed.status, 200, removed.text);
  assert.equal(removed.body.logo_url, undefined, 'no logo_url in ApiOut');
  const events = await workspaceEvents();
  assert.equal(events[0]!.action, 'api.logo');
  assert.match(events[0]!.summary, /^Removed the logo of /);
  await assertNoEvent('no logo, again', () => editor.client.put(path, { logo_url: null }));
  const listed = (await viewer.client.get(`/workspaces/${owner.workspaceId}/apis`)).body;
  assert.equal((listed.apis ?? listed).find((a: { id: string }) => a.id === api.apiId).logo_url, undefined);
  for (const logo_url of ['', 'http://cdn.example/logo.png', 'not a url']) assertRefusedAt(await editor.client.put(path, { logo_url }), 'body.logo_url');
  assertRefusedAt(await editor.client.put(path, {}), 'body.logo_url');
  assert.equal((await viewer.client.put(path, { logo_url: null })).status, 403);
});

const customerPath = (id: string) => `/apis/${api.apiId}/customers/${id}`;
const listIds = async (query = '') => ((await viewer.client.get(`/apis/${api.apiId}/customers?limit=200${query}`)).body.customers as { id: string }[]).map((c) => c.id);

test('a customer with nothing but its welcome credit on record is deleted (204) with everything of it', async () => {
  const customer = await createCustomer(t, api, 'Mistake Co');
  assert.equal((await viewer.client.delete(customerPath(customer.id))).status, 403, 'a viewer cannot');
  const before = (await workspaceEvents()).length;
  const removed = await editor.client.delete(customerPath(customer.id));
  assert.equal(removed.status, 204, removed.text);
  assert.equal((await viewer.client.get(customerPath(customer.id))).status, 404);
  assert.equal((await editor.client.delete(customerPath(customer.id))).status, 404);
  assert.ok(!(await listIds()).includes(customer.id));
  assert.ok(!(await listIds('&archived=true')).includes(customer.id));
  assert.ok(!(await fetchSnapshot(api)).customers.some((c) => c.id === customer.id));
  const ledger = (await viewer.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}`)).body.entries;
  assert.deepEqual(ledger, []);
  const events = await workspaceEvents();
  assert.equal(events.length, before + 1);
  assert.equal(events[0]!.action, 'customer.delete');
  assert.match(events[0]!.summary, /^Deleted customer Mistake Co </);
});

test('a customer with a key, or credit, on record is archived: hidden, out of the snapshot, keys refused, read-only, ledger kept', async () => {
  const keyed = await createCustomer(t, api, 'Keyed Co');
  const key = await createKey(api, keyed.id);
  const credited = await createCustomer(t, api, 'Credited Co');
  assert.equal((await editor.client.post(`${customerPath(credited.id)}/credit`, { amount_micro: 5, note: 'goodwill' })).status, 200);
  for (const [customer, kept] of [[keyed, /keys/], [credited, /ledger entries/]] as const) {
    const removed = await editor.client.delete(customerPath(customer.id));
    assert.equal(removed.status, 200, removed.text);
    assert.ok(removed.body.archived_at, 'archived_at is set');
    assert.deepEqual(removed.body.keys, [], 'its keys are revoked');
    const events = await workspaceEvents();
    assert.equal(events[0]!.action, 'customer.archive');
    assert.match(events[0]!.summary, kept);
    // Hidden from the list by default, listed with archived=true, still readable by id.
    assert.ok(!(await listIds()).includes(customer.id));
    assert.ok((await listIds('&archived=true')).includes(customer.id));
    assert.equal((await viewer.client.get(customerPath(customer.id))).body.archived_at, removed.body.archived_at);
    // Read-only: changes answer 409; removing it again changes nothing.
    for (const [method, path, body] of [
      ['PATCH', customerPath(customer.id), { notes: 'late' }],
      ['PUT', `${customerPath(customer.id)}/limits`, { rps: 1 }],
      ['POST', `${customerPath(customer.id)}/keys`, { name: 'late' }],
      ['POST', `${customerPath(customer.id)}/credit`, { amount_micro: 1, note: 'late' }],
    ] as const) {
      const answer = await editor.client.request(method, path, body);
      assert.equal(answer.status, 409, `${method} ${path}: ${answer.text}`);
      assert.equal(answer.body.type, 'urn:gatehouse:problem:customer_state');
    }
    await assertNoEvent('archiving again', () => editor.client.delete(customerPath(customer.id)));
  }
  // The SDK no longer sees the customer nor its key, and the key's hash is not valid.
  const snapshot = await fetchSnapshot(api);
  assert.ok(!snapshot.customers.some((c) => c.id === keyed.id || c.id === credited.id));
  assert.ok(!snapshot.keys.some((k) => k.id === key.id));
  const verify = await api.sdk.get(`/sdk/v1/keys/verify?key_hash=${sha256(key.key)}`);
  assert.equal(verify.status, 200, verify.text);
  assert.equal(verify.body.valid, false);
  // Its ledger is kept.
  const ledger = (await viewer.client.get(`/apis/${api.apiId}/ledger?customer_id=${credited.id}`)).body.entries as { kind: string }[];
  assert.ok(ledger.some((e) => e.kind === 'credit'));
});

test('the test customer is neither deleted nor archived', async () => {
  const testKey = await editor.client.post(`/apis/${api.apiId}/test-key`);
  assert.equal(testKey.status, 200, testKey.text);
  const answer = await editor.client.delete(customerPath(testKey.body.customer_id));
  assert.equal(answer.status, 409, answer.text);
  assert.equal(answer.body.type, 'urn:gatehouse:problem:customer_state');
});
