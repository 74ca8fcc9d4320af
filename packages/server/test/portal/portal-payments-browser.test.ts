// Payments on the portal in a real browser (issue 13 item 9, DESIGN 10: Chromium for pages):
// Debian's chromium driven by playwright-core, with the development provider. A customer signs up
// on the portal, tops up 10.00 on the billing page and pays on the test checkout (the balance
// rises by exactly 10,000,000 micro units); subscribes to a plan (its first invoice adds the
// plan's credit); saves a card, turns auto-recharge on, and usage through the real @gatehouse/sdk
// (a metered hello world) takes the balance under the threshold: the job charges exactly once. No
// Content-Security-Policy violation anywhere; screenshots in test-output/portal/portal-payments-browser/.
// After every test, every customer's balance is the sum of its ledger entries.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { testOutputDir } from '../support/output.js';
import { freshEmail } from '../support/pages.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { chromiumMissing as skip, cspViolations, launchChromium, meteredHello, sdkSecretOf, signUpInBrowser, type MeteredHello } from '../support/portal.js';
import { connectDevPayments } from '../support/portal-payments.js';

const output = testOutputDir(import.meta.url);

let f: IssuerFixture;
let browser: Browser;
let hello: MeteredHello;
let planId: string;
before(async () => {
  if (skip) return;
  f = await startIssuer('Payments Browser API');
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', plans_enabled: true, auto_recharge_allowed: true, accent_color: '#1a7f37' });
  assert.equal(set.status, 200, set.text);
  const plan = await f.owner.client.post(`/apis/${f.apiId}/plans`, { name: 'Pro', price_monthly_cents: 1900, credit_micro: 5_000_000, rps: 20, description: 'For production' });
  assert.equal(plan.status, 200, plan.text);
  planId = plan.body.id;
  await connectDevPayments(f);
  browser = await launchChromium();
  hello = await meteredHello(f, await sdkSecretOf(f));
  await f.owner.client.patch(`/apis/${f.apiId}`, { api_base_url: hello.url });
});
afterEach(async () => {
  if (!skip) await assertBalancesMatchLedger(f.t);
});
after(async () => {
  await hello?.close();
  await browser?.close();
  await f?.t.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(output, `${name}.png`), fullPage: true });
const textOf = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

/** A new customer signed up on the portal in a window of its own; its id from the console. */
async function newCustomer(name: string) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const violations = cspViolations(page);
  const email = freshEmail(name.split(' ')[0]!.toLowerCase());
  await page.goto(f.issuer + '/');
  await signUpInBrowser(f, page, email, name);
  await page.waitForSelector('#balance');
  const list = await f.owner.client.get(`/apis/${f.apiId}/customers?q=${encodeURIComponent(email)}`);
  return { page, violations, email, customerId: list.body.customers[0].id as string };
}

const detailOf = async (customerId: string) => (await f.owner.client.get(`/apis/${f.apiId}/customers/${customerId}`)).body;
const entriesOf = async (customerId: string, kind: string) =>
  (await f.owner.client.get(`/apis/${f.apiId}/ledger?customer_id=${customerId}`)).body.entries.filter((e: { kind: string }) => e.kind === kind) as { ref: string; amount_micro: number }[];

test('top-up 10.00: the billing page, the test checkout, paid; back on the portal the balance has risen by exactly 10,000,000 micro units', { skip }, async () => {
  const { page, violations, customerId } = await newCustomer('Tara Topup');
  const before = (await detailOf(customerId)).balance_micro as number;
  await page.click('nav.portal a[href="/billing"]');
  assert.equal(await textOf(page, 'h1'), 'Billing');
  await shot(page, 'topup-1-billing');
  await page.click('#topup-1000');
  await page.waitForURL(/\/dev\/payments\/checkout\/cs_dev_/);
  assert.match(await textOf(page, '[role=note]'), /TEST PAGE/);
  assert.equal(await textOf(page, 'h1'), 'Payments Browser API credit');
  await shot(page, 'topup-2-checkout');
  await page.click('button[data-outcome=pay]');
  await page.waitForSelector('#billing-notice');
  assert.equal(new URL(page.url()).origin, f.issuer);
  assert.equal(await textOf(page, '#billing-notice'), 'Payment received: $10.00. 10.00 was added to your balance.');
  assert.equal(await textOf(page, '#balance'), '11.00');
  assert.deepEqual((await page.locator('#receipts-table tbody tr').first().locator('td').allTextContents()).slice(1, 4), ['Top-up', '$10.00', '+10.00']);
  await shot(page, 'topup-3-paid');
  assert.equal((await detailOf(customerId)).balance_micro, before + 10_000_000);
  assert.deepEqual((await entriesOf(customerId, 'topup')).map((e) => e.amount_micro), [10_000_000]);
  assert.deepEqual(violations, []);
});

test('subscribe: the plans page, the test checkout, paid; the plan applies and its first invoice adds its credit', { skip }, async () => {
  const { page, violations, customerId } = await newCustomer('Sid Subscriber');
  const before = (await detailOf(customerId)).balance_micro as number;
  await page.click('nav.portal a[href="/plans"]');
  await shot(page, 'subscribe-1-plans');
  await page.click(`#subscribe-${planId}`);
  await page.waitForURL(/\/dev\/payments\/checkout\/cs_dev_/);
  assert.match(await textOf(page, 'main'), /\$19\.00 \/ month/);
  await shot(page, 'subscribe-2-checkout');
  await page.click('button[data-outcome=pay]');
  await page.waitForSelector('#plans-notice');
  assert.equal(await textOf(page, '#plans-notice'), 'Subscribed to Pro. Its 5.00 of credit comes with every paid invoice.');
  assert.match(await textOf(page, `#plan-${planId} .badge`), /Your plan/);
  await shot(page, 'subscribe-3-subscribed');
  const detail = await detailOf(customerId);
  assert.deepEqual([detail.plan_id, detail.plan_source, detail.subscription_status, detail.effective.rps], [planId, 'provider', 'active', 20]);
  const credits = await entriesOf(customerId, 'plan_credit');
  assert.equal(credits.length, 1);
  assert.match(credits[0]!.ref, /^in_dev_/);
  assert.equal(credits[0]!.amount_micro, 5_000_000);
  assert.equal(detail.balance_micro, before + 5_000_000);
  assert.deepEqual(violations, []);
});

test('auto-recharge: a card saved, on at a threshold of 1.00; one metered request takes the balance under it and the job charges exactly once', { skip }, async () => {
  const { page, violations, customerId } = await newCustomer('Ari Recharge');
  await page.click('nav.portal a[href="/billing"]');
  await page.click('#save-card');
  await page.waitForURL(/\/dev\/payments\/checkout\/cs_dev_/);
  assert.equal(await textOf(page, 'h1'), 'Save a card');
  await shot(page, 'recharge-1-save-card');
  await page.click('button[data-outcome=save]');
  await page.waitForSelector('#billing-notice');
  assert.equal(await textOf(page, '#billing-notice'), 'Your card is saved.');
  await page.check('#auto-recharge-enabled');
  await page.fill('#auto-recharge-threshold', '1.00');
  await page.fill('#auto-recharge-amount', '5.00');
  await page.click('#auto-recharge-save');
  await page.waitForSelector('#billing-notice');
  assert.equal(await textOf(page, '#auto-recharge-state'), 'On: when the balance falls below 1.00, the saved card is charged $5.00.');
  await shot(page, 'recharge-2-on');
  // At the threshold (the 1.00 of welcome credit): nothing to charge.
  await f.t.services.payments.autoRecharge.chargeDue();
  assert.deepEqual(await entriesOf(customerId, 'auto_recharge'), []);

  await page.click('nav.portal a[href="/keys"]');
  await page.fill('#name', 'recharge');
  await page.click('#create-key');
  const key = await textOf(page, '#new-key');
  const answer = await fetch(hello.url, { headers: { 'x-api-key': key } });
  assert.equal(answer.status, 200, await answer.text());
  await hello.meter.flush();
  assert.equal((await detailOf(customerId)).balance_micro, 999_000, 'one request at 0.001: under the threshold');
  const runs = [await f.t.services.payments.autoRecharge.chargeDue(), await f.t.services.payments.autoRecharge.chargeDue()];
  assert.deepEqual(runs.map((r) => r.charged), [1, 0]);
  const recharges = await entriesOf(customerId, 'auto_recharge');
  assert.deepEqual(recharges.map((e) => e.amount_micro), [5_000_000], 'exactly one charge');
  assert.match(recharges[0]!.ref, /^pi_dev_/);

  await page.click('nav.portal a[href="/billing"]');
  assert.equal(await textOf(page, '#balance'), '5.999');
  assert.deepEqual((await page.locator('#receipts-table tbody tr').first().locator('td').allTextContents()).slice(1, 4), ['Automatic top-up', '$5.00', '+5.00']);
  await shot(page, 'recharge-3-charged');
  assert.equal((await detailOf(customerId)).balance_micro, 5_999_000);
  assert.deepEqual(violations, []);
});
