// PATCH customer with an empty plan_id (issue 26 item 6): it answered 500 (a foreign key violation
// of the empty string); it is a 422 naming the field, and changes nothing. Both sides: a real plan
// id and null are accepted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertRefusedAt, createApi, createCustomer, type ApiFixture } from '../support/money.js';

let t: TestApp;
let api: ApiFixture;
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Plan Id API', preset: 'subscriptions' });
});
after(() => t.close());

test('plan_id "" is 422 naming body.plan_id and changes nothing; a plan id and null are accepted', async () => {
  const customer = await createCustomer(t, api);
  const path = `/apis/${api.apiId}/customers/${customer.id}`;
  const plan = await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1000 });
  assert.equal(plan.status, 200, plan.text);
  assertRefusedAt(await api.owner.client.patch(path, { plan_id: '' }), 'body.plan_id');
  assert.equal((await api.owner.client.get(path)).body.plan_id, undefined, 'no plan was set');
  const onPlan = await api.owner.client.patch(path, { plan_id: plan.body.id });
  assert.equal(onPlan.status, 200, onPlan.text);
  assert.equal(onPlan.body.plan_id, plan.body.id);
  assertRefusedAt(await api.owner.client.patch(path, { plan_id: '' }), 'body.plan_id');
  assert.equal((await api.owner.client.get(path)).body.plan_id, plan.body.id, 'the plan stayed');
  const off = await api.owner.client.patch(path, { plan_id: null });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.body.plan_id, undefined);
});
