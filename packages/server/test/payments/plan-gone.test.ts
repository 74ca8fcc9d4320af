// A plan that goes away while a customer's checkout is open (issue 23 item 4), with the development
// provider: paid for a deleted plan, the subscription is canceled at once and the payment refunded
// (no plan, no credit, never kept silently); paid for a deactivated plan, it is honoured.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, customerDetail, type ApiFixture } from '../support/money.js';
import { assertMoneyInvariants } from '../support/payments.js';
import { clickDevCheckout } from '../support/portal-payments.js';

let t: TestApp;
let api: ApiFixture;
const urls = { successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' };
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Fickle Plans', preset: 'subscriptions' });
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
});
afterEach(() => assertMoneyInvariants(t));
after(() => t.close());

async function openCheckout(name: string) {
  const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name, price_monthly_cents: 2000, credit_micro: 5_000_000 })).body;
  await t.services.payments.syncPlans(api.apiId);
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plan.id, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  return { plan, customer, url: checkout.value.url };
}
/**
 * The checkout stays payable although its plan goes away, as when the provider failed to expire
 * it: the service has it marked done, so withdrawing the plan asks the provider nothing.
 */
const keepPayable = (url: string) => sql`update payment_checkouts set expired_at = now() where session_id = ${url.split('/').at(-1)!}`.execute(t.services.db);
const devObjects = async (kind: string, customerId: string) =>
  (await sql<{ data: Record<string, unknown> }>`select data from dev_payment_objects where kind = ${kind} and data->'metadata'->>'gh_customer' = ${customerId}`.execute(t.services.db)).rows.map((r) => r.data);

test('paid after the plan was deleted: the subscription is canceled at once and the payment refunded; no plan, no credit', async () => {
  const { plan, customer, url } = await openCheckout('Vanishing');
  await keepPayable(url);
  assert.equal((await api.owner.client.delete(`/apis/${api.apiId}/plans/${plan.id}`)).status, 204);
  assert.equal((await clickDevCheckout(url, 'pay')).status, 303);
  const [subscription] = await devObjects('subscription', customer.id);
  assert.equal(subscription!.status, 'canceled', 'no renewal of a subscription to nothing');
  const [invoice] = await devObjects('invoice', customer.id);
  assert.equal(invoice!.amount_refunded, 2000, 'the payment went back');
  const detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.plan_id, detail.balance_micro], [undefined, customer.balance_micro]);
  const outcomes = (await sql<{ outcome: string }>`select outcome from payment_events order by received_at`.execute(t.services.db)).rows.map((r) => r.outcome);
  assert.ok(outcomes.includes('plan deleted: the subscription is canceled at the provider'), outcomes.join('\n'));
  assert.ok(outcomes.includes('plan deleted: the payment is refunded'), outcomes.join('\n'));
  // Only the provider's own deletion event of that subscription has nothing left to change.
  assert.equal(outcomes.filter((o) => o === 'ignored: no such plan').length, 1, outcomes.join('\n'));
});

test('paid after the plan was deactivated: honoured (the plan applies, its credit is added); it cannot be deleted while subscribed', async () => {
  const { plan, customer, url } = await openCheckout('Retiring');
  await keepPayable(url);
  const deactivated = await api.owner.client.patch(`/apis/${api.apiId}/plans/${plan.id}`, { active: false });
  assert.equal(deactivated.status, 200, deactivated.text);
  await clickDevCheckout(url, 'pay');
  const detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.plan_id, detail.subscription_status, detail.balance_micro], [plan.id, 'active', customer.balance_micro + 5_000_000]);
  // With a live subscriber the plan is only deactivated, never deleted.
  const removed = await api.owner.client.delete(`/apis/${api.apiId}/plans/${plan.id}`);
  assert.equal(removed.status, 200, removed.text);
  assert.equal(removed.body.active, false);
  assert.ok((await api.owner.client.get(`/apis/${api.apiId}/plans`)).body.plans.some((p: { id: string }) => p.id === plan.id));
});

test('a plan deleted or deactivated: its checkouts still open are expired, and their pages refuse to take a payment', async () => {
  const deleted = await openCheckout('Withdrawn');
  const deactivated = await openCheckout('Paused');
  assert.equal((await api.owner.client.delete(`/apis/${api.apiId}/plans/${deleted.plan.id}`)).status, 204);
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/plans/${deactivated.plan.id}`, { active: false })).status, 200);
  for (const { url, customer } of [deleted, deactivated]) {
    const page = await fetch(url);
    assert.equal(page.status, 410);
    assert.match(await page.text(), /This checkout has expired/);
    const [session] = await devObjects('checkout', customer.id);
    assert.equal(session!.status, 'expired');
    // Posting the pay button anyway (a page left open) takes nothing.
    const sessionId = url.split('/').at(-1)!;
    assert.equal(await t.services.devProvider!.completeCheckout(sessionId), null);
    assert.deepEqual(await devObjects('subscription', customer.id), []);
  }
  // Another plan's checkout is untouched.
  const other = await openCheckout('Still On Sale');
  assert.equal((await fetch(other.url)).status, 200);
});
