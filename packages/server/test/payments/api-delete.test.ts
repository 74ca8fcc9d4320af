// Deleting an API ends what is billed for it (issue 23 item 3): only the workspace owner deletes;
// the platform subscription and every customer subscription are canceled at the provider at once
// (no further invoice), then the API goes; a failure at the provider stops the delete with a
// problem naming the subscription, and nothing is deleted. Development provider, and the Stripe
// stand-in for the failure (its request log asserted).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer } from '../support/money.js';
import { assertMoneyInvariants, eventJson, postEvent } from '../support/payments.js';
import { clickDevCheckout, submitDevTestPage } from '../support/portal-payments.js';
import { StripeStandin } from '../support/stripe-standin.js';
import { addMember } from '../support/workspaces.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
afterEach(() => assertMoneyInvariants(t));
after(() => t.close());
const urls = { successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' };

test('the owner deletes an API: every subscription is canceled at the provider first, none renews after', async () => {
  const api = await createApi(t, { name: 'Ending API', preset: 'subscriptions' });
  const platform = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' });
  await submitDevTestPage(platform.body.url, { outcome: 'pay' });
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1500 })).body;
  await t.services.payments.syncPlans(api.apiId);
  for (const name of ['One', 'Two']) {
    const customer = await createCustomer(t, api, name);
    const checkout = await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plan.id, ...urls });
    assert.ok(checkout.ok);
    await clickDevCheckout(checkout.value.url, 'pay');
  }
  const statuses = async () =>
    (await sql<{ status: string }>`select data->>'status' as status from dev_payment_objects where kind = 'subscription' and data->'metadata'->>'gh_api' = ${api.apiId} order by created_at`.execute(t.services.db)).rows.map((r) => r.status);
  assert.deepEqual(await statuses(), ['active', 'active', 'active']);
  const admin = await addMember(t, api.owner.client, api.owner.workspaceId, 'admin');
  assert.equal((await admin.client.delete(`/apis/${api.apiId}`)).status, 403);
  assert.deepEqual(await statuses(), ['active', 'active', 'active'], 'a refused delete cancels nothing');
  const invoices = async () => Number((await sql<{ n: string }>`select count(*)::text as n from dev_payment_objects where kind = 'invoice' and data->'metadata'->>'gh_api' = ${api.apiId}`.execute(t.services.db)).rows[0]!.n);
  const before = await invoices();
  assert.equal((await api.owner.client.delete(`/apis/${api.apiId}`)).status, 204);
  assert.deepEqual(await statuses(), ['canceled', 'canceled', 'canceled']);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).status, 404);
  t.clock.advance(40 * DAY);
  await t.services.devProvider!.renewDue();
  assert.equal(await invoices(), before, 'no further invoice');
});

test('Stripe: a cancellation the provider refuses stops the delete with a problem naming it; nothing is deleted', async () => {
  const stripe = new StripeStandin();
  await stripe.start();
  const s = await startTestApp({ STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: 'whsec_standin', STRIPE_API_URL: stripe.url });
  try {
    const api = await createApi(s, { name: 'Stuck API', preset: 'subscriptions' });
    assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
    const account = stripe.log.find((r) => r.path === '/v1/account_links')!.form.account!;
    const now = Math.floor(s.clock.now().getTime() / 1000);
    await postEvent(s, '/webhooks/payments', eventJson('account.updated', { id: account, object: 'account', charges_enabled: true }, { account, created: now }), 'whsec_standin');
    const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1500 })).body;
    const customer = await createCustomer(s, api, 'Paying Co');
    const sub = (id: string, metadata: Record<string, string>, connected: boolean) =>
      postEvent(s, '/webhooks/payments', eventJson('customer.subscription.created', { id, object: 'subscription', status: 'active', customer: 'cus_x', metadata, items: { object: 'list', data: [{ id: `si_${id}`, current_period_end: now + 30 * 86400 }] } }, { account: connected ? account : null, created: now }), 'whsec_standin');
    await sub('sub_platform', { gh_kind: 'platform', gh_api: api.apiId, gh_platform_plan: 'starter' }, false);
    await sub('sub_customer', { gh_kind: 'subscription', gh_api: api.apiId, gh_customer: customer.id, gh_plan: plan.id }, true);
    stripe.failCancelOf.add('sub_customer');
    stripe.log.length = 0;
    const refused = await api.owner.client.delete(`/apis/${api.apiId}`);
    assert.equal(refused.status, 502, refused.text);
    assert.match(refused.body.detail, /sub_customer of customer Paying Co/);
    assert.match(refused.body.detail, /Nothing was deleted/);
    const deletes = stripe.log.filter((r) => r.method === 'DELETE').map((r) => [r.path, r.account ?? null, r.form.invoice_now, r.form.prorate]);
    assert.deepEqual(deletes.slice(0, 2), [['/v1/subscriptions/sub_platform', null, 'false', 'false'], ['/v1/subscriptions/sub_customer', account, 'false', 'false']]);
    assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).status, 200, 'still there');
    assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.subscription_status, 'active');
    // Once the provider answers, the delete goes through, asking only for what is left.
    stripe.failCancelOf.clear();
    stripe.log.length = 0;
    assert.equal((await api.owner.client.delete(`/apis/${api.apiId}`)).status, 204);
    assert.deepEqual(stripe.calls(), ['DELETE /v1/subscriptions/sub_customer']);
  } finally {
    await s.close();
    await stripe.close();
  }
});
