// A customer's subscription and payments on its console page (issue 29), with the development
// provider: the status and the period's end; the paid invoice with the provider's page; half of it
// refunded in the provider's dashboard, shown on the payment and as a refund in the ledger; the
// subscription switched to another plan, canceled at the period's end and kept, then ended at once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { createApi, createCustomer, type ApiFixture } from '../../server/test/support/money.js';
import { clickDevCheckout, devPaymentAction } from '../../server/test/support/portal-payments.js';
import { newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';
import { assertRequestsOnOpen } from './support/workspace-pages.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

test('customer: subscription status and period end, invoice with its link, a refund in the ledger, switch, cancel and keep, end now', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const api = (await createApi(f.t, { name: 'Subscribed API', preset: 'subscriptions' }, owner)) as ApiFixture;
  assert.equal((await owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  const basic = (await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Basic', price_monthly_cents: 1000, credit_micro: 1_000_000 })).body as { id: string };
  const plus = (await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Plus', price_monthly_cents: 3000, credit_micro: 4_000_000 })).body as { id: string };
  await f.t.services.payments.syncPlans(api.apiId);
  const customer = await createCustomer(f.t, api, 'Hooli');
  const checkout = await f.t.services.payments.checkoutSubscription({ apiId: api.apiId, customerId: customer.id, planId: basic.id, successUrl: 'http://portal.example/done', cancelUrl: 'http://portal.example/back' });
  assert.ok(checkout.ok, JSON.stringify(checkout));
  await clickDevCheckout(checkout.value.url, 'pay');
  const detail = async () => (await owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body as { plan_id?: string; subscription_status?: string; subscription_period_end?: string; subscription_cancel_at_period_end?: boolean; balance_micro: number };
  const before = await detail();
  assert.deepEqual([before.plan_id, before.subscription_status, before.subscription_cancel_at_period_end], [basic.id, 'active', false]);

  const path = `/apis/${api.apiId}/customers/${customer.id}`;
  await assertRequestsOnOpen(page, path, 'customer');
  const subscription = page.getByTestId('subscription');
  await subscription.getByText('active').waitFor();
  await subscription.getByText(`current period ends ${new Date(before.subscription_period_end!).toISOString().slice(0, 16).replace('T', ' ')} UTC`).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Change plan' }).count(), 0, 'a provider subscription is not changed by hand');

  // The paid invoice, with the provider's page; half of it refunded there.
  await page.getByRole('button', { name: 'Show payments' }).click();
  const invoice = page.locator('tbody tr', { hasText: 'Plan invoice' });
  await invoice.getByText('$10.00').waitFor();
  const invoiceUrl = (await invoice.getByRole('link', { name: /^Invoice/ }).getAttribute('href'))!;
  assert.match(invoiceUrl, /\/dev\/payments\/invoices\//);
  await shotAndCheck(f, page, '1-subscribed');
  assert.equal((await devPaymentAction(f.t, invoiceUrl, 'refund_half')).status, 303);
  await page.reload();
  await page.getByRole('button', { name: 'Show payments' }).click();
  await invoice.getByText('partially refunded').waitFor();
  await invoice.getByText('$5.00 refunded').waitFor();
  await invoice.getByText('0.50 credit taken back').waitFor();
  await shotAndCheck(f, page, '2-refunded');
  await page.getByRole('link', { name: 'ledger', exact: true }).click();
  await page.locator('tbody tr', { hasText: 'Refund' }).first().waitFor();
  await shotAndCheck(f, page, '3-ledger-refund');
  await page.goBack();

  // Switched to Plus.
  await page.getByRole('button', { name: 'Switch plan' }).click();
  const form = page.getByRole('form', { name: 'Switch the subscription' });
  await form.getByLabel('Switch to').selectOption(plus.id);
  await form.getByRole('button', { name: 'Switch plan' }).click();
  await page.getByTestId('plan').getByText('Plus').waitFor();
  assert.equal((await detail()).plan_id, plus.id);

  // Canceled at the period's end, then kept.
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel the subscription of Hooli' });
  await cancel.getByText('You can undo this until then.').waitFor();
  await shotAndCheck(f, page, '4-cancel-dialog');
  await cancel.getByRole('button', { name: 'Cancel at period end' }).click();
  await page.getByTestId('subscription-ends').waitFor();
  assert.equal((await detail()).subscription_cancel_at_period_end, true);
  await shotAndCheck(f, page, '5-canceled-at-period-end');
  await page.getByRole('button', { name: 'Keep the subscription' }).click();
  await page.getByTestId('subscription-ends').waitFor({ state: 'detached' });
  assert.equal((await detail()).subscription_cancel_at_period_end, false);

  // Ended now: the plan goes, and the plan is assigned by hand again.
  await page.getByRole('button', { name: 'End it now' }).click();
  await page.getByRole('dialog', { name: 'End the subscription of Hooli now' }).getByRole('button', { name: 'End subscription now' }).click();
  await page.getByRole('button', { name: 'Change plan' }).waitFor();
  const ended = await detail();
  assert.equal(ended.plan_id, undefined);
  await shotAndCheck(f, page, '6-ended');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
