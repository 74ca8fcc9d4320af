// Subscription plans: every PlanFields bound on create and update, the list with subscriber
// counts, deleting (gone without subscribers, deactivated with them), new usage policies for
// subscribers when a plan's price changes, roles and audit (spec 2.3 PlanFields, PlanOut; DESIGN 7).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, createCustomer, fetchSnapshot, snapshotCustomer, type ApiFixture, startWithApi } from '../support/money.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithApi('Pia Owner', { name: 'Plans API', preset: 'subscriptions' }));
});
after(() => t.close());

const PLAN_OUT = ['active', 'created_at', 'credit_micro', 'description', 'id', 'monthly_quota', 'name', 'portal_url', 'price_monthly_cents', 'price_per_request_micro', 'rps', 'sort', 'subscribers', 'visibility'];

const createPlan = (body: Record<string, unknown>, client = editor.client, on = api) => client.post(`/apis/${on.apiId}/plans`, body);
const patchPlan = (id: string, body: Record<string, unknown>, client = editor.client) => client.patch(`/apis/${api.apiId}/plans/${id}`, body);
const listPlans = async (on = api) => {
  const answer = await viewer.client.get(`/apis/${on.apiId}/plans`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body.plans as Record<string, any>[];
};
const assign = async (customerId: string, planId: string | null, on = api) => {
  const answer = await editor.client.patch(`/apis/${on.apiId}/customers/${customerId}`, { plan_id: planId });
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
};

// Each PlanFields member with values just inside and just outside its bounds.
const bounds: { field: string; accepted: unknown[]; refused: unknown[] }[] = [
  { field: 'name', accepted: ['P', 'p'.repeat(60)], refused: ['', '   ', 'p'.repeat(61), 7] },
  { field: 'price_monthly_cents', accepted: [0, 1_000_000], refused: [-1, 1_000_001, 9.99, '900'] },
  { field: 'credit_micro', accepted: [0, 100_000_000_000], refused: [-1, 100_000_000_001] },
  { field: 'description', accepted: ['', 'd'.repeat(300)], refused: ['d'.repeat(301)] },
  { field: 'monthly_quota', accepted: [null, 0, 9_000_000_000], refused: [-1, 1.5] },
  { field: 'price_per_request_micro', accepted: [null, 0, 100_000_000], refused: [-1, 100_000_001] },
  { field: 'rps', accepted: [null, 0, 100_000], refused: [-1, 100_001] },
  { field: 'sort', accepted: [0, 1_000], refused: [-1, 1_001, null] },
  { field: 'visibility', accepted: ['public', 'private'], refused: ['hidden', ''] },
  { field: 'active', accepted: [true, false], refused: ['yes', null] },
];

for (const { field, accepted, refused } of bounds) {
  test(`plan ${field}: bounds accepted on create and update, values past them refused at body.${field}`, async () => {
    for (const value of accepted) {
      const created = await createPlan({ name: 'Bound plan', price_monthly_cents: 0, [field]: value });
      assert.equal(created.status, 200, `${field}=${JSON.stringify(value)}: ${created.text}`);
      assert.deepEqual(created.body[field], value);
    }
    for (const value of refused) assertRefusedAt(await createPlan({ name: 'Refused plan', price_monthly_cents: 0, [field]: value }), `body.${field}`);
    const plan = (await createPlan({ name: 'Updated plan', price_monthly_cents: 100 })).body;
    for (const value of accepted) {
      const changed = await patchPlan(plan.id, { [field]: value });
      assert.equal(changed.status, 200, `PATCH ${field}=${JSON.stringify(value)}: ${changed.text}`);
      assert.deepEqual(changed.body[field], value);
    }
    const kept = (await listPlans()).find((p) => p.id === plan.id)![field];
    assert.deepEqual(kept, accepted.at(-1));
    for (const value of refused) {
      assertRefusedAt(await patchPlan(plan.id, { [field]: value }), `body.${field}`);
      assert.deepEqual((await listPlans()).find((p) => p.id === plan.id)![field], kept, 'a refused update changes nothing');
    }
  });
}

test('a plan needs a name and a monthly price; undeclared properties are refused', async () => {
  assertRefusedAt(await createPlan({ price_monthly_cents: 100 }), 'body.name');
  assertRefusedAt(await createPlan({ name: 'No price' }), 'body.price_monthly_cents');
  assertRefusedAt(await createPlan({ name: 'Extra', price_monthly_cents: 100, currency: 'eur' }), 'body.currency');
  const plan = (await createPlan({ name: 'Patched', price_monthly_cents: 100 })).body;
  assertRefusedAt(await patchPlan(plan.id, { subscribers: 5 }), 'body.subscribers');
  assertRefusedAt(await patchPlan(plan.id, { id: 'pln_other' }), 'body.id');
});

test('a created plan answers every PlanOut field with its defaults', async () => {
  const created = await createPlan({ name: '  Starter  ', price_monthly_cents: 1_900 });
  assert.equal(created.status, 200, created.text);
  assert.deepEqual(Object.keys(created.body).sort(), PLAN_OUT);
  assert.match(created.body.id, /^pln_/);
  // The link an owner copies to offer a plan (a private one above all) on the portal.
  assert.equal(created.body.portal_url, `${(await editor.client.get(`/apis/${api.apiId}`)).body.portal_url}/plans/${created.body.id}`);
  assert.deepEqual(
    { ...created.body, id: undefined, created_at: undefined, portal_url: undefined },
    { id: undefined, created_at: undefined, portal_url: undefined, name: 'Starter', description: '', price_monthly_cents: 1_900, credit_micro: 0, price_per_request_micro: null, rps: null, monthly_quota: null, visibility: 'public', active: true, sort: 0, subscribers: 0 },
  );
});

test('an update changes only the fields it names: a private plan stays private', async () => {
  const plan = (await createPlan({ name: 'Hidden', price_monthly_cents: 500, visibility: 'private', sort: 7, rps: 9, description: 'For friends' })).body;
  const changed = await patchPlan(plan.id, { price_monthly_cents: 600 });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.price_monthly_cents, 600);
  const stored = (await listPlans()).find((p) => p.id === plan.id)!;
  assert.deepEqual(
    { visibility: stored.visibility, sort: stored.sort, rps: stored.rps, description: stored.description, name: stored.name, active: stored.active },
    { visibility: 'private', sort: 7, rps: 9, description: 'For friends', name: 'Hidden', active: true },
  );
  assert.equal((await patchPlan(plan.id, {})).status, 200);
  assert.equal((await listPlans()).find((p) => p.id === plan.id)!.visibility, 'private');
});

test('the list is in sort order and counts subscribers', async () => {
  const fresh = await createApi(t, { name: 'Sorted Plans', preset: 'subscriptions' }, owner);
  const late = (await createPlan({ name: 'Late', price_monthly_cents: 100, sort: 20 }, editor.client, fresh)).body;
  const early = (await createPlan({ name: 'Early', price_monthly_cents: 100, sort: 10 }, editor.client, fresh)).body;
  const tie = (await createPlan({ name: 'Tie', price_monthly_cents: 100, sort: 10 }, editor.client, fresh)).body;
  const a = await createCustomer(t, fresh, 'Sub A');
  const b = await createCustomer(t, fresh, 'Sub B');
  await createCustomer(t, fresh, 'Not subscribed');
  await assign(a.id, early.id, fresh);
  await assign(b.id, early.id, fresh);
  const plans = await listPlans(fresh);
  assert.deepEqual(plans.map((p) => p.id), [early.id, tie.id, late.id]);
  assert.deepEqual(plans.map((p) => p.subscribers), [2, 0, 0]);
  for (const plan of plans) assert.deepEqual(Object.keys(plan).sort(), PLAN_OUT);
  const patched = await patchPlan(early.id, { name: 'Early bird' }, editor.client);
  assert.equal(patched.status, 404, 'a plan of another API is not found under this one');
  const renamed = await editor.client.patch(`/apis/${fresh.apiId}/plans/${early.id}`, { name: 'Early bird' });
  assert.equal(renamed.body.subscribers, 2);
  await assign(b.id, null, fresh);
  assert.equal((await listPlans(fresh))[0]!.subscribers, 1);
});

test('deleting a plan without subscribers answers 204 and it is gone', async () => {
  const plan = (await createPlan({ name: 'Unloved', price_monthly_cents: 100 })).body;
  const deleted = await editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal(deleted.text, '');
  assert.ok(!(await listPlans()).some((p) => p.id === plan.id));
  assert.equal((await patchPlan(plan.id, { name: 'Back' })).status, 404);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`)).status, 404);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/plans/pln_unknown`)).status, 404);
});

test('deleting a plan with subscribers answers 200 with active false; the customer keeps it', async () => {
  const plan = (await createPlan({ name: 'Legacy', price_monthly_cents: 900, rps: 33 })).body;
  const customer = await createCustomer(t, api, 'Legacy Customer');
  await assign(customer.id, plan.id);
  const answer = await editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.id, plan.id);
  assert.equal(answer.body.active, false);
  assert.equal(answer.body.subscribers, 1);
  const listed = (await listPlans()).find((p) => p.id === plan.id)!;
  assert.equal(listed.active, false);
  const kept = await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`);
  assert.equal(kept.body.plan_id, plan.id);
  assert.equal(kept.body.plan_name, 'Legacy');
  assert.equal(kept.body.plan_source, 'manual');
  assert.equal(kept.body.effective.rps, 33);
  assert.equal(kept.body.effective.billing_model, 'subscription');
  // Nobody new can be put on it.
  const newcomer = await createCustomer(t, api, 'Too Late');
  assertRefusedAt(await editor.client.patch(`/apis/${api.apiId}/customers/${newcomer.id}`, { plan_id: plan.id }), 'body.plan_id');
});

test("a plan's new price gives its subscribers a new usage policy at that price, and no one else", async () => {
  const plan = (await createPlan({ name: 'Metered', price_monthly_cents: 1_000, price_per_request_micro: 200 })).body;
  const subscriber = await createCustomer(t, api, 'Metered Sub');
  const bystander = await createCustomer(t, api, 'Bystander');
  await assign(subscriber.id, plan.id);
  const before = await fetchSnapshot(api);
  const subBefore = before.customers.find((c) => c.id === subscriber.id)!;
  const byBefore = before.customers.find((c) => c.id === bystander.id)!;
  assert.equal(subBefore.effective.price_per_request_micro, 200);
  assert.equal(subBefore.effective.billing_model, 'subscription');
  // A change of name or monthly price does not change what a request costs.
  assert.equal((await patchPlan(plan.id, { name: 'Metered Plus', price_monthly_cents: 1_500 })).status, 200);
  assert.equal((await snapshotCustomer(api, subscriber.id)).usage_policy_id, subBefore.usage_policy_id);
  const changed = await patchPlan(plan.id, { price_per_request_micro: 350 });
  assert.equal(changed.status, 200, changed.text);
  const after = await fetchSnapshot(api);
  const subAfter = after.customers.find((c) => c.id === subscriber.id)!;
  assert.notEqual(subAfter.usage_policy_id, subBefore.usage_policy_id);
  assert.match(subAfter.usage_policy_id!, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(subAfter.effective.price_per_request_micro, 350);
  assert.equal(after.customers.find((c) => c.id === bystander.id)!.usage_policy_id, byBefore.usage_policy_id, 'non-subscribers keep their policy');
  // Back to the API default (null): a new policy at the API's price.
  assert.equal((await patchPlan(plan.id, { price_per_request_micro: null })).status, 200);
  const apiPrice = (await owner.client.get(`/apis/${api.apiId}`)).body.price_per_request_micro;
  assert.equal((await snapshotCustomer(api, subscriber.id)).effective.price_per_request_micro, apiPrice);
});

test('plans of another API are not found: update, delete and assign', async () => {
  const other = await createApi(t, { name: 'Other Plans API' }, owner);
  const foreign = (await createPlan({ name: 'Foreign', price_monthly_cents: 100 }, owner.client, other)).body;
  assert.equal((await patchPlan(foreign.id, { name: 'Taken over' })).status, 404);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/plans/${foreign.id}`)).status, 404);
  assert.ok((await listPlans(other)).some((p) => p.id === foreign.id && p.name === 'Foreign'));
});

test('editors manage plans; viewers read them and get 403 on changes', async () => {
  const plan = (await createPlan({ name: 'Role plan', price_monthly_cents: 100 }, owner.client)).body;
  assert.equal((await createPlan({ name: 'Viewer plan', price_monthly_cents: 100 }, viewer.client)).status, 403);
  assert.equal((await patchPlan(plan.id, { name: 'Viewer rename' }, viewer.client)).status, 403);
  assert.equal((await viewer.client.delete(`/apis/${api.apiId}/plans/${plan.id}`)).status, 403);
  assert.equal((await listPlans()).find((p) => p.id === plan.id)!.name, 'Role plan');
  assert.equal((await patchPlan(plan.id, { name: 'Editor rename' })).status, 200);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`)).status, 204);
});

test('plan changes write audit events naming the API', async () => {
  const plan = (await createPlan({ name: 'Audited plan', price_monthly_cents: 100 })).body;
  assert.equal((await patchPlan(plan.id, { price_monthly_cents: 200 })).status, 200);
  const customer = await createCustomer(t, api, 'Audited subscriber');
  await assign(customer.id, plan.id);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`)).status, 200);
  await assign(customer.id, null);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/plans/${plan.id}`)).status, 204);
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.target_id === plan.id);
  assert.deepEqual(events.map((e) => e.action).reverse(), ['plan.create', 'plan.update', 'plan.deactivate', 'plan.delete']);
  for (const event of events) assert.equal(event.api_id, api.apiId);
});
