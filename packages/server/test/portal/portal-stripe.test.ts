// The portal's money flows with Stripe configured (issue 13 item 9), over HTTP: the `stripe`
// library talks to the local stand-in of Stripe's API (its request log asserted: which endpoints,
// with what, on the owner's connected account through Stripe-Account), and Stripe's events come
// back signed with the library's test-header helper. Top-up, subscribe, switch and cancel, and
// auto-recharge (card, settings, the job's off-session charge) through to the ledger. After every
// test, every customer's balance is the sum of its ledger entries.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { assertBalancesMatchLedger, eventJson, postEvent } from '../support/payments.js';
import { customerOwner, mailSettled, rowsOf, textById } from '../support/portal-payments.js';
import { StripeStandin, type StandinRequest } from '../support/stripe-standin.js';
import type { TenantBrowser } from '../support/tenant-client.js';

const PLATFORM_SECRET = 'whsec_portalplatform';
const CONNECT_SECRET = 'whsec_portalconnect';
let f: IssuerFixture;
let stripe: StripeStandin;
let account: string;
const plan: Record<'basic' | 'plus', { id: string; price: string }> = {} as never;

const now = () => Math.floor(f.t.clock.now().getTime() / 1000);
/** An event on the owner's connected account, signed as Stripe signs (generateTestHeaderString). */
async function connectEvent(type: string, object: Record<string, unknown>, created = now()) {
  const answer = await postEvent(f.t, '/webhooks/payments', eventJson(type, object, { account, created }), CONNECT_SECRET);
  assert.equal(answer.status, 200, answer.text);
  return answer.body as { duplicate: boolean };
}

before(async () => {
  stripe = new StripeStandin();
  await stripe.start();
  f = await startIssuer('Stripe Portal API', { STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: `${PLATFORM_SECRET},${CONNECT_SECRET}`, STRIPE_API_URL: stripe.url });
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', payg_enabled: true, plans_enabled: true, auto_recharge_allowed: true, topup_amounts_cents: [1000, 2500], min_topup_cents: 500 });
  assert.equal(set.status, 200, set.text);
  const connected = await f.owner.client.post(`/apis/${f.apiId}/payments/connect`);
  assert.equal(connected.status, 200, connected.text);
  account = stripe.log.find((r) => r.path === '/v1/account_links')!.form.account!;
  await connectEvent('account.updated', { id: account, object: 'account', charges_enabled: true, business_profile: { name: 'Portal Owner' } });
  for (const [key, body] of [['basic', { name: 'Basic', price_monthly_cents: 1000, credit_micro: 5_000_000, rps: 3 }], ['plus', { name: 'Plus', price_monthly_cents: 3000, credit_micro: 12_000_000, rps: 30 }]] as const) {
    const made = await f.owner.client.post(`/apis/${f.apiId}/plans`, body);
    assert.equal(made.status, 200, made.text);
    plan[key] = { id: made.body.id, price: '' };
  }
  await f.t.services.payments.syncPlans(f.apiId);
  const plans = (await f.owner.client.get(`/apis/${f.apiId}/plans`)).body.plans as { id: string; provider_price_id: string }[];
  for (const key of ['basic', 'plus'] as const) plan[key].price = plans.find((p) => p.id === plan[key].id)!.provider_price_id;
  assert.match(plan.basic.price, /^price_standin/);
  // Prices are made on the owner's account, never the platform's.
  assert.ok(stripe.log.filter((r) => r.path === '/v1/prices' || r.path === '/v1/products').every((r) => r.account === account));
});
afterEach(() => assertBalancesMatchLedger(f.t));
after(async () => {
  await f.t.close();
  await stripe.close();
});

const billing = async (browser: TenantBrowser) => expectPage(await browser.get('/billing'), /^Billing$/);
const detailOf = async (customerId: string) => (await f.owner.client.get(`/apis/${f.apiId}/customers/${customerId}`)).body;
const entriesOf = async (customerId: string, kind: string) =>
  ((await f.owner.client.get(`/apis/${f.apiId}/ledger?customer_id=${customerId}`)).body.entries as { kind: string; ref: string; amount_micro: number }[]).filter((e) => e.kind === kind).map((e) => [e.ref, e.amount_micro]);

/** The log from here on: the requests a step made. */
function mark(): () => StandinRequest[] {
  const from = stripe.log.length;
  return () => stripe.log.slice(from);
}

/** A portal form whose answer sends the browser to the stand-in's hosted checkout; the session id. */
function checkoutSessionOf(answer: { leftTo?: URL | null; status: number; html: string }): string {
  assert.ok(answer.leftTo, `redirected to the hosted checkout (got ${answer.status} ${answer.html.slice(0, 200)})`);
  assert.equal(answer.leftTo.origin, 'https://checkout.standin.test');
  return answer.leftTo.pathname.slice(1);
}

test('top-up: a checkout session of the amount on the connected account; its completion event credits once; the receipt link is read from the charge', async () => {
  const o = await customerOwner(f, 'Tess Topup');
  const before = (await detailOf(o.customerId)).balance_micro as number;
  const step = mark();
  const session = checkoutSessionOf(await o.browser.submit(await billing(o.browser), 'topup-2500'));
  const calls = step();
  assert.deepEqual(calls.map((r) => `${r.method} ${r.path}`), ['POST /v1/customers', 'POST /v1/checkout/sessions']);
  assert.ok(calls.every((r) => r.account === account), 'both on the connected account');
  const [customer, created] = calls as [StandinRequest, StandinRequest];
  assert.deepEqual([customer.form.email, customer.form['metadata[gh_customer]'], customer.idempotencyKey], [o.person.email, o.customerId, `gh-customer-${o.customerId}`]);
  assert.deepEqual(
    [created.form.mode, created.form.customer, created.form['line_items[0][price_data][unit_amount]'], created.form['line_items[0][price_data][currency]'], created.form['metadata[gh_kind]'], created.form['metadata[gh_customer]'], created.form['payment_intent_data[metadata][gh_api]']],
    ['payment', 'cus_standin' + created.form.customer!.slice('cus_standin'.length), '2500', 'usd', 'topup', o.customerId, f.apiId],
  );
  assert.equal(await detailOf(o.customerId).then((d) => d.balance_micro), before, 'nothing before the event');

  const completed = { id: session, object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', amount_total: 2500, currency: 'usd', customer: created.form.customer, metadata: { gh_kind: 'topup', gh_api: f.apiId, gh_customer: o.customerId } };
  const receiptStep = mark();
  assert.equal((await connectEvent('checkout.session.completed', completed)).duplicate, false);
  assert.equal((await connectEvent('checkout.session.completed', completed)).duplicate, false, 'another event id: applied, and the same payment adds nothing');
  assert.equal((await detailOf(o.customerId)).balance_micro, before + 25_000_000);
  assert.deepEqual(await entriesOf(o.customerId, 'topup'), [[session, 25_000_000]]);

  // The return page, and the receipt: read from the session's charge on the connected account.
  const back = new URL(created.form.success_url!.replace('{CHECKOUT_SESSION_ID}', session));
  assert.equal(textById(expectPage(await o.browser.get(`${back.pathname}${back.search}`), /^Billing$/).html, 'billing-notice'), 'Payment received: $25.00. 25.00 was added to your balance.');
  await mailSettled(f);
  const receipt = receiptStep().find((r) => r.path === `/v1/checkout/sessions/${session}`)!;
  assert.deepEqual([receipt.method, receipt.account, receipt.form['expand[0]']], ['GET', account, 'payment_intent.latest_charge']);
  const mail = await f.t.mail.waitFor(o.person.email, /Your receipt from Stripe Portal API: \$25\.00/);
  assert.match(mail.text, new RegExp(`https://pay\\.standin\\.test/receipts/${session}`));
  assert.deepEqual(rowsOf((await billing(o.browser)).html, 'receipts-table').map((r) => r.slice(1)), [['Top-up', '$25.00', '+25.00', 'Receipt']]);
});

test('subscribe, switch, cancel: a subscription checkout of the synced price; its events set the plan and each paid invoice credits it, listed with its invoice link', async () => {
  const o = await customerOwner(f, 'Sid Subscriber');
  const before = (await detailOf(o.customerId)).balance_micro as number;
  let step = mark();
  const session = checkoutSessionOf(await o.browser.submit(expectPage(await o.browser.get('/plans'), /^Plans$/), `subscribe-${plan.basic.id}`));
  const created = step().find((r) => r.path === '/v1/checkout/sessions')!;
  assert.deepEqual(step().map((r) => `${r.method} ${r.path}`), ['POST /v1/customers', 'POST /v1/checkout/sessions'], 'the price was synced before: no price is made now');
  assert.deepEqual(
    [created.account, created.form.mode, created.form['line_items[0][price]'], created.form['line_items[0][quantity]'], created.form['subscription_data[metadata][gh_plan]'], created.form['subscription_data[metadata][gh_customer]']],
    [account, 'subscription', plan.basic.price, '1', plan.basic.id, o.customerId],
  );
  assert.match(session, /^cs_standin/);

  const metadata = (planId: string) => ({ gh_kind: 'subscription', gh_api: f.apiId, gh_customer: o.customerId, gh_plan: planId });
  const periodEnd = now() + 30 * 86400;
  const sub = (planId: string, extra: Record<string, unknown> = {}) => ({ id: 'sub_portal1', object: 'subscription', status: 'active', customer: created.form.customer, metadata: metadata(planId), cancel_at_period_end: false, items: { object: 'list', data: [{ id: 'si_sub_portal1', current_period_end: periodEnd }] }, ...extra });
  const invoice = (id: string, planId: string, cents: number) => ({ id, object: 'invoice', status: 'paid', amount_paid: cents, hosted_invoice_url: `https://invoice.standin.test/${id}`, customer: created.form.customer, parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_portal1', metadata: metadata(planId) } } });
  await connectEvent('customer.subscription.created', sub(plan.basic.id));
  await connectEvent('invoice.paid', invoice('in_portal_first', plan.basic.id, 1000));
  let detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.plan_source, detail.subscription_status, detail.effective.rps, detail.balance_micro], [plan.basic.id, 'provider', 'active', 3, before + 5_000_000]);

  // Switch, asked first: the subscription is read and moved to the new price on the connected account.
  const confirm = expectPage(await o.browser.get(`/plans/${plan.plus.id}/switch`), /^Switch to Plus\?$/);
  step = mark();
  expectPage(await o.browser.submit(confirm, 'confirm-switch'), /^Plans$/);
  const switched = step();
  assert.deepEqual(switched.map((r) => `${r.method} ${r.path}`), ['GET /v1/subscriptions/sub_portal1', 'POST /v1/subscriptions/sub_portal1']);
  assert.ok(switched.every((r) => r.account === account));
  assert.deepEqual([switched[1]!.form['items[0][id]'], switched[1]!.form['items[0][price]'], switched[1]!.form['metadata[gh_plan]'], switched[1]!.form.cancel_at_period_end], ['si_sub_portal1', plan.plus.price, plan.plus.id, 'false']);
  await connectEvent('customer.subscription.updated', sub(plan.plus.id), now() + 1);
  await connectEvent('invoice.paid', invoice('in_portal_switch', plan.plus.id, 2000));
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.effective.rps, detail.balance_micro], [plan.plus.id, 30, before + 17_000_000]);
  assert.deepEqual(await entriesOf(o.customerId, 'plan_credit'), [['in_portal_switch', 12_000_000], ['in_portal_first', 5_000_000]]);

  // Cancel, asked first: at the end of the period, on the connected account.
  step = mark();
  expectPage(await o.browser.submit(expectPage(await o.browser.get('/plans/cancel'), /^Cancel Plus\?$/), 'confirm-cancel'), /^Plans$/);
  const canceled = step();
  assert.deepEqual(canceled.map((r) => [r.method, r.path, r.account, r.form.cancel_at_period_end]), [['POST', '/v1/subscriptions/sub_portal1', account, 'true']]);
  await connectEvent('customer.subscription.updated', sub(plan.plus.id, { cancel_at_period_end: true }), now() + 2);
  assert.deepEqual([(await detailOf(o.customerId)).plan_id, (await detailOf(o.customerId)).subscription_status], [plan.plus.id, 'active'], 'the plan holds until the period ends');
  await connectEvent('customer.subscription.deleted', sub(plan.plus.id, { status: 'canceled', cancel_at_period_end: true }), now() + 3);
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.subscription_status, detail.effective.source], [undefined, 'canceled', 'payg']);

  // The paid invoices are the customer's receipts, with the provider's invoice pages.
  const page = await billing(o.browser);
  assert.deepEqual(rowsOf(page.html, 'receipts-table').map((r) => r.slice(1)).sort(), [['Plan Basic', '$10.00', '+5.00', 'Invoice'], ['Plan Plus', '$20.00', '+12.00', 'Invoice']]);
  for (const id of ['in_portal_first', 'in_portal_switch']) assert.match(page.html, new RegExp(`<tr id="receipt-${id}" data-kind="plan">[\\s\\S]*?href="https://invoice\\.standin\\.test/${id}"`));
});

test('auto-recharge: a setup session saves the card; below the threshold the job charges it off-session on the connected account, once; the success event credits', async () => {
  const o = await customerOwner(f, 'Ari Recharge');
  let step = mark();
  const session = checkoutSessionOf(await o.browser.submit(await billing(o.browser), 'save-card'));
  const setup = step().find((r) => r.path === '/v1/checkout/sessions')!;
  assert.deepEqual([setup.account, setup.form.mode, setup.form.currency, setup.form['setup_intent_data[metadata][gh_kind]'], setup.form['setup_intent_data[metadata][gh_customer]']], [account, 'setup', 'usd', 'setup', o.customerId]);
  assert.match(session, /^cs_standin/);
  await connectEvent('setup_intent.succeeded', { id: 'seti_portal', object: 'setup_intent', status: 'succeeded', customer: setup.form.customer, payment_method: 'pm_portal_card', metadata: { gh_kind: 'setup', gh_api: f.apiId, gh_customer: o.customerId } });
  assert.equal((await detailOf(o.customerId)).auto_recharge.has_card, true);

  const saved = await o.browser.submit(await billing(o.browser), 'auto-recharge-save', { enabled: 'on', threshold: '5.00', amount: '20.00' });
  assert.ok(saved.status < 400, saved.html.slice(0, 300));
  assert.deepEqual((await detailOf(o.customerId)).auto_recharge, { enabled: true, threshold_micro: 5_000_000, amount_cents: 2000, has_card: true });
  // At the threshold nothing; one micro unit below, one charge.
  const setBalance = async (micro: number) => {
    const delta = micro - ((await detailOf(o.customerId)).balance_micro as number);
    if (delta) assert.equal((await f.owner.client.post(`/apis/${f.apiId}/customers/${o.customerId}/credit`, { amount_micro: delta, note: 'test balance' })).status, 200);
  };
  await setBalance(5_000_000);
  step = mark();
  await f.t.services.payments.autoRecharge.chargeDue();
  assert.deepEqual(step().filter((r) => r.path === '/v1/payment_intents'), []);
  await setBalance(4_999_999);
  step = mark();
  await f.t.services.payments.autoRecharge.chargeDue();
  await f.t.services.payments.autoRecharge.chargeDue();
  const charges = step().filter((r) => r.path === '/v1/payment_intents');
  assert.equal(charges.length, 1, 'one charge, and none again within the cool-down');
  const charge = charges[0]!;
  assert.deepEqual(
    [charge.method, charge.account, charge.form.amount, charge.form.currency, charge.form.customer, charge.form.payment_method, charge.form.off_session, charge.form.confirm, charge.form['metadata[gh_kind]'], charge.form['metadata[gh_customer]']],
    ['POST', account, '2000', 'usd', setup.form.customer, 'pm_portal_card', 'true', 'true', 'auto_recharge', o.customerId],
  );
  assert.ok(charge.idempotencyKey, 'a retried charge is the same charge');
  // The stand-in answered succeeded; the credit comes with the event, once.
  const intent = { id: 'pi_standin_portal', object: 'payment_intent', status: 'succeeded', amount: 2000, amount_received: 2000, currency: 'usd', customer: setup.form.customer, metadata: { gh_kind: 'auto_recharge', gh_api: f.apiId, gh_customer: o.customerId } };
  await connectEvent('payment_intent.succeeded', intent);
  await connectEvent('payment_intent.succeeded', intent);
  assert.equal((await detailOf(o.customerId)).balance_micro, 4_999_999 + 20_000_000);
  assert.deepEqual(await entriesOf(o.customerId, 'auto_recharge'), [['pi_standin_portal', 20_000_000]]);
  await mailSettled(f);
  assert.deepEqual(rowsOf((await billing(o.browser)).html, 'receipts-table').map((r) => r.slice(1)), [['Automatic top-up', '$20.00', '+20.00', 'Receipt']]);
});
