// The development provider (issue 13 item 1): connecting succeeds at once, its checkout page is a
// test page on the service that pays or fails on a click, and what happens arrives as signed
// events through the webhook path. Driven over HTTP, as a browser would.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { devWebhookSecret } from '../../src/payments/dev-provider.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, customerDetail, type ApiFixture } from '../support/money.js';
import { assertBalancesMatchLedger, countRows, eventJson, postEvent } from '../support/payments.js';
import { clickDevCheckout as click } from '../support/portal-payments.js';

let t: TestApp;
let api: ApiFixture;
const urls = { successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' };

before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Dev Pay API', preset: 'payg' });
  const connected = await api.owner.client.post(`/apis/${api.apiId}/payments/connect`);
  assert.equal(connected.status, 200, connected.text);
});
afterEach(() => assertBalancesMatchLedger(t));
after(() => t.close());

test('connecting succeeds at once: PaymentsOut connected and taking charges, payments_ready, audited', async () => {
  const out = await api.owner.client.get(`/apis/${api.apiId}/payments`);
  assert.equal(out.status, 200, out.text);
  assert.equal(out.body.configured, true);
  assert.equal(out.body.connected, true);
  assert.equal(out.body.charges_enabled, true);
  assert.equal(out.body.livemode, false);
  assert.match(out.body.account_id, /^acct_dev_/);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}`)).body.payments.charges_enabled, true);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/connection`)).body.payments_ready, true);
});

test('a top-up on the test page: pay adds cents × 10,000 micro units once; a second click adds nothing', async () => {
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 1000, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  const paid = await click(checkout.value.url, 'pay');
  assert.equal(paid.status, 303);
  assert.equal(paid.location, urls.successUrl);
  assert.match(paid.page, /\$10\.00/);
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.balance_micro, customer.balance_micro + 10_000_000);
  const entries = (await api.owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}`)).body.entries;
  const topup = entries.find((e: { kind: string }) => e.kind === 'topup');
  assert.equal(topup.amount_micro, 10_000_000);
  assert.match(topup.ref, /^cs_dev_/);
  // The page is complete now: a second post finds nothing open.
  const again = await fetch(checkout.value.url, { method: 'POST', redirect: 'manual' });
  assert.equal(again.status, 403);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 10_000_000);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/stats`)).body.topups_month_micro, 10_000_000);
});

test('declining on the test page adds nothing and the session stays open to try again', async () => {
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 2500, ...urls });
  assert.ok(checkout.ok);
  const declined = await click(checkout.value.url, 'fail');
  assert.equal(declined.status, 303);
  assert.match(declined.location!, /declined=1/);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro);
  const retried = await click(checkout.value.url, 'pay');
  assert.equal(retried.status, 303);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 25_000_000);
});

test('top-up amounts: the API minimum and 100,000 cents are accepted, one cent either side refused', async () => {
  const customer = await createCustomer(t, api);
  const min = (await api.owner.client.get(`/apis/${api.apiId}`)).body.min_topup_cents as number;
  for (const [amountCents, accepted] of [[min - 1, false], [min, true], [100_000, true], [100_001, false]] as const) {
    const checkout = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents, ...urls });
    assert.equal(checkout.ok, accepted, `${amountCents} cents`);
    if (!checkout.ok) assert.equal(checkout.code, 'validation');
  }
});

test('20 identical webhooks at once credit once; a bad signature is a 400 and changes nothing', async () => {
  const customer = await createCustomer(t, api);
  const account = (await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.account_id as string;
  const secret = devWebhookSecret(t.services.config.secretKey);
  const payload = eventJson('checkout.session.completed', {
    id: 'cs_dev_concurrent1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 700, customer: 'cus_dev_x',
    metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customer.id },
  }, { account });
  const events = await countRows(t, 'payment_events');
  const bad = await postEvent(t, '/webhooks/payments/dev', payload, 'whsec_wrong');
  assert.equal(bad.status, 400, bad.text);
  const tampered = await postEvent(t, '/webhooks/payments/dev', payload.replace('700', '900'), secret, { signature: (await import('stripe')).default.webhooks.generateTestHeaderString({ payload, secret }) });
  assert.equal(tampered.status, 400);
  assert.equal(await countRows(t, 'payment_events'), events);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro);
  const answers = await Promise.all(Array.from({ length: 20 }, () => postEvent(t, '/webhooks/payments/dev', payload, secret)));
  assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
  assert.equal(answers.filter((a) => a.body.duplicate === false).length, 1);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 7_000_000);
  // The same payment under another event id adds nothing either: the ref is the session's id.
  const other = await postEvent(t, '/webhooks/payments/dev', payload.replace(/"id":"evt_[^"]+"/, '"id":"evt_other"'), secret);
  assert.equal(other.status, 200);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 7_000_000);
});

test('a signature older than 5 minutes is refused, one within them accepted', async () => {
  const customer = await createCustomer(t, api);
  const account = (await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.account_id as string;
  const secret = devWebhookSecret(t.services.config.secretKey);
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const event = (id: string) => eventJson('checkout.session.completed', { id, object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 500, metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customer.id } }, { account });
  assert.equal((await postEvent(t, '/webhooks/payments/dev', event('cs_dev_old'), secret, { timestamp: now - 302 })).status, 400);
  assert.equal((await postEvent(t, '/webhooks/payments/dev', event('cs_dev_recent'), secret, { timestamp: now - 290 })).status, 200);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 5_000_000);
});

test('an event from an account not connected to the API credits nothing', async () => {
  const customer = await createCustomer(t, api);
  const secret = devWebhookSecret(t.services.config.secretKey);
  const payload = eventJson('checkout.session.completed', { id: 'cs_dev_forged', object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 100000, metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customer.id } }, { account: 'acct_dev_someone_else' });
  assert.equal((await postEvent(t, '/webhooks/payments/dev', payload, secret)).status, 200);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro);
});

test('a saved card: has_card, then an auto-recharge charge credits once; a declining card sets failed_at', async () => {
  await api.owner.client.patch(`/apis/${api.apiId}`, { auto_recharge_allowed: true });
  const customer = await createCustomer(t, api);
  const setup = await t.services.payments.checkoutCardSetup({ apiId: api.apiId, customerId: customer.id, ...urls });
  assert.ok(setup.ok, JSON.stringify(setup));
  assert.equal((await click(setup.value.url, 'save')).status, 303);
  assert.equal((await customerDetail(api, customer.id)).auto_recharge.has_card, true);
  const charge = () => t.services.payments.chargeAutoRecharge({ apiId: api.apiId, customerId: customer.id, amountCents: 2000, idempotencyKey: 'recharge-1' });
  const first = await charge();
  assert.ok(first.ok && first.value.status === 'succeeded', JSON.stringify(first));
  const again = await charge();
  assert.ok(again.ok && again.value.status === 'succeeded');
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.balance_micro, customer.balance_micro + 20_000_000);

  const other = await createCustomer(t, api);
  const setup2 = await t.services.payments.checkoutCardSetup({ apiId: api.apiId, customerId: other.id, ...urls });
  assert.ok(setup2.ok);
  await click(setup2.value.url, 'save_declining');
  const failed = await t.services.payments.chargeAutoRecharge({ apiId: api.apiId, customerId: other.id, amountCents: 2000, idempotencyKey: 'recharge-2' });
  assert.ok(failed.ok && failed.value.status === 'failed');
  const otherDetail = await customerDetail(api, other.id);
  assert.ok(otherDetail.auto_recharge.failed_at);
  assert.equal(otherDetail.balance_micro, other.balance_micro);
});

test('a subscription on the test page: the plan applies and its first invoice adds its credit', async () => {
  await api.owner.client.patch(`/apis/${api.apiId}`, { plans_enabled: true });
  const plan = await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1900, credit_micro: 5_000_000, rps: 50 });
  assert.equal(plan.status, 200, plan.text);
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plan.body.id, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  assert.match((await click(checkout.value.url, 'pay')).page, /\$19\.00 \/ month/);
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.plan_id, plan.body.id);
  assert.equal(detail.plan_source, 'provider');
  assert.equal(detail.subscription_status, 'active');
  assert.ok(detail.subscription_period_end);
  assert.match(detail.provider_customer_id, /^cus_dev_/);
  assert.deepEqual({ source: detail.effective.source, billing: detail.effective.billing_model, rps: detail.effective.rps }, { source: 'plan', billing: 'subscription', rps: 50 });
  assert.equal(detail.balance_micro, customer.balance_micro + 5_000_000);
  const synced = (await api.owner.client.get(`/apis/${api.apiId}/plans`)).body.plans.find((p: { id: string }) => p.id === plan.body.id);
  assert.match(synced.provider_price_id, /^price_dev_/);
  assert.ok(synced.provider_synced_at);
  // Canceling at once ends the plan: limits fall back to the API's.
  const canceled = await t.services.payments.cancelSubscription({ apiId: api.apiId, customerId: customer.id, atPeriodEnd: false });
  assert.ok(canceled.ok);
  const after = await customerDetail(api, customer.id);
  assert.equal(after.subscription_status, 'canceled');
  assert.equal(after.plan_id, undefined);
  assert.equal(after.effective.source, 'payg');
});

test('webhook bodies up to 512 KiB are read; one byte more is a 413 and changes nothing', async () => {
  const customer = await createCustomer(t, api);
  const account = (await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.account_id as string;
  const secret = devWebhookSecret(t.services.config.secretKey);
  const sized = (id: string, bytes: number) => {
    const json = eventJson('checkout.session.completed', { id, object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: 300, metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customer.id } }, { account });
    return json.slice(0, -1) + ' '.repeat(bytes - json.length) + '}';
  };
  const events = await countRows(t, 'payment_events');
  const over = await postEvent(t, '/webhooks/payments/dev', sized('cs_dev_big', 512 * 1024 + 1), secret);
  assert.equal(over.status, 413);
  assert.equal(await countRows(t, 'payment_events'), events);
  const at = await postEvent(t, '/webhooks/payments/dev', sized('cs_dev_limit', 512 * 1024), secret);
  assert.equal(at.status, 200, at.text);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 3_000_000);
});
