// Payments through the `stripe` library against a local stand-in of Stripe's HTTP API (its request
// log asserted), with events signed by the library's test-header helper (issue 13 items 1, 2, 4, 7).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { paymentGraceJob, planSyncJob } from '../../src/jobs/payments.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { apiAuditEvents, createApi, createCustomer, customerDetail, type ApiFixture } from '../support/money.js';
import { assertBalancesMatchLedger, countRows, eventJson, postEvent } from '../support/payments.js';
import { SHIPPED_PLATFORM_PLANS } from '../support/platform-plans.js';
import { StripeStandin } from '../support/stripe-standin.js';
import { addMember, type Member } from '../support/workspaces.js';

const PLATFORM_SECRET = 'whsec_standinplatform';
const CONNECT_SECRET = 'whsec_standinconnect';
let t: TestApp;
let stripe: StripeStandin;
let api: ApiFixture;
let editor: Member;
let account: string;
const urls = { successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' };

function catalogue(): string {
  const plans = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: Record<string, unknown>[] };
  for (const plan of plans.plans) {
    if (plan.code === 'free') plan.teams = true; // fixtures add members
    if (plan.code === 'starter') plan.provider_price_id = 'price_platformstarter';
  }
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify(plans));
  return file;
}

const now = () => Math.floor(t.clock.now().getTime() / 1000);
const connectEvent = (type: string, object: Record<string, unknown>, options: { id?: string; created?: number } = {}) =>
  postEvent(t, '/webhooks/payments', eventJson(type, object, { account, created: now(), ...options }), CONNECT_SECRET);

before(async () => {
  stripe = new StripeStandin();
  await stripe.start();
  t = await startTestApp({ STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: `${PLATFORM_SECRET},${CONNECT_SECRET}`, STRIPE_API_URL: stripe.url, PLATFORM_PLANS_FILE: catalogue() });
  api = await createApi(t, { name: 'Stripe Pay API', preset: 'payg' });
  editor = await addMember(t, api.owner.client, api.owner.workspaceId, 'editor');
});
afterEach(() => assertBalancesMatchLedger(t));
after(async () => {
  await t.close();
  await stripe.close();
});

test('connect: an account and its onboarding link (admin); account.updated makes it take charges; an older status changes nothing', async () => {
  assert.equal((await editor.client.post(`/apis/${api.apiId}/payments/connect`)).status, 403);
  const connected = await api.owner.client.post(`/apis/${api.apiId}/payments/connect`);
  assert.equal(connected.status, 200, connected.text);
  assert.deepEqual(stripe.calls(), ['POST /v1/accounts', 'POST /v1/account_links']);
  const [create, link] = stripe.log;
  assert.equal(create!.account, undefined);
  assert.equal(create!.form['controller[fees][payer]'], 'account');
  assert.equal(create!.idempotencyKey, `gh-connect-${api.apiId}`);
  account = link!.form.account!;
  assert.equal(connected.body.url, `https://connect.standin.test/setup/${account}`);
  assert.equal(link!.form.type, 'account_onboarding');
  let out = (await api.owner.client.get(`/apis/${api.apiId}/payments`)).body;
  assert.deepEqual({ configured: out.configured, connected: out.connected, charges: out.charges_enabled, id: out.account_id }, { configured: true, connected: true, charges: false, id: account });
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/connection`)).body.payments_ready, false);

  const ready = await connectEvent('account.updated', { id: account, object: 'account', charges_enabled: true, business_profile: { name: 'Acme Billing' } });
  assert.equal(ready.status, 200, ready.text);
  const stale = await connectEvent('account.updated', { id: account, object: 'account', charges_enabled: false }, { created: now() - 60 });
  assert.equal(stale.status, 200);
  out = (await api.owner.client.get(`/apis/${api.apiId}`)).body.payments;
  assert.equal(out.charges_enabled, true);
  assert.equal(out.account_name, 'Acme Billing');
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/connection`)).body.payments_ready, true);
});

test('a bad signature is a 400 and changes nothing; each of the configured secrets is accepted', async () => {
  const customer = await createCustomer(t, api);
  const payload = eventJson('checkout.session.completed', { id: 'cs_sig', object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 1000, metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customer.id } }, { account });
  const events = await countRows(t, 'payment_events');
  for (const secret of ['whsec_other', `${CONNECT_SECRET}x`]) assert.equal((await postEvent(t, '/webhooks/payments', payload, secret)).status, 400);
  const unsigned = await fetch(`${t.url}/webhooks/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
  assert.equal(unsigned.status, 400);
  assert.equal(await countRows(t, 'payment_events'), events);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro);
  assert.equal((await postEvent(t, '/webhooks/payments', payload, PLATFORM_SECRET)).status, 200);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 10_000_000);
});

test('plans become prices on the owner account; a new amount makes a new price; a refused price is kept as the error and retried by the job', async () => {
  stripe.log.length = 0;
  const plan = await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1500, credit_micro: 3_000_000 });
  assert.equal(plan.status, 200, plan.text);
  const read = async () => (await api.owner.client.get(`/apis/${api.apiId}/plans`)).body.plans.find((p: { id: string }) => p.id === plan.body.id);
  await t.services.payments.syncPlans(api.apiId);
  const first = await read();
  assert.match(first.provider_price_id, /^price_standin/);
  assert.ok(first.provider_synced_at);
  const product = stripe.log.find((r) => r.path === '/v1/products')!;
  const price = stripe.log.find((r) => r.path === '/v1/prices')!;
  assert.equal(product.account, account);
  assert.equal(price.account, account);
  assert.deepEqual([price.form.unit_amount, price.form['recurring[interval]'], price.form.currency], ['1500', 'month', 'usd']);

  stripe.failPricesOf = 3300;
  await api.owner.client.patch(`/apis/${api.apiId}/plans/${plan.body.id}`, { price_monthly_cents: 3300 });
  await t.services.payments.syncPlans(api.apiId);
  const failed = await read();
  assert.match(failed.provider_sync_error, /refused by the stand-in/);
  assert.equal(failed.provider_price_id, first.provider_price_id);
  stripe.failPricesOf = null;
  assert.equal(await t.services.scheduler.runOnce(planSyncJob(t.services.payments)), true);
  const retried = await read();
  assert.equal(retried.provider_sync_error, undefined);
  assert.notEqual(retried.provider_price_id, first.provider_price_id);
  // Prices are only ever created: never an update of one.
  assert.ok(stripe.log.every((r) => !/^\/v1\/prices\/./.test(r.path)), JSON.stringify(stripe.calls()));
  // One product for every price of the plan (a repeated product call reuses its idempotency key).
  assert.equal(new Set(stripe.log.filter((r) => r.path === '/v1/prices').map((r) => r.form.product)).size, 1);
  assert.equal(new Set(stripe.log.filter((r) => r.path === '/v1/products').map((r) => r.idempotencyKey)).size, 1);
});

test("the console's \"Try again\": a PATCH that changes nothing asks Stripe again for a refused plan only", async () => {
  const plan = await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Retried', price_monthly_cents: 4400 });
  assert.equal(plan.status, 200, plan.text);
  const read = async () => (await api.owner.client.get(`/apis/${api.apiId}/plans`)).body.plans.find((p: { id: string }) => p.id === plan.body.id);
  const pricesAsked = () => stripe.log.filter((r) => r.path === '/v1/prices' && r.form.unit_amount === '4400').length;
  const settled = async (check: (p: any) => boolean) => {
    for (let i = 0; i < 200 && !check(await read()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    return read();
  };
  stripe.failPricesOf = 4400;
  await t.services.payments.syncPlans(api.apiId);
  assert.match((await read()).provider_sync_error, /refused by the stand-in/);
  const refusedOnce = pricesAsked();
  stripe.failPricesOf = null;
  const answer = await api.owner.client.patch(`/apis/${api.apiId}/plans/${plan.body.id}`, {});
  assert.equal(answer.status, 200, answer.text);
  const retried = await settled((p) => p.provider_sync_error === undefined);
  assert.equal(retried.provider_sync_error, undefined);
  assert.match(retried.provider_price_id, /^price_standin/);
  assert.equal(pricesAsked(), refusedOnce + 1);
  // On sale now: the same empty PATCH asks nothing.
  const asked = stripe.log.length;
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/plans/${plan.body.id}`, {})).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(stripe.log.length, asked);
});

test('a top-up: hosted checkout on the owner account, credited once by 20 identical events at once', async () => {
  const customer = await createCustomer(t, api);
  stripe.log.length = 0;
  const checkout = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 1000, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  assert.deepEqual(stripe.calls(), ['POST /v1/customers', 'POST /v1/checkout/sessions']);
  const session = stripe.log[1]!;
  assert.equal(session.account, account);
  assert.deepEqual([session.form.mode, session.form['line_items[0][price_data][unit_amount]'], session.form['metadata[gh_kind]'], session.form['metadata[gh_customer]']], ['payment', '1000', 'topup', customer.id]);
  const sessionId = checkout.value.url.split('/').pop()!;
  const payload = eventJson('checkout.session.completed', { id: sessionId, object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 1000, customer: session.form.customer, metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customer.id } }, { account, created: now() });
  const answers = await Promise.all(Array.from({ length: 20 }, () => postEvent(t, '/webhooks/payments', payload, CONNECT_SECRET)));
  assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.balance_micro, customer.balance_micro + 10_000_000);
  const ledger = (await api.owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}`)).body.entries.filter((e: { kind: string }) => e.kind === 'topup');
  assert.deepEqual(ledger.map((e: { ref: string; amount_micro: number }) => [e.ref, e.amount_micro]), [[sessionId, 10_000_000]]);
  // One receipt mail (to the customer's address: nobody of its team started this checkout), with
  // the receipt link of the charge, read from the session on the owner's account.
  const receipt = await t.mail.waitFor(detail.email, /receipt/);
  assert.ok(receipt.text.includes(`https://pay.standin.test/receipts/${sessionId}`), receipt.text);
  const read = stripe.log.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`);
  assert.deepEqual(read.map((r) => [r.account, r.form['expand[0]']]), [[account, 'payment_intent.latest_charge']], 'read once, on the owner account');
  // The customer made at the provider is remembered: the next checkout reuses it.
  stripe.log.length = 0;
  await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 500, ...urls });
  assert.deepEqual(stripe.calls(), ['POST /v1/checkout/sessions']);
});

test('a subscription: the plan applies, each paid invoice adds plan credit once, events out of order never bring an ended subscription back', async () => {
  const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Team', price_monthly_cents: 4900, credit_micro: 20_000_000, rps: 99 })).body;
  const customer = await createCustomer(t, api);
  stripe.log.length = 0;
  const checkout = await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plan.id, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  const session = stripe.log.find((r) => r.path === '/v1/checkout/sessions')!;
  assert.equal(session.form.mode, 'subscription');
  assert.match(session.form['line_items[0][price]']!, /^price_standin/);
  assert.equal(session.form['subscription_data[metadata][gh_plan]'], plan.id);
  const metadata = { gh_kind: 'subscription', gh_api: api.apiId, gh_customer: customer.id, gh_plan: plan.id };
  const t0 = now();
  const sub = (status: string, extra: Record<string, unknown> = {}) => ({ id: 'sub_1', object: 'subscription', status, customer: 'cus_1', metadata, cancel_at_period_end: false, items: { object: 'list', data: [{ id: 'si_1', current_period_end: t0 + 30 * 86400 }] }, ...extra });
  assert.equal((await connectEvent('customer.subscription.created', sub('active'), { created: t0 })).status, 200);
  const invoice = eventJson('invoice.paid', { id: 'in_1', object: 'invoice', customer: 'cus_1', parent: { subscription_details: { subscription: 'sub_1', metadata } } }, { account, created: t0 });
  await postEvent(t, '/webhooks/payments', invoice, CONNECT_SECRET);
  await postEvent(t, '/webhooks/payments', invoice.replace(/"id":"evt_[^"]+"/, '"id":"evt_again"'), CONNECT_SECRET);
  let detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.plan_id, detail.plan_source, detail.subscription_status, detail.provider_customer_id], [plan.id, 'provider', 'active', 'cus_1']);
  assert.equal(detail.subscription_period_end, new Date((t0 + 30 * 86400) * 1000).toISOString());
  assert.deepEqual([detail.effective.source, detail.effective.billing_model, detail.effective.rps], ['plan', 'subscription', 99]);
  assert.equal(detail.balance_micro, customer.balance_micro + 20_000_000);
  // Deleted arrives before the older update: the update finds it ended and changes nothing.
  await connectEvent('customer.subscription.deleted', sub('canceled'), { created: t0 + 20 });
  await connectEvent('customer.subscription.updated', sub('active'), { created: t0 + 10 });
  detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.subscription_status, detail.plan_id, detail.effective.source], ['canceled', undefined, 'payg']);
});

test('past due keeps the plan 7 days; then the grace job records it unpaid and limits fall back', async () => {
  const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Grace', price_monthly_cents: 900, rps: 77 })).body;
  const customer = await createCustomer(t, api);
  const metadata = { gh_kind: 'subscription', gh_api: api.apiId, gh_customer: customer.id, gh_plan: plan.id };
  const sub = (status: string) => ({ id: 'sub_grace', object: 'subscription', status, customer: 'cus_g', metadata, items: { object: 'list', data: [{ id: 'si_g', current_period_end: now() + 30 * 86400 }] } });
  await connectEvent('customer.subscription.created', sub('active'));
  await connectEvent('customer.subscription.updated', sub('past_due'), { created: now() + 1 });
  const grace = () => t.services.scheduler.runOnce(paymentGraceJob(t.services.payments));
  t.clock.advance(7 * DAY - 60_000);
  await grace();
  let detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.subscription_status, detail.effective.rps], ['past_due', 77]);
  t.clock.advance(120_000);
  await grace();
  detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.subscription_status, detail.effective.source, detail.effective.rps], ['unpaid', 'payg', 10]);
});

test('platform plans: the owner buys one on the platform account; its events move plan_status, and the grace ends on free', async () => {
  const plans = (await api.owner.client.get('/platform/plans')).body.plans as { code: string; purchasable: boolean }[];
  assert.deepEqual(plans.map((p) => [p.code, p.purchasable]), [['free', false], ['starter', true], ['growth', false], ['scale', false]]);
  assert.equal((await editor.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' })).status, 403);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' })).status, 422);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'x'.repeat(33) })).status, 422);
  stripe.log.length = 0;
  const checkout = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' });
  assert.equal(checkout.status, 200, checkout.text);
  const session = stripe.log[0]!;
  assert.deepEqual([session.path, session.account, session.form['line_items[0][price]'], session.form['subscription_data[metadata][gh_platform_plan]']], ['/v1/checkout/sessions', undefined, 'price_platformstarter', 'starter']);
  const metadata = { gh_kind: 'platform', gh_api: api.apiId, gh_platform_plan: 'starter' };
  const sub = (status: string) => ({ id: 'sub_platform', object: 'subscription', status, customer: 'cus_owner', metadata, items: { object: 'list', data: [{ id: 'si_p', current_period_end: now() + 30 * 86400 }] } });
  // The same metadata on an owner's connected account buys nothing.
  await connectEvent('customer.subscription.created', sub('active'));
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.plan.code, 'free');
  const platformEvent = (type: string, status: string, created: number) => postEvent(t, '/webhooks/payments', eventJson(type, sub(status), { created }), PLATFORM_SECRET);
  await platformEvent('customer.subscription.created', 'active', now());
  let out = (await api.owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual([out.plan.code, out.plan_status, out.plan.max_customers], ['starter', 'active', 2000]);
  assert.ok(out.plan_period_end);
  await platformEvent('customer.subscription.updated', 'past_due', now() + 1);
  out = (await api.owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual([out.plan.code, out.plan_status], ['starter', 'past_due']);
  const graceUntil = new Date(out.plan_grace_until).getTime();
  assert.ok(Math.abs(graceUntil - (t.clock.now().getTime() + 7 * DAY)) < 10_000, out.plan_grace_until);
  t.clock.advance(graceUntil - t.clock.now().getTime() - 60_000);
  await t.services.scheduler.runOnce(paymentGraceJob(t.services.payments));
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.plan_status, 'past_due');
  t.clock.advance(120_000);
  await t.services.scheduler.runOnce(paymentGraceJob(t.services.payments));
  out = (await api.owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual([out.plan.code, out.plan_status], ['free', 'canceled']);
  const changes = (await apiAuditEvents(api.owner.client, api.owner.workspaceId, api.apiId)).filter((e) => e.action === 'api.plan_change').map((e) => e.details.to);
  assert.deepEqual(changes, [{ plan: 'free', status: 'canceled' }, { plan: 'starter', status: 'past_due' }, { plan: 'starter', status: 'active' }]);
});

test('switch and cancel: the subscription is read, then moved to the new price with the plan in metadata; cancel at period end, or at once', async () => {
  const basic = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Basic', price_monthly_cents: 1000, credit_micro: 1_000_000 })).body;
  const plus = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Plus', price_monthly_cents: 3000, credit_micro: 4_000_000 })).body;
  await t.services.payments.syncPlans(api.apiId);
  const customer = await createCustomer(t, api);
  const metadata = (planId: string) => ({ gh_kind: 'subscription', gh_api: api.apiId, gh_customer: customer.id, gh_plan: planId });
  const sub = (planId: string, extra: Record<string, unknown> = {}) => ({ id: 'sub_switch', object: 'subscription', status: 'active', customer: 'cus_s', metadata: metadata(planId), items: { object: 'list', data: [{ id: 'si_switch', current_period_end: now() + 30 * 86400 }] }, ...extra });
  assert.ok(!(await t.services.payments.switchSubscription({ apiId: api.apiId, customerId: customer.id, planId: plus.id })).ok, 'nothing to switch yet');
  await connectEvent('customer.subscription.created', sub(basic.id));
  assert.equal((await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plus.id, ...urls })).ok, false, 'a second subscription is refused: switch instead');

  stripe.log.length = 0;
  const switched = await t.services.payments.switchSubscription({ apiId: api.apiId, customerId: customer.id, planId: plus.id });
  assert.ok(switched.ok, JSON.stringify(switched));
  assert.deepEqual(stripe.calls(), ['GET /v1/subscriptions/sub_switch', 'POST /v1/subscriptions/sub_switch']);
  const update = stripe.log[1]!;
  const plusPrice = (await api.owner.client.get(`/apis/${api.apiId}/plans`)).body.plans.find((p: { id: string }) => p.id === plus.id).provider_price_id;
  // The item id is the one the stand-in's GET answered.
  assert.deepEqual([update.account, update.form['items[0][id]'], update.form['items[0][price]'], update.form['metadata[gh_plan]']], [account, 'si_sub_switch', plusPrice, plus.id]);
  // The provider's update event moves the plan; the next invoice credits the new plan.
  await connectEvent('customer.subscription.updated', sub(plus.id), { created: now() + 1 });
  const invoice = eventJson('invoice.paid', { id: 'in_switch', object: 'invoice', parent: { subscription_details: { subscription: 'sub_switch', metadata: metadata(plus.id) } } }, { account, created: now() + 1 });
  await postEvent(t, '/webhooks/payments', invoice, CONNECT_SECRET);
  const detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.plan_id, detail.balance_micro], [plus.id, customer.balance_micro + 4_000_000]);

  stripe.log.length = 0;
  assert.ok((await t.services.payments.cancelSubscription({ apiId: api.apiId, customerId: customer.id })).ok);
  assert.ok((await t.services.payments.cancelSubscription({ apiId: api.apiId, customerId: customer.id, atPeriodEnd: false })).ok);
  assert.deepEqual(stripe.calls(), ['POST /v1/subscriptions/sub_switch', 'DELETE /v1/subscriptions/sub_switch']);
  assert.equal(stripe.log[0]!.form.cancel_at_period_end, 'true');
});

test('auto-recharge: a setup checkout saves the card (setup_intent.succeeded); an off-session charge on the owner account credits on payment_intent.succeeded; a failure sets failed_at', async () => {
  await api.owner.client.patch(`/apis/${api.apiId}`, { auto_recharge_allowed: true });
  const customer = await createCustomer(t, api);
  stripe.log.length = 0;
  const setup = await t.services.payments.checkoutCardSetup({ apiId: api.apiId, customerId: customer.id, ...urls });
  assert.ok(setup.ok, JSON.stringify(setup));
  const session = stripe.log.find((r) => r.path === '/v1/checkout/sessions')!;
  assert.deepEqual([session.form.mode, session.form['setup_intent_data[metadata][gh_kind]']], ['setup', 'setup']);
  const providerCustomer = session.form.customer!;
  const charge = (amountCents: number, key = 'ar-1') => t.services.payments.chargeAutoRecharge({ apiId: api.apiId, customerId: customer.id, amountCents, idempotencyKey: key });
  assert.equal((await charge(1000)).ok, false, 'no card yet');
  await connectEvent('setup_intent.succeeded', { id: 'seti_1', object: 'setup_intent', status: 'succeeded', customer: providerCustomer, payment_method: 'pm_card_1', metadata: { gh_kind: 'setup', gh_api: api.apiId, gh_customer: customer.id } });
  assert.equal((await customerDetail(api, customer.id)).auto_recharge.has_card, true);
  for (const [cents, accepted] of [[99, false], [100_001, false]] as const) assert.equal((await charge(cents)).ok, accepted, `${cents} cents`);
  stripe.log.length = 0;
  const charged = await charge(100_000);
  assert.ok(charged.ok && charged.value.status === 'succeeded', JSON.stringify(charged));
  const intent = stripe.log[0]!;
  assert.deepEqual([intent.path, intent.account, intent.idempotencyKey, intent.form.off_session, intent.form.confirm, intent.form.payment_method, intent.form.customer, intent.form.amount], ['/v1/payment_intents', account, 'ar-1', 'true', 'true', 'pm_card_1', providerCustomer, '100000']);
  const metadata = { gh_kind: 'auto_recharge', gh_api: api.apiId, gh_customer: customer.id };
  await connectEvent('payment_intent.succeeded', { id: charged.value.paymentIntentId, object: 'payment_intent', amount: 100_000, amount_received: 100_000, metadata });
  const credited = await customerDetail(api, customer.id);
  assert.equal(credited.balance_micro, customer.balance_micro + 1_000_000_000);
  const receipt = await t.mail.waitFor(credited.email, /receipt/);
  assert.ok(receipt.text.includes(`https://pay.standin.test/receipts/${charged.value.paymentIntentId}`), receipt.text);
  await connectEvent('payment_intent.payment_failed', { id: 'pi_failed', object: 'payment_intent', amount: 500, amount_received: 0, metadata });
  const failed = await customerDetail(api, customer.id);
  assert.ok(failed.auto_recharge.failed_at);
  assert.equal(failed.balance_micro, credited.balance_micro);
  const ledger = (await api.owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}`)).body.entries.filter((e: { kind: string }) => e.kind === 'auto_recharge');
  assert.deepEqual(ledger.map((e: { ref: string }) => e.ref), [charged.value.paymentIntentId]);
});

test('a plan deleted or deactivated: its checkouts still open are expired at Stripe, on its connected account; one already closed is left alone', async () => {
  const open = async (name: string) => {
    const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name, price_monthly_cents: 1500, credit_micro: 1_000_000 })).body;
    await t.services.payments.syncPlans(api.apiId);
    const customer = await createCustomer(t, api);
    stripe.log.length = 0;
    assert.ok((await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plan.id, ...urls })).ok);
    const created = stripe.log.find((r) => r.path === '/v1/checkout/sessions')!;
    return { plan, sessionId: stripe.lastSessionId!, account: created.account };
  };
  const gone = await open('Gone Soon');
  const kept = await open('Kept On Sale');
  stripe.log.length = 0;
  assert.equal((await api.owner.client.delete(`/apis/${api.apiId}/plans/${gone.plan.id}`)).status, 204);
  assert.deepEqual(stripe.calls(), [`POST /v1/checkout/sessions/${gone.sessionId}/expire`], 'only the deleted plan\'s checkout');
  assert.equal(stripe.log[0]!.account, gone.account);
  // Deactivating the other: its checkout expires too; a second withdrawal asks nothing again.
  stripe.log.length = 0;
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/plans/${kept.plan.id}`, { active: false })).status, 200);
  assert.deepEqual(stripe.calls(), [`POST /v1/checkout/sessions/${kept.sessionId}/expire`]);
  stripe.log.length = 0;
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/plans/${kept.plan.id}`, { active: true })).status, 200);
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}/plans/${kept.plan.id}`, { active: false })).status, 200);
  assert.deepEqual(stripe.calls().filter((call) => call.endsWith('/expire')), []);
  // A session Stripe will not expire (paid meanwhile) is not an error of the plan's deletion.
  const paid = await open('Paid Meanwhile');
  stripe.closedSessions.add(paid.sessionId);
  stripe.log.length = 0;
  assert.equal((await api.owner.client.delete(`/apis/${api.apiId}/plans/${paid.plan.id}`)).status, 204);
  assert.deepEqual(stripe.calls(), [`POST /v1/checkout/sessions/${paid.sessionId}/expire`]);
});
