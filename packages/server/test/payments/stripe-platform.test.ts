// Platform plans through the `stripe` library against the local stand-in of Stripe's HTTP API (its
// request log asserted; issue 23 item 1): the first paid plan is a checkout on the platform's own
// account; an upgrade updates that subscription's item with proration billed at once; cancel and
// resume set cancel_at_period_end; a second live subscription is canceled at once.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi } from '../support/money.js';
import { assertMoneyInvariants, eventJson, postEvent } from '../support/payments.js';
import { SHIPPED_PLATFORM_PLANS } from '../support/platform-plans.js';
import { StripeStandin } from '../support/stripe-standin.js';

const PLATFORM_SECRET = 'whsec_standinplatform';
let t: TestApp;
let stripe: StripeStandin;

function catalogue(): string {
  const plans = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: Record<string, unknown>[] };
  for (const plan of plans.plans) if (plan.code !== 'free') plan.provider_price_id = `price_platform${plan.code}`;
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify(plans));
  return file;
}

before(async () => {
  stripe = new StripeStandin();
  await stripe.start();
  t = await startTestApp({ STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: PLATFORM_SECRET, STRIPE_API_URL: stripe.url, PLATFORM_PLANS_FILE: catalogue() });
});
afterEach(() => assertMoneyInvariants(t));
after(async () => {
  await t.close();
  await stripe.close();
});

const now = () => Math.floor(t.clock.now().getTime() / 1000);

test('checkout, then an upgrade updates the one subscription with proration; cancel and resume; a second live subscription is canceled at once', async () => {
  const api = await createApi(t, { name: 'Stripe Climber' });
  const sub = (id: string, code: string, extra: Record<string, unknown> = {}) => ({
    id, object: 'subscription', status: 'active', customer: 'cus_owner', cancel_at_period_end: false,
    metadata: { gh_kind: 'platform', gh_api: api.apiId, gh_platform_plan: code }, items: { object: 'list', data: [{ id: `si_${id}`, current_period_end: now() + 30 * 86400 }] }, ...extra,
  });
  const platformEvent = (type: string, object: Record<string, unknown>, created = now()) => postEvent(t, '/webhooks/payments', eventJson(type, object, { created }), PLATFORM_SECRET);

  stripe.log.length = 0;
  const checkout = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' });
  assert.equal(checkout.status, 200, checkout.text);
  assert.deepEqual(stripe.calls(), ['POST /v1/checkout/sessions']);
  assert.deepEqual([stripe.log[0]!.account, stripe.log[0]!.form['line_items[0][price]']], [undefined, 'price_platformstarter']);
  await platformEvent('customer.subscription.created', sub('sub_one', 'starter'));

  stripe.log.length = 0;
  const upgrade = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' });
  assert.equal(upgrade.status, 200, upgrade.text);
  assert.deepEqual(stripe.calls(), ['GET /v1/subscriptions/sub_one', 'POST /v1/subscriptions/sub_one'], 'no second checkout');
  const update = stripe.log[1]!;
  assert.deepEqual(
    [update.account, update.form['items[0][id]'], update.form['items[0][price]'], update.form.proration_behavior, update.form['metadata[gh_platform_plan]'], update.form.cancel_at_period_end],
    [undefined, 'si_sub_one', 'price_platformgrowth', 'always_invoice', 'growth', 'false'],
  );
  await platformEvent('customer.subscription.updated', sub('sub_one', 'growth'), now() + 1);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.plan.code, 'growth');

  stripe.log.length = 0;
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/cancel`)).status, 204);
  await platformEvent('customer.subscription.updated', sub('sub_one', 'growth', { cancel_at_period_end: true }), now() + 2);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.plan_status, 'canceled');
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/resume`)).status, 204);
  assert.deepEqual(stripe.log.map((r) => [r.method, r.path, r.form.cancel_at_period_end]), [['POST', '/v1/subscriptions/sub_one', 'true'], ['POST', '/v1/subscriptions/sub_one', 'false']]);
  await platformEvent('customer.subscription.updated', sub('sub_one', 'growth'), now() + 3);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.plan_status, 'active');

  // A second subscription that went live anyway (a checkout opened elsewhere): canceled at once.
  stripe.log.length = 0;
  const second = await platformEvent('customer.subscription.created', sub('sub_two', 'scale'), now() + 4);
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(stripe.calls(), ['DELETE /v1/subscriptions/sub_two']);
  assert.deepEqual([stripe.log[0]!.form.invoice_now, stripe.log[0]!.form.prorate], ['false', 'false']);
  const out = (await api.owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual([out.plan.code, out.plan_status], ['growth', 'active']);
  // Its deletion event changes nothing of the plan.
  await platformEvent('customer.subscription.deleted', sub('sub_two', 'scale', { status: 'canceled' }), now() + 5);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.plan.code, 'growth');
});
