// Refunds and disputes take credit back (issue 23 item 5), with the development provider's test
// pages driven over HTTP as a browser would: `charge.refunded` (full or partial; the cumulative
// amount means a second partial refund takes only the difference), `charge.dispute.created`
// (kind dispute) and `charge.dispute.closed` won (kind dispute_won). Each entry's ref is the
// provider's object id, so replays add nothing; the balance may go negative.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { devWebhookSecret } from '../../src/payments/dev-provider.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, customerDetail, type ApiFixture } from '../support/money.js';
import { assertMoneyInvariants, eventJson, postEvent } from '../support/payments.js';
import { clickDevCheckout, devPaymentAction } from '../support/portal-payments.js';

let t: TestApp;
let api: ApiFixture;
let account: string;
const urls = { successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' };

before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Refund API', preset: 'payg' });
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  account = (await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.account_id;
  // An endpoint, so the owner events raised are kept and can be read back.
  const endpoint = await api.owner.client.post(`/apis/${api.apiId}/webhooks`, { url: 'https://hooks.example.com/gatehouse', event_types: ['payment.refunded'] });
  assert.equal(endpoint.status, 200, endpoint.text);
});
afterEach(() => assertMoneyInvariants(t));
after(() => t.close());

const entries = async (customerId: string, kind: string) =>
  ((await api.owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customerId}&kind=${kind}`)).body.entries ?? []) as { ref: string; amount_micro: number; kind: string }[];

async function paidTopUp(amountCents: number) {
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  assert.equal((await clickDevCheckout(checkout.value.url, 'pay')).status, 303);
  const sessionId = checkout.value.url.split('/').pop()!;
  return { customer, sessionId, paidBalance: customer.balance_micro + amountCents * 10_000 };
}

test('a partial refund on the test page takes its share back; a second takes only the difference; the receipts list shows it', async () => {
  const { customer, sessionId, paidBalance } = await paidTopUp(1000);
  const receiptPage = `${t.url}/dev/payments/receipts/${sessionId}`;
  assert.equal((await devPaymentAction(t, receiptPage, 'refund_half')).status, 303);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, paidBalance - 5_000_000);
  assert.equal((await devPaymentAction(t, receiptPage, 'refund')).status, 303);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, paidBalance - 10_000_000);
  const refunds = await entries(customer.id, 'refund');
  assert.deepEqual(refunds.map((e) => e.amount_micro).sort(), [-5_000_000, -5_000_000]);
  assert.ok(refunds.every((e) => /^re_dev_/.test(e.ref)), JSON.stringify(refunds));
  assert.equal(new Set(refunds.map((e) => e.ref)).size, 2);
  // Nothing is left to refund: the page offers no refund, a post of one changes nothing.
  const page = await (await fetch(receiptPage)).text();
  assert.match(page, /Refunded \$10\.00 of \$10\.00/);
  assert.doesNotMatch(page, /data-action="refund"/);
  await devPaymentAction(t, receiptPage, 'refund', { expectButton: false });
  assert.equal((await customerDetail(api, customer.id)).balance_micro, paidBalance - 10_000_000);
  const receipt = (await t.services.payments.receipts.list(api.apiId, customer.id)).find((r) => r.ref === sessionId)!;
  assert.deepEqual([receipt.refundedCents, receipt.refundedCreditMicro], [1000, 10_000_000]);
  // The owner hears of each refund: payment.refunded, the cumulative amount refunded.
  // Read from the events table: the catch-up listing waits for every older transaction on a shared test server.
  const { rows } = await sql<{ payload: string }>`select payload from webhook_events where api_id = ${api.apiId} and type = 'payment.refunded' order by seq`.execute(t.services.db);
  const events = rows.map((r) => JSON.parse(r.payload) as { data: { object: { id: string; amount_cents: number; status: string } } });
  const mine = events.filter((e) => e.data.object.id === sessionId).map((e) => [e.data.object.status, e.data.object.amount_cents]);
  assert.deepEqual(mine, [['refunded', 500], ['refunded', 1000]]);
});

test('20 copies of a refund event at once, and the same refund under another event id, take credit back once', async () => {
  const { customer, sessionId, paidBalance } = await paidTopUp(2500);
  const charge = (refunded: number, refunds: { id: string; amount: number; created: number }[]) => ({
    id: `ch_pi_${sessionId}`, object: 'charge', amount: 2500, amount_refunded: refunded, payment_intent: `pi_${sessionId}`, status: 'succeeded', refunds: { object: 'list', data: refunds },
  });
  const created = Math.floor(t.clock.now().getTime() / 1000);
  const secret = devWebhookSecret(t.services.config.secretKey);
  const payload = eventJson('charge.refunded', charge(1000, [{ id: 're_copy1', amount: 1000, created }]), { account, created });
  const answers = await Promise.all(Array.from({ length: 20 }, () => postEvent(t, '/webhooks/payments/dev', payload, secret)));
  assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
  assert.equal((await customerDetail(api, customer.id)).balance_micro, paidBalance - 10_000_000);
  // Another event id for the same refund; then an older event that saw less refunded.
  await postEvent(t, '/webhooks/payments/dev', eventJson('charge.refunded', charge(1000, [{ id: 're_copy1', amount: 1000, created }]), { account, created }), secret);
  await postEvent(t, '/webhooks/payments/dev', eventJson('charge.refunded', charge(400, []), { account, created }), secret);
  assert.deepEqual((await entries(customer.id, 'refund')).map((e) => [e.ref, e.amount_micro]), [['re_copy1', -10_000_000]]);
  // A second refund whose event names no refund object: keyed on the charge and the cumulative amount.
  const second = eventJson('charge.refunded', charge(1500, []), { account, created: created + 1 });
  await Promise.all(Array.from({ length: 5 }, () => postEvent(t, '/webhooks/payments/dev', second, secret)));
  await postEvent(t, '/webhooks/payments/dev', second.replace(/"id":"evt_[^"]+"/, '"id":"evt_again2"'), secret);
  assert.deepEqual((await entries(customer.id, 'refund')).map((e) => [e.ref, e.amount_micro]).sort(), [[`ch_pi_${sessionId}:refunded:1500`, -5_000_000], ['re_copy1', -10_000_000]]);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, paidBalance - 15_000_000);
});

test('a refund from another account, or of a payment that is not ours, changes nothing', async () => {
  const { customer, sessionId, paidBalance } = await paidTopUp(1000);
  const secret = devWebhookSecret(t.services.config.secretKey);
  const charge = (pi: string) => ({ id: `ch_${pi}`, object: 'charge', amount: 1000, amount_refunded: 1000, payment_intent: pi, refunds: { object: 'list', data: [] } });
  const other = await postEvent(t, '/webhooks/payments/dev', eventJson('charge.refunded', charge(`pi_${sessionId}`), { account: 'acct_dev_someoneelse' }), secret);
  assert.equal(other.status, 200);
  await postEvent(t, '/webhooks/payments/dev', eventJson('charge.refunded', charge('pi_unknown'), { account }), secret);
  await postEvent(t, '/webhooks/payments/dev', eventJson('charge.refunded', charge(`pi_${sessionId}`), {}), secret);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, paidBalance);
  assert.deepEqual(await entries(customer.id, 'refund'), []);
});

test('a dispute takes the credit (the balance may go negative); closed as won gives it back; lost keeps it taken', async () => {
  const won = await paidTopUp(1000);
  // The customer spends most of it first: the dispute then takes the balance below zero.
  const spent = await api.owner.client.post(`/apis/${api.apiId}/customers/${won.customer.id}/credit`, { amount_micro: -(won.paidBalance - 1_000_000), note: 'spent' });
  assert.equal(spent.status, 200, spent.text);
  const page = `${t.url}/dev/payments/receipts/${won.sessionId}`;
  await devPaymentAction(t, page, 'dispute');
  assert.equal((await customerDetail(api, won.customer.id)).balance_micro, 1_000_000 - 10_000_000);
  const snapshot = (await api.sdk.get('/sdk/v1/snapshot?shape=full')).body.customers.find((c: { id: string }) => c.id === won.customer.id);
  assert.equal(snapshot.credit_balance_micro, -9_000_000, 'the SDK sees the negative balance (and refuses billable requests)');
  await devPaymentAction(t, page, 'dispute_won');
  assert.equal((await customerDetail(api, won.customer.id)).balance_micro, 1_000_000);
  const [dispute] = await entries(won.customer.id, 'dispute');
  const [back] = await entries(won.customer.id, 'dispute_won');
  assert.match(dispute!.ref, /^dp_dev_/);
  assert.deepEqual([dispute!.amount_micro, back!.amount_micro, back!.ref], [-10_000_000, 10_000_000, `${dispute!.ref}:won`]);
  assert.match(await (await fetch(page)).text(), /dispute <span id="dispute-status">won<\/span>/);

  const lost = await paidTopUp(2000);
  const lostPage = `${t.url}/dev/payments/receipts/${lost.sessionId}`;
  await devPaymentAction(t, lostPage, 'dispute');
  await devPaymentAction(t, lostPage, 'dispute_lost');
  assert.equal((await customerDetail(api, lost.customer.id)).balance_micro, lost.paidBalance - 20_000_000);
  assert.deepEqual(await entries(lost.customer.id, 'dispute_won'), []);
  // Replays of the dispute's events add nothing.
  const secret = devWebhookSecret(t.services.config.secretKey);
  const [lostDispute] = await entries(lost.customer.id, 'dispute');
  const object = (status: string) => ({ id: lostDispute!.ref, object: 'dispute', amount: 2000, status, payment_intent: `pi_${lost.sessionId}`, charge: `ch_pi_${lost.sessionId}` });
  await postEvent(t, '/webhooks/payments/dev', eventJson('charge.dispute.created', object('needs_response'), { account }), secret);
  await postEvent(t, '/webhooks/payments/dev', eventJson('charge.dispute.closed', object('won'), { account }), secret);
  assert.equal((await customerDetail(api, lost.customer.id)).balance_micro, lost.paidBalance - 20_000_000);
});

test('a refund of a plan invoice takes back the plan credit in proportion; the ledger filters by the new kinds', async () => {
  const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Refundable', price_monthly_cents: 3000, credit_micro: 9_000_000 })).body;
  await t.services.payments.syncPlans(api.apiId);
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: plan.id, ...urls });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  await clickDevCheckout(checkout.value.url, 'pay');
  const receipt = (await t.services.payments.receipts.list(api.apiId, customer.id))[0]!;
  assert.equal(receipt.kind, 'plan');
  const invoicePage = `${t.url}/dev/payments/invoices/${receipt.ref}`;
  await devPaymentAction(t, invoicePage, 'refund_half');
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.balance_micro, customer.balance_micro + 9_000_000 - 4_500_000);
  for (const kind of ['refund', 'dispute', 'dispute_won']) assert.equal((await api.owner.client.get(`/apis/${api.apiId}/ledger?kind=${kind}`)).status, 200);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/ledger?kind=refunded`)).status, 422);
});
