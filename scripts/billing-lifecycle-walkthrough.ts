// npm start with: PLATFORM_PLANS_FILE=packages/server/platform-plans.json
// The billing lifecycle end to end against a running server (`npm start`, with the development
// provider, which is on when STRIPE_SECRET_KEY is unset, and the priced catalogue of platform
// plans, PLATFORM_PLANS_FILE=packages/server/platform-plans.json: without one every API is on the
// self-hosted plan and there is nothing to buy), as issue 23 describes it:
// `node --import tsx scripts/billing-lifecycle-walkthrough.ts` (GATEHOUSE=http://localhost:8080;
// CHROMIUM=/usr/bin/chromium).
//   1. An owner buys the starter platform plan, upgrades to growth, then to scale: one live
//      subscription at the provider throughout, billed once for the period plus the prorations.
//   2. The owner cancels: the plan holds to the end of the period; the provider's test clock ends
//      the period and the API is on free, with no further invoice.
//   3. A customer subscribes to Basic on the portal; the owner switches it to Plus from the console
//      API and the provider's subscription follows (one subscription, its plan and price moved).
//   4. The customer tops up 10.00; the owner refunds half on the provider's test page: the balance
//      falls by exactly 5,000,000 micro units.
//   5. The owner deletes the API: every subscription is canceled at the provider, and a month on
//      the test clock makes no further invoice.
// It prints each balance as the sum of its ledger entries and exits 1 on any mismatch.
import type { Page } from 'playwright-core';
import { consoleCall, expect, finish, G, launchChromium, micro, signUpOnPortal, signUpOwner, step, tag, textOf } from './walkthrough-kit.js';

interface ProviderSubscription { id: string; kind: 'platform' | 'customer'; plan: string | null; customer_id: string | null; status: string; amount_cents: number; cancel_at_period_end: boolean; invoices: number }

/** The API's subscriptions as the development provider holds them (its dashboard, offline). */
async function providerSubscriptions(apiId: string): Promise<ProviderSubscription[]> {
  return ((await (await fetch(`${G}/dev/payments/subscriptions.json?api=${apiId}`)).json()) as { subscriptions: ProviderSubscription[] }).subscriptions;
}
const live = (subs: ProviderSubscription[], kind: ProviderSubscription['kind']) => subs.filter((s) => s.kind === kind && ['active', 'past_due', 'trialing'].includes(s.status));

/** Presses a button of one of the provider's test pages, as a browser would (its CSRF cookie and field). */
async function pressTestButton(pageUrl: string, action: string, fields: Record<string, string>): Promise<number> {
  const page = await fetch(pageUrl);
  const html = await page.text();
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const posted = await fetch(new URL(action, G), { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, ...fields }).toString() });
  return posted.status;
}
const payCheckout = (url: string) => pressTestButton(url, new URL(url).pathname, { outcome: 'pay' });
const endPeriodNow = (subscriptionId: string) => pressTestButton(`${G}/dev/payments/subscriptions/${subscriptionId}`, `/dev/payments/subscriptions/${subscriptionId}/end-period`, {});

const owner = `owner-${tag}@example.com`;
const ws = await signUpOwner(owner);
const { api } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Lifecycle ${tag}`, preset: 'payg' });
await consoleCall('PATCH', `/apis/${api.id}`, { plans_enabled: true, signup_mode: 'open' });
const basic = await consoleCall('POST', `/apis/${api.id}/plans`, { name: 'Basic', price_monthly_cents: 1000, credit_micro: 2_000_000 });
const plus = await consoleCall('POST', `/apis/${api.id}/plans`, { name: 'Plus', price_monthly_cents: 3000, credit_micro: 5_000_000 });
await consoleCall('POST', `/apis/${api.id}/payments/connect`);
step(`owner ${owner} registered ${api.name} with plans Basic ($10.00) and Plus ($30.00), payments connected to the development provider`);

// 1. Starter, then growth, then scale: one subscription.
const bought = await consoleCall('POST', `/apis/${api.id}/plan/checkout`, { plan_code: 'starter' });
expect('the first plan is a checkout', /\/dev\/payments\/checkout\/cs_dev_/.test(bought.url), true);
expect('paying the checkout', await payCheckout(bought.url), 303);
let out = await consoleCall('GET', `/apis/${api.id}`);
expect('the plan after checkout', `${out.plan.code} ${out.plan_status}`, 'starter active');
for (const code of ['growth', 'scale']) {
  const moved = await consoleCall('POST', `/apis/${api.id}/plan/checkout`, { plan_code: code });
  expect(`the upgrade to ${code} is no checkout`, /\/plan\?change=done$/.test(moved.url), true);
  out = await consoleCall('GET', `/apis/${api.id}`);
  expect(`the plan after the upgrade to ${code}`, `${out.plan.code} ${out.plan_status}`, `${code} active`);
  const platform = live(await providerSubscriptions(api.id), 'platform');
  expect(`live platform subscriptions after the upgrade to ${code}`, platform.length, 1);
  step(`upgraded to ${code}: ${platform.length} live platform subscription ${platform[0]?.id} at ${platform[0]?.amount_cents} cents, ${platform[0]?.invoices} invoice(s) (the first period and each proration)`);
}
const platformSub = live(await providerSubscriptions(api.id), 'platform')[0]!;
expect('invoices of the platform subscription (first period + 2 prorations)', platformSub.invoices, 3);

// 2. Cancel, then the test clock ends the period.
await consoleCall('POST', `/apis/${api.id}/plan/cancel`);
out = await consoleCall('GET', `/apis/${api.id}`);
expect('the plan after cancel', `${out.plan.code} ${out.plan_status}`, 'scale canceled');
step(`canceled: ${out.plan.code} (${out.plan_status}) until ${out.plan_period_end}`);
expect('ending the period on the test clock', await endPeriodNow(platformSub.id), 303);
out = await consoleCall('GET', `/apis/${api.id}`);
expect('the plan after the period', `${out.plan.code} ${out.plan_status}`, 'free canceled');
const endedPlatform = (await providerSubscriptions(api.id)).find((s) => s.id === platformSub.id)!;
expect('the platform subscription at the provider', endedPlatform.status, 'canceled');
expect('no renewal invoice', endedPlatform.invoices, 3);
step(`period ended (test clock): the API is on ${out.plan.code}; subscription ${endedPlatform.id} ${endedPlatform.status}, still ${endedPlatform.invoices} invoices`);

/** The customer as the console sees it, with its ledger; checks balance = sum of entries. */
async function customerOf(customerId: string, label: string) {
  const detail = await consoleCall('GET', `/apis/${api.id}/customers/${customerId}`);
  const { entries } = await consoleCall('GET', `/apis/${api.id}/ledger?customer_id=${customerId}&limit=200`);
  const sum = (entries as { amount_micro: number }[]).reduce((total, e) => total + BigInt(e.amount_micro), 0n);
  expect(`${label}: balance = sum of the ledger entries`, BigInt(detail.balance_micro), sum);
  console.log(`  balance ${detail.balance_micro} = ${[...(entries as { kind: string; amount_micro: number }[])].reverse().map((e) => `${e.kind} ${e.amount_micro}`).join(' + ')} (${label})`);
  return detail;
}

async function payOnTestPage(page: Page, notice: string) {
  await page.waitForURL(/\/dev\/payments\/checkout\/cs_dev_/);
  await page.click('button[data-outcome=pay]');
  await page.waitForSelector(notice);
}

const browser = await launchChromium();
try {
  // 3. A customer subscribes on the portal; the owner switches the plan from the console API.
  const page = await browser.newPage();
  const email = `customer-${tag}@example.com`;
  await signUpOnPortal(page, api.portal_url, email, 'Cy Customer');
  const { customers } = await consoleCall('GET', `/apis/${api.id}/customers?q=${encodeURIComponent(email)}`);
  const customerId = customers[0].id as string;
  await page.click('nav.portal a[href="/plans"]');
  await page.click(`#subscribe-${basic.id}`);
  await payOnTestPage(page, '#plans-notice');
  let detail = await customerOf(customerId, 'subscribed to Basic');
  expect('the customer plan', `${detail.plan_name} ${detail.subscription_status}`, 'Basic active');
  const switched = await consoleCall('POST', `/apis/${api.id}/customers/${customerId}/subscription/switch`, { plan_id: plus.id });
  expect('the plan after the switch', switched.plan_id, plus.id);
  const customerSubs = (await providerSubscriptions(api.id)).filter((s) => s.kind === 'customer');
  expect('customer subscriptions at the provider', customerSubs.length, 1);
  expect('the provider subscription follows', `${customerSubs[0]?.plan} ${customerSubs[0]?.amount_cents}`, `${plus.id} 3000`);
  step(`customer ${email} subscribed to Basic on the portal; the owner switched it to Plus: the provider's subscription ${customerSubs[0]?.id} is on ${customerSubs[0]?.plan} at ${customerSubs[0]?.amount_cents} cents`);

  // 4. A top-up of 10.00, half refunded on the provider's page.
  await page.click('nav.portal a[href="/billing"]');
  await page.click('#topup-1000');
  await payOnTestPage(page, '#billing-notice');
  detail = await customerOf(customerId, 'after a top-up of 10.00');
  const beforeRefund = BigInt(detail.balance_micro);
  const { payments } = await consoleCall('GET', `/apis/${api.id}/customers/${customerId}/payments`);
  const topUp = payments.find((p: { kind: string }) => p.kind === 'topup');
  expect('refunding half on the receipt page', await pressTestButton(`${G}/dev/payments/receipts/${topUp.id}`, `/dev/payments/payments/${topUp.id}`, { action: 'refund_half' }), 303);
  detail = await customerOf(customerId, 'after refunding 5.00 of it');
  expect('the refund takes back', beforeRefund - BigInt(detail.balance_micro), 5_000_000n);
  const refunded = (await consoleCall('GET', `/apis/${api.id}/customers/${customerId}/payments`)).payments.find((p: { id: string }) => p.id === topUp.id);
  expect('the payment reads', `${refunded.status} ${refunded.refunded_cents}`, 'partially_refunded 500');
  await page.reload();
  expect('the portal balance', micro(await textOf(page, '#balance')), BigInt(detail.balance_micro));
  step(`top-up ${topUp.id} refunded by half: balance ${beforeRefund} → ${detail.balance_micro} micro units; the payments list says ${refunded.status} (${refunded.refunded_cents} cents)`);
} finally {
  await browser.close();
}

// 5. Deleting the API ends every subscription at the provider.
await consoleCall('DELETE', `/apis/${api.id}`);
let subs = await providerSubscriptions(api.id);
expect('live subscriptions after the delete', subs.filter((s) => s.status !== 'canceled').length, 0);
const invoicesBefore = subs.reduce((n, s) => n + s.invoices, 0);
for (const sub of subs) await endPeriodNow(sub.id);
subs = await providerSubscriptions(api.id);
expect('invoices after a period on the test clock', subs.reduce((n, s) => n + s.invoices, 0), invoicesBefore);
step(`API deleted: ${subs.map((s) => `${s.kind} ${s.id} ${s.status}`).join(', ')}; ${invoicesBefore} invoices before, none after`);
finish();
console.log('billing lifecycle: every check passed');
