// Every event of issue 24 item 4 raised by its real cause, part four: a customer's subscription
// through the development provider, driven on the portal as a customer would (its test checkout,
// through the same signed webhook path as Stripe's events): created, renewed, switched to another
// plan, canceled at the end of its period, and past due after a declined renewal.
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
  f = await startIssuer('Subscription Causes API', { UNSAFE_OUTBOUND_PRIVATE: 'true' });
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

test('a subscription: created, renewed, switched to another plan, canceled at the end of its period', async () => {
  const o = await customerOwner(f, 'Sam Subscriber');
  const created = await raisedBy(o.customerId, () => checkout(o.browser, '/plans', `subscribe-${plan.basic.id}`, 'pay'));
  assert.deepEqual(typesOf(created), ['credit.added', 'payment.succeeded', 'subscription.created']);
  const subscription = ofType(created, 'subscription.created').object;
  assert.deepEqual([subscription.object, subscription.plan_id, subscription.status], ['subscription', plan.basic.id, 'active']);
  assert.equal(ofType(created, 'payment.succeeded').object.kind, 'plan');
  assert.equal(ofType(created, 'credit.added').object.kind, 'plan_credit');

  const renewed = await raisedBy(o.customerId, () => endPeriod(o.customerId));
  assert.deepEqual(typesOf(renewed), ['credit.added', 'payment.succeeded', 'subscription.renewed']);
  const next = ofType(renewed, 'subscription.renewed');
  assert.ok(new Date(next.object.current_period_end) > new Date(next.previous.current_period_end));
  assert.ok(next.object.updated_seq > subscription.updated_seq);

  const browser = await signInAgain(f, o.person.id);
  const switched = await raisedBy(o.customerId, async () => {
    const confirm = expectPage(await browser.get(`/plans/${plan.pro.id}/switch`), /^Switch to Pro\?$/);
    expectPage(await browser.submit(confirm, 'confirm-switch'), /^Plans$/);
  });
  assert.deepEqual(typesOf(switched), ['subscription.plan_changed']);
  assert.deepEqual([switched[0]!.data.object.plan_id, switched[0]!.data.previous.plan_id], [plan.pro.id, plan.basic.id]);

  expectPage(await browser.submit(expectPage(await browser.get('/plans/cancel'), /^Cancel Pro\?$/), 'confirm-cancel'), /^Plans$/);
  const canceled = await raisedBy(o.customerId, () => endPeriod(o.customerId));
  assert.deepEqual(typesOf(canceled), ['subscription.canceled']);
  assert.deepEqual([canceled[0]!.data.object.status, canceled[0]!.data.object.plan_id, canceled[0]!.data.previous.status], ['canceled', null, 'active']);
});

test('a renewal the card declines: subscription.past_due and payment.failed', async () => {
  const o = await customerOwner(f, 'Dee Declined');
  await checkout(o.browser, '/plans', `subscribe-${plan.basic.id}`, 'pay_declining');
  const declined = await raisedBy(o.customerId, () => endPeriod(o.customerId));
  assert.deepEqual(typesOf(declined), ['payment.failed', 'subscription.past_due']);
  const payment = ofType(declined, 'payment.failed').object;
  assert.match(payment.id, /^in_dev_/);
  assert.deepEqual([payment.kind, payment.status, payment.credit_micro, payment.updated_seq], ['plan', 'failed', 0, 1]);
  assert.deepEqual([ofType(declined, 'subscription.past_due').object.status, ofType(declined, 'subscription.past_due').previous.status], ['past_due', 'active']);
});

test('these causes raised their events, and each reached the receiver, signed, under its event id', async () => {
  assert.deepEqual([...recorder.seen].sort(), [...new Set(CAUSES.subscriptions)].sort());
  await assertAllDelivered(f.t, receiver, endpoint, await storedEvents(f.t, f.apiId));
});
