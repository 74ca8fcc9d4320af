// A customer's subscription from the console (issue 23 item 2), with the development provider:
// switch and cancel go to the provider first and the customer's plan follows its events; a PATCH
// of plan_id on a paying customer is refused with a problem naming the subscription operation;
// GET …/payments lists receipts and paid invoices with refunds. Owner events follow the
// subscription (subscription.*).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, customerDetail, type ApiFixture } from '../support/money.js';
import { assertMoneyInvariants } from '../support/payments.js';
import { clickDevCheckout, devPaymentAction } from '../support/portal-payments.js';
import { addMember, type Member } from '../support/workspaces.js';

let t: TestApp;
let api: ApiFixture;
let viewer: Member;
let basic: { id: string };
let plus: { id: string };
const urls = { successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' };

before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Console Billing API', preset: 'subscriptions' });
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  basic = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Basic', price_monthly_cents: 1000, credit_micro: 1_000_000, rps: 5 })).body;
  plus = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Plus', price_monthly_cents: 3000, credit_micro: 4_000_000, rps: 50 })).body;
  await t.services.payments.syncPlans(api.apiId);
  viewer = await addMember(t, api.owner.client, api.owner.workspaceId, 'viewer');
  const endpoint = await api.owner.client.post(`/apis/${api.apiId}/webhooks`, { url: 'https://hooks.example.com/billing' });
  assert.equal(endpoint.status, 200, endpoint.text);
});
afterEach(() => assertMoneyInvariants(t));
after(() => t.close());

async function subscribed(planId: string) {
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  await clickDevCheckout(checkout.value.url, 'pay');
  return customer;
}
async function providerSubscription(customerId: string) {
  const { rows } = await sql<{ status: string; plan: string; cancel: boolean; amount: number }>`
    select data->>'status' as status, data->'metadata'->>'gh_plan' as plan, (data->>'cancel_at_period_end')::boolean as cancel, (data->>'amount_cents')::int as amount
    from dev_payment_objects where kind = 'subscription' and data->'metadata'->>'gh_customer' = ${customerId}`.execute(t.services.db);
  return rows;
}
/**
 * The owner events of a customer's subscription, in the order written. Read from the events table:
 * the catch-up listing waits for every older transaction on the database server, which on a shared
 * test PostgreSQL may be another test's.
 */
async function eventTypes(customerId: string) {
  const { rows } = await sql<{ type: string }>`
    select type from webhook_events where api_id = ${api.apiId} and type like 'subscription.%' and payload::jsonb->'data'->'object'->>'customer_id' = ${customerId} order by seq`.execute(t.services.db);
  return rows.map((r) => r.type);
}

test('switch from the console: the provider subscription moves first, the plan follows its event; PATCH of plan_id is refused', async () => {
  const customer = await subscribed(basic.id);
  let detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.plan_id, detail.plan_source, detail.subscription_status], [basic.id, 'provider', 'active']);
  // The plan follows the provider: a PATCH would leave the provider billing the old one.
  const patched = await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: plus.id });
  assert.equal(patched.status, 409, patched.text);
  assert.equal(patched.body.type, 'urn:gatehouse:problem:subscription_managed');
  assert.match(patched.body.detail, new RegExp(`/customers/${customer.id}/subscription/switch`));
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: null })).status, 409);
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { notes: 'VIP' })).status, 200, 'other fields still change');
  assert.equal((await customerDetail(api, customer.id)).plan_id, basic.id);

  assert.equal((await viewer.client.post(`/apis/${api.apiId}/customers/${customer.id}/subscription/switch`, { plan_id: plus.id })).status, 403);
  const unknown = await api.owner.client.post(`/apis/${api.apiId}/customers/${customer.id}/subscription/switch`, { plan_id: 'pln_nothere' });
  assert.equal(unknown.status, 422, unknown.text);
  const switched = await api.owner.client.post(`/apis/${api.apiId}/customers/${customer.id}/subscription/switch`, { plan_id: plus.id });
  assert.equal(switched.status, 200, switched.text);
  assert.deepEqual([switched.body.plan_id, switched.body.effective.rps], [plus.id, 50]);
  assert.deepEqual((await providerSubscription(customer.id)).map((s) => [s.status, s.plan, s.amount]), [['active', plus.id, 3000]], 'one subscription, moved');
  assert.deepEqual(await eventTypes(customer.id), ['subscription.created', 'subscription.plan_changed']);
});

test('cancel at period end, resume, then cancel at once: no subscription left at the provider, the plan gone', async () => {
  const customer = await subscribed(plus.id);
  const base = `/apis/${api.apiId}/customers/${customer.id}/subscription`;
  let answer = await api.owner.client.post(`${base}/cancel`, {});
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual([answer.body.plan_id, answer.body.subscription_status], [plus.id, 'active'], 'kept to the end of the period');
  assert.equal((await providerSubscription(customer.id))[0]!.cancel, true);
  answer = await api.owner.client.post(`${base}/resume`);
  assert.equal(answer.status, 200, answer.text);
  assert.equal((await providerSubscription(customer.id))[0]!.cancel, false);
  assert.equal((await api.owner.client.post(`${base}/resume`)).status, 409, 'nothing to resume');
  answer = await api.owner.client.post(`${base}/cancel`, { at_period_end: false });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual([answer.body.plan_id, answer.body.subscription_status, answer.body.effective.billing_model], [undefined, 'canceled', 'none']);
  assert.deepEqual((await providerSubscription(customer.id)).map((s) => s.status), ['canceled']);
  assert.equal((await api.owner.client.post(`${base}/cancel`, {})).status, 409, 'nothing left to cancel');
  assert.deepEqual(await eventTypes(customer.id), ['subscription.created', 'subscription.canceled']);
  // Now the plan is the owner's to set by hand again.
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: basic.id })).status, 200);
});

test('payments of a customer: receipts and invoices with provider links and refunds, for viewers; another API\'s customer is 404', async () => {
  const customer = await subscribed(basic.id);
  await api.owner.client.patch(`/apis/${api.apiId}`, { payg_enabled: true });
  const topUp = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 2000, ...urls });
  assert.ok(topUp.ok, JSON.stringify(topUp));
  await clickDevCheckout(topUp.value.url, 'pay');
  await t.services.payments.receipts.deliverPending();
  const sessionId = topUp.value.url.split('/').pop()!;
  await devPaymentAction(t, `${t.url}/dev/payments/receipts/${sessionId}`, 'refund_half');
  const list = await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}/payments`);
  assert.equal(list.status, 200, list.text);
  const byKind = Object.fromEntries(list.body.payments.map((p: { kind: string }) => [p.kind, p]));
  assert.deepEqual([byKind.topup.id, byKind.topup.amount_cents, byKind.topup.status, byKind.topup.refunded_cents, byKind.topup.credit_taken_back_micro], [sessionId, 2000, 'partially_refunded', 1000, 10_000_000]);
  assert.match(byKind.topup.url, /\/dev\/payments\/receipts\//);
  assert.deepEqual([byKind.plan.amount_cents, byKind.plan.credit_micro, byKind.plan.status, byKind.plan.description], [1000, 1_000_000, 'paid', 'Plan Basic']);
  assert.match(byKind.plan.url, /\/dev\/payments\/invoices\/in_dev_/);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}/payments?limit=1`)).body.payments.length, 1);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}/payments?limit=0`)).status, 422);
  const other = await createApi(t, { name: 'Elsewhere' });
  assert.equal((await other.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}/payments`)).status, 404);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/cus_nothere/payments`)).status, 404);
});
