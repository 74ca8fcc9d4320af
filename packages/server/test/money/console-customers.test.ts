// Customers of an API: adding them (bounds), the welcome credit, listing with a stable cursor,
// filters and search, effective limits (custom > plan > API default), status changes, notes and
// plans assigned by hand (spec 2.2 CustomerSummary, CustomerDetail, Effective; DESIGN 6 and 7).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, createCustomer, createPendingCustomer, fetchSnapshot, snapshotCustomer, type ApiFixture, startWithApi } from '../support/money.js';
import { emailOfLength, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithApi('Cy Owner', { name: 'Customer API', preset: 'payg' }));
});
after(() => t.close());

const DETAIL_REQUIRED = [
  'notes', 'plan_source', 'effective', 'custom', 'auto_recharge', 'members', 'keys',
  'id', 'name', 'email', 'status', 'is_test', 'balance_micro', 'month_requests', 'custom_limits', 'created_at',
];

const add = (body: Record<string, unknown>, client = editor.client, on = api) => client.post(`/apis/${on.apiId}/customers`, body);
const detail = async (id: string, on = api) => {
  const answer = await viewer.client.get(`/apis/${on.apiId}/customers/${id}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
};
const update = (id: string, body: Record<string, unknown>, client = editor.client, on = api) => client.patch(`/apis/${on.apiId}/customers/${id}`, body);
const limits = (id: string, body: Record<string, unknown>, on = api) => editor.client.put(`/apis/${on.apiId}/customers/${id}/limits`, body);

test('an editor adds a customer: every CustomerDetail field, active, its e-mail in lowercase', async () => {
  const created = await add({ name: '  Acme Corp  ', email: 'Billing@Acme.TEST' });
  assert.equal(created.status, 200, created.text);
  const body = created.body;
  for (const field of DETAIL_REQUIRED) assert.ok(field in body, `CustomerDetail.${field}`);
  assert.match(body.id, /^cus_/);
  assert.equal(body.name, 'Acme Corp');
  assert.equal(body.email, 'billing@acme.test');
  assert.equal(body.status, 'active');
  assert.equal(body.is_test, false);
  assert.equal(body.month_requests, 0);
  assert.equal(body.custom_limits, false);
  assert.equal(body.plan_source, '');
  assert.equal(body.notes, '');
  assert.deepEqual(body.keys, []);
  assert.deepEqual(body.custom, { monthly_quota: null, price_per_request_micro: null, rps: null });
  assert.deepEqual(Object.keys(body.auto_recharge).sort(), ['amount_cents', 'enabled', 'has_card', 'threshold_micro']);
  assert.deepEqual(await detail(body.id), body);
});

test('a customer name is 1 to 100 characters; empty, blank and 101 are refused', async () => {
  for (const name of ['A', 'n'.repeat(100)]) {
    const created = await add({ name, email: `name-${name.length}@acme.test` });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.name, name);
  }
  for (const name of ['', '   ', 'n'.repeat(101)]) assertRefusedAt(await add({ name, email: 'x@acme.test' }), 'body.name');
  assertRefusedAt(await add({ email: 'x@acme.test' }), 'body.name');
});

test('a customer e-mail must be an address of at most 254 characters', async () => {
  const longest = emailOfLength(254);
  const created = await add({ name: 'Long Mail', email: longest });
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.email, longest.toLowerCase());
  for (const email of [emailOfLength(255), 'not-an-address', 'two@@acme.test', '']) assertRefusedAt(await add({ name: 'Bad Mail', email }), 'body.email');
  assertRefusedAt(await add({ name: 'No Mail' }), 'body.email');
  assertRefusedAt(await add({ name: 'Extra', email: 'extra@acme.test', status: 'pending' }), 'body.status');
});

test('the welcome credit becomes a welcome ledger entry and the starting balance', async () => {
  const customer = await createCustomer(t, api, 'Welcome Co');
  assert.equal(customer.balance_micro, 1_000_000);
  const ledger = await viewer.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}`);
  assert.equal(ledger.status, 200, ledger.text);
  assert.equal(ledger.body.entries.length, 1);
  assert.equal(ledger.body.entries[0].kind, 'welcome');
  assert.equal(ledger.body.entries[0].amount_micro, 1_000_000);
  assert.equal((await snapshotCustomer(api, customer.id)).credit_balance_micro, 1_000_000);
  // A changed welcome credit applies to customers added afterwards; none means no entry.
  const other = await createApi(t, { name: 'Welcome Variants', preset: 'payg' }, owner);
  assert.equal((await owner.client.patch(`/apis/${other.apiId}`, { welcome_credit_micro: 2_500_000 })).status, 200);
  assert.equal((await createCustomer(t, other, 'Bigger Welcome')).balance_micro, 2_500_000);
  assert.equal((await owner.client.patch(`/apis/${other.apiId}`, { welcome_credit_micro: 0 })).status, 200);
  const none = await createCustomer(t, other, 'No Welcome');
  assert.equal(none.balance_micro, 0);
  const noEntries = await owner.client.get(`/apis/${other.apiId}/ledger?customer_id=${none.id}`);
  assert.deepEqual(noEntries.body.entries, []);
});

test('the list pages newest first with a cursor that stays stable while customers are added', async () => {
  const paged = await createApi(t, { name: 'Paging API' }, owner);
  const original: string[] = [];
  for (let i = 1; i <= 7; i++) original.push((await createCustomer(t, paged, `Paged ${i}`)).id);
  const page = (query: string) => viewer.client.get(`/apis/${paged.apiId}/customers?${query}`);
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const answer = await page(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(answer.status, 200, answer.text);
    seen.push(...answer.body.customers.map((c: { id: string }) => c.id));
    cursor = answer.body.next_cursor;
    pages++;
    // Customers added between pages are newer than the cursor: they never shift a later page.
    await createCustomer(t, paged, `Added after page ${pages}`);
  } while (cursor);
  assert.equal(pages, 3);
  assert.deepEqual(seen, [...original].reverse(), 'each customer once, newest first, no gaps');
  // The newcomers lead the next listing.
  const fresh = await page('limit=3');
  assert.deepEqual(fresh.body.customers.map((c: { name: string }) => c.name), ['Added after page 3', 'Added after page 2', 'Added after page 1']);
  // limit is 1..200.
  for (const limit of [1, 200]) assert.equal((await page(`limit=${limit}`)).status, 200, `limit=${limit}`);
  assert.equal((await page('limit=1')).body.customers.length, 1);
  assert.equal((await page('limit=200')).body.next_cursor, undefined);
  for (const limit of ['0', '201', '-1', 'ten']) assertRefusedAt(await page(`limit=${limit}`), 'query.limit');
  for (const bad of ['garbage', Buffer.from('2026-01-01|cus_x').toString('base64url'), 'x'.repeat(201)]) assertRefusedAt(await page(`cursor=${bad}`), 'query.cursor');
});

test('the list filters by status and searches names and e-mail addresses', async () => {
  const searched = await createApi(t, { name: 'Search API' }, owner);
  const quokka = await createCustomer(t, searched, 'Quokka Labs', 'ops@alpha.test');
  const beta = await createCustomer(t, searched, 'Beta Works', 'billing@quokka-mail.test');
  const plain = await createCustomer(t, searched, 'Plain 100%', 'plain@gamma.test');
  const pending = await createPendingCustomer(t, searched, 'Waiting Ltd');
  assert.equal((await update(beta.id, { status: 'suspended' }, editor.client, searched)).status, 200);
  const ids = async (query: string) => {
    const answer = await viewer.client.get(`/apis/${searched.apiId}/customers?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.customers.map((c: { id: string }) => c.id).sort();
  };
  assert.deepEqual(await ids('status=suspended'), [beta.id]);
  assert.deepEqual(await ids('status=pending'), [pending.id]);
  assert.deepEqual(await ids('status=active'), [quokka.id, plain.id].sort());
  assertRefusedAt(await viewer.client.get(`/apis/${searched.apiId}/customers?status=deleted`), 'query.status');
  assert.deepEqual(await ids('q=quokka'), [quokka.id, beta.id].sort(), 'by name and by e-mail');
  assert.deepEqual(await ids('q=QUOKKA%20LABS'), [quokka.id], 'case does not matter');
  assert.deepEqual(await ids('q=alpha.test'), [quokka.id], 'by e-mail');
  assert.deepEqual(await ids('q=100%25'), [plain.id], 'a % is a character, not a wildcard');
  assert.deepEqual(await ids('q=%25'), [plain.id]);
  assert.deepEqual(await ids('q=_'), [], 'an _ is a character, not a wildcard');
  assert.deepEqual(await ids('q=quokka&status=suspended'), [beta.id], 'filters combine');
  assert.deepEqual(await ids('q=nobody'), []);
});

test('effective limits take the custom value, else the plan, else the API default, per field', async () => {
  const customer = await createCustomer(t, api, 'Limits Co');
  const plan = await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 4_900, rps: 50, monthly_quota: 500 });
  assert.equal(plan.status, 200, plan.text);
  // API defaults (payg preset): price 1000, rps 10, quota 0 (none, so not shown).
  let body = await detail(customer.id);
  assert.deepEqual(body.effective, { rps: 10, price_per_request_micro: 1_000, source: 'payg', billing_model: 'payg' });
  // A plan: its non-null fields win; its null price falls back to the API's.
  body = (await update(customer.id, { plan_id: plan.body.id })).body;
  assert.equal(body.plan_source, 'manual');
  assert.equal(body.plan_id, plan.body.id);
  assert.equal(body.plan_name, 'Pro');
  assert.deepEqual(body.effective, { rps: 50, price_per_request_micro: 1_000, monthly_quota: 500, source: 'plan', billing_model: 'subscription' });
  // A custom value wins over the plan for its field only.
  body = (await limits(customer.id, { rps: 7 })).body;
  assert.equal(body.custom_limits, true);
  assert.deepEqual(body.custom, { monthly_quota: null, price_per_request_micro: null, rps: 7 });
  assert.deepEqual(body.effective, { rps: 7, price_per_request_micro: 1_000, monthly_quota: 500, source: 'custom', billing_model: 'subscription' });
  // A custom quota of 0 means none; a custom price of 0 is free.
  body = (await limits(customer.id, { price_per_request_micro: 0, monthly_quota: 0 })).body;
  assert.deepEqual(body.effective, { rps: 50, price_per_request_micro: 0, source: 'custom', billing_model: 'subscription' });
  // The snapshot carries the same terms.
  const wire = await snapshotCustomer(api, customer.id);
  assert.equal(wire.effective.rps, 50);
  assert.equal(wire.effective.price_per_request_micro, 0);
  assert.equal(wire.effective.billing_model, 'subscription');
  // Without a plan and with a price of 0 nothing is billed.
  body = (await update(customer.id, { plan_id: null })).body;
  assert.equal(body.plan_source, '');
  assert.equal(body.plan_id, undefined);
  assert.deepEqual(body.effective, { rps: 10, price_per_request_micro: 0, source: 'custom', billing_model: 'none' });
  // No custom values left: back to the API's.
  body = (await limits(customer.id, {})).body;
  assert.equal(body.custom_limits, false);
  assert.deepEqual(body.effective, { rps: 10, price_per_request_micro: 1_000, source: 'payg', billing_model: 'payg' });
  // An API without a price bills nothing, until a customer is given a price.
  const free = await createApi(t, { name: 'Free Limits', preset: 'free' }, owner);
  const freeCustomer = await createCustomer(t, free, 'Free Rider');
  assert.deepEqual(freeCustomer.balance_micro, 0);
  assert.deepEqual((await detail(freeCustomer.id, free)).effective, { rps: 5, price_per_request_micro: 0, monthly_quota: 10_000, source: 'payg', billing_model: 'none' });
  const priced = await limits(freeCustomer.id, { price_per_request_micro: 5 }, free);
  assert.deepEqual(priced.body.effective, { rps: 5, price_per_request_micro: 5, monthly_quota: 10_000, source: 'custom', billing_model: 'payg' });
});

test('status: suspend, reactivate and approve; moving back to pending is refused', async () => {
  const customer = await createCustomer(t, api, 'Status Co');
  const suspended = await update(customer.id, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  assert.equal(suspended.body.status, 'suspended');
  assert.equal((await snapshotCustomer(api, customer.id)).status, 'suspended');
  assertRefusedAt(await update(customer.id, { status: 'pending' }), 'body.status');
  const reactivated = await update(customer.id, { status: 'active' });
  assert.equal(reactivated.body.status, 'active');
  assertRefusedAt(await update(customer.id, { status: 'pending' }), 'body.status');
  assertRefusedAt(await update(customer.id, { status: 'gone' }), 'body.status');
  assert.equal((await detail(customer.id)).status, 'active');
  // A customer waiting for approval is approved by making it active.
  const waiting = await createPendingCustomer(t, api, 'Approval Co');
  assert.equal((await detail(waiting.id)).status, 'pending');
  assert.equal((await snapshotCustomer(api, waiting.id)).status, 'pending');
  const approved = await update(waiting.id, { status: 'active' });
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.body.status, 'active');
  const actions = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.customer_id === customer.id || e.customer_id === waiting.id).map((e) => e.action);
  for (const action of ['customer.suspend', 'customer.reactivate', 'customer.approve']) assert.ok(actions.includes(action), action);
  // The test customer cannot be suspended.
  const testKey = await editor.client.post(`/apis/${api.apiId}/test-key`);
  assert.equal(testKey.status, 200, testKey.text);
  assert.equal((await update(testKey.body.customer_id, { status: 'suspended' })).status, 409);
});

test('notes take up to 2000 characters', async () => {
  const customer = await createCustomer(t, api, 'Notes Co');
  const kept = await update(customer.id, { notes: 'n'.repeat(2000) });
  assert.equal(kept.status, 200, kept.text);
  assert.equal(kept.body.notes, 'n'.repeat(2000));
  assertRefusedAt(await update(customer.id, { notes: 'n'.repeat(2001) }), 'body.notes');
  assert.equal((await detail(customer.id)).notes, 'n'.repeat(2000));
  assert.equal((await update(customer.id, { notes: '' })).body.notes, '');
  assertRefusedAt(await update(customer.id, { email: 'new@acme.test' }), 'body.email');
});

test('a plan assigned by hand must be an active plan of this API; null clears it', async () => {
  const customer = await createCustomer(t, api, 'Plan Co');
  const inactive = await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Retired', price_monthly_cents: 100, active: false });
  assert.equal(inactive.status, 200, inactive.text);
  const elsewhere = await createApi(t, { name: 'Other Plans' }, owner);
  const foreign = await owner.client.post(`/apis/${elsewhere.apiId}/plans`, { name: 'Foreign', price_monthly_cents: 100 });
  for (const plan_id of ['pln_unknown', inactive.body.id, foreign.body.id]) {
    assertRefusedAt(await update(customer.id, { plan_id }), 'body.plan_id');
  }
  assertRefusedAt(await update(customer.id, { plan_id: 'p'.repeat(65) }), 'body.plan_id');
  assert.equal((await detail(customer.id)).plan_id, undefined);
  const plan = await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Team', price_monthly_cents: 2_000 });
  const assigned = await update(customer.id, { plan_id: plan.body.id });
  assert.equal(assigned.status, 200, assigned.text);
  assert.equal(assigned.body.plan_source, 'manual');
  const listed = await viewer.client.get(`/apis/${api.apiId}/customers?q=Plan%20Co`);
  assert.equal(listed.body.customers[0].plan_id, plan.body.id);
  assert.equal(listed.body.customers[0].plan_name, 'Team');
  const cleared = await update(customer.id, { plan_id: null });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(cleared.body.plan_source, '');
  assert.equal(cleared.body.plan_id, undefined);
  assert.equal(cleared.body.plan_name, undefined);
});

test('a customer of another API answers 404, even in the same workspace', async () => {
  const other = await createApi(t, { name: 'Sibling API' }, owner);
  const theirs = await createCustomer(t, other, 'Sibling Customer');
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/${theirs.id}`)).status, 404);
  assert.equal((await update(theirs.id, { notes: 'x' })).status, 404);
  assert.equal((await limits(theirs.id, { rps: 1 })).status, 404);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/cus_unknown`)).status, 404);
  assert.equal((await detail(theirs.id, other)).notes, '');
});

test('viewers read customers but get 403 on every change', async () => {
  const customer = await createCustomer(t, api, 'Read Only Co');
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers`)).status, 200);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).status, 200);
  const base = `/apis/${api.apiId}/customers`;
  const changes: [string, string, unknown?][] = [
    ['POST', base, { name: 'Viewer Made', email: 'viewer@acme.test' }],
    ['PATCH', `${base}/${customer.id}`, { notes: 'viewer' }],
    ['PUT', `${base}/${customer.id}/limits`, { rps: 1 }],
    ['POST', `${base}/${customer.id}/keys`, { name: 'viewer key' }],
    ['POST', `${base}/${customer.id}/credit`, { amount_micro: 1, note: 'viewer' }],
    ['POST', `${base}/invite`, { email: 'viewer-invite@acme.test' }],
    ['POST', `/apis/${api.apiId}/test-key`],
  ];
  for (const [method, path, body] of changes) assert.equal((await viewer.client.request(method, path, body)).status, 403, `${method} ${path}`);
  const after = await detail(customer.id);
  assert.equal(after.notes, '');
  assert.equal(after.balance_micro, 1_000_000);
  assert.deepEqual(after.keys, []);
});

test('each customer change writes an audit event with the API and the customer', async () => {
  const customer = await createCustomer(t, api, 'Audit Co');
  assert.equal((await update(customer.id, { notes: 'VIP' })).status, 200);
  assert.equal((await limits(customer.id, { rps: 3 })).status, 200);
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.customer_id === customer.id);
  assert.deepEqual(events.map((e) => e.action).reverse(), ['customer.create', 'customer.update', 'customer.limits']);
  for (const event of events) assert.equal(event.api_id, api.apiId);
  const snap = await fetchSnapshot(api);
  assert.ok(snap.customers.some((c) => c.id === customer.id));
});
