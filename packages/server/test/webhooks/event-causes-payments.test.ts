// Every event of issue 24 item 4 raised by its real cause, part three: payments through the
// development provider, driven on the portal as a customer would (its test checkout, through the
// same signed webhook path as Stripe's events): a top-up, and an automatic top-up that fails.
// payment.refunded has no cause here yet: refunds come with issue 23, which raises it where a
// refund is written (payments/webhook-events.ts raisePaymentRefunded).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestClient } from '../support/client.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { checkoutUrlOf, clickDevCheckout, connectDevPayments, customerOwner, ownerKeyClient, signInAgain } from '../support/portal-payments.js';
import type { TenantBrowser } from '../support/tenant-client.js';
import { addEndpoint, assertAllDelivered, CAUSES, eventRecorder, startReceiver, storedEvents, type Endpoint, type Receiver } from '../support/webhooks.js';

let f: IssuerFixture;
// The clock moves by months: the owner reads through a workspace key, which does not expire.
let owner: TestClient;
let receiver: Receiver;
let endpoint: Endpoint;
const plan: Record<'basic' | 'pro', { id: string }> = {} as never;

before(async () => {
  f = await startIssuer('Paid Causes API', { UNSAFE_OUTBOUND_PRIVATE: 'true' });
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', plans_enabled: true, payg_enabled: true, auto_recharge_allowed: true, topup_amounts_cents: [1000], min_topup_cents: 500 });
  assert.equal(set.status, 200, set.text);
  for (const [name, body] of [['basic', { name: 'Basic', price_monthly_cents: 1000, credit_micro: 5_000_000 }], ['pro', { name: 'Pro', price_monthly_cents: 2500, credit_micro: 20_000_000 }]] as const) {
    const made = await f.owner.client.post(`/apis/${f.apiId}/plans`, body);
    assert.equal(made.status, 200, made.text);
    plan[name] = made.body;
  }
  await connectDevPayments(f);
  owner = await ownerKeyClient(f);
  receiver = await startReceiver();
  endpoint = await addEndpoint(f.owner.client, f.apiId, receiver.url);
});
after(async () => {
  await receiver.close();
  await f.t.close();
});

const recorder = eventRecorder(() => storedEvents(f.t, f.apiId));
/** The events about one customer that `cause` raised, in order. */
const raisedBy = async (customerId: string, cause: () => Promise<unknown>) =>
  (await recorder.raisedBy(cause)).filter((e) => (e.data.object.customer_id ?? e.data.object.id) === customerId);
const typesOf = (events: { type: string }[]) => events.map((e) => e.type).sort();
const ofType = (events: { type: string; data: any }[], type: string) => events.find((e) => e.type === type)!.data;

async function checkout(browser: TenantBrowser, path: string, button: string, outcome: string) {
  const paid = await clickDevCheckout(checkoutUrlOf(f, await browser.submit(expectPage(await browser.get(path), /./), button)), outcome);
  assert.equal(paid.status, 303);
}
const periodEndOf = async (customerId: string) => new Date((await owner.get(`/apis/${f.apiId}/customers/${customerId}`)).body.subscription_period_end).getTime();
async function endPeriod(customerId: string) {
  f.t.clock.advance((await periodEndOf(customerId)) + 1000 - f.t.clock.now().getTime());
  assert.ok((await f.t.services.devProvider!.renewDue()) >= 1);
}

test('a top-up paid on the test checkout: payment.succeeded and credit.added', async () => {
  const o = await customerOwner(f, 'Tom Topup');
  const events = await raisedBy(o.customerId, () => checkout(o.browser, '/billing', 'topup-1000', 'pay'));
  assert.deepEqual(typesOf(events), ['credit.added', 'payment.succeeded']);
  const payment = ofType(events, 'payment.succeeded').object;
  assert.match(payment.id, /^cs_dev_/);
  assert.deepEqual([payment.kind, payment.status, payment.amount_cents, payment.credit_micro, payment.updated_seq], ['topup', 'succeeded', 1000, 10_000_000, 2]);
  const credit = ofType(events, 'credit.added').object;
  assert.deepEqual([credit.kind, credit.amount_micro, credit.ref], ['topup', 10_000_000, payment.id]);
});

test('an automatic top-up the card declines: auto_recharge.failed and payment.failed, once', async () => {
  const o = await customerOwner(f, 'Dan Declined');
  const saved = await clickDevCheckout(checkoutUrlOf(f, await o.browser.submit(expectPage(await o.browser.get('/billing'), /^Billing$/), 'save-card')), 'save_declining');
  assert.equal(saved.status, 303);
  const on = await o.browser.submit(expectPage(await o.browser.get('/billing'), /^Billing$/), 'auto-recharge-save', { enabled: 'on', threshold: '5.00', amount: '10.00' });
  assert.equal(on.status, 200);
  assert.ok((await owner.get(`/apis/${f.apiId}/customers/${o.customerId}`)).body.balance_micro < 5_000_000, 'below the threshold');
  const failed = await raisedBy(o.customerId, () => f.t.services.payments.autoRecharge.chargeDue());
  assert.deepEqual(typesOf(failed), ['auto_recharge.failed', 'payment.failed']);
  const payment = ofType(failed, 'auto_recharge.failed').object;
  assert.deepEqual([payment.kind, payment.status, payment.amount_cents], ['auto_recharge', 'failed', 1000]);
  assert.ok(payment.failure_reason);
  assert.deepEqual(typesOf(await raisedBy(o.customerId, () => f.t.services.payments.autoRecharge.chargeDue())), [], 'paused: no second charge, no second event');
});

test('these causes raised their events, and each reached the receiver, signed, under its event id', async () => {
  assert.deepEqual([...recorder.seen].sort(), [...new Set(CAUSES.payments)].sort());
  await assertAllDelivered(f.t, receiver, endpoint, await storedEvents(f.t, f.apiId));
});
