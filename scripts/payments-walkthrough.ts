// Payments end to end against a running server (`npm start`, with the development provider, which
// is on when STRIPE_SECRET_KEY is unset), as a new owner and their first customer would try them:
// `node --import tsx scripts/payments-walkthrough.ts` (GATEHOUSE=http://localhost:8080;
// CHROMIUM=/usr/bin/chromium). An owner signs up through the console API, registers an API (the
// payg preset, with plans and auto-recharge allowed) whose api_base_url is a hello world this script
// serves, metered by @gatehouse/sdk, adds a plan and connects payments. In Chromium a customer signs
// up on the portal and
//   1. tops up 10.00 on the billing page and pays on the test checkout: the balance must rise by
//      exactly 10,000,000 micro units, and a receipt is mailed;
//   2. subscribes to the plan: its first invoice must add the plan's credit;
//   3. saves a card, turns auto-recharge on at a threshold equal to the balance, and calls the hello
//      world: usage takes the balance under the threshold and the server's job must charge exactly
//      once (checked again after two more runs of the job).
// It prints the final balances and exits 1 on any mismatch.
import type { Page } from 'playwright-core';
import { consoleCall, expect, finish, G, launchChromium, listen, mailed, makeKey, micro, serveHello, signUpOnPortal, signUpOwner, sleep, step, tag, textOf } from './walkthrough-kit.js';

/** The auto-recharge job runs every 20 seconds on the server. */
const JOB_MS = 20_000;

const { server, url: helloUrl } = await listen();
const owner = `owner-${tag}@example.com`;
const ws = await signUpOwner(owner);
const { api, secret } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Paid ${tag}`, preset: 'payg', api_base_url: helloUrl });
await consoleCall('PATCH', `/apis/${api.id}`, { plans_enabled: true, auto_recharge_allowed: true, signup_mode: 'open' });
const plan = await consoleCall('POST', `/apis/${api.id}/plans`, { name: 'Pro', price_monthly_cents: 1900, credit_micro: 5_000_000, rps: 20, description: 'For production' });
const { url: connectUrl } = await consoleCall('POST', `/apis/${api.id}/payments/connect`);
const payments = await consoleCall('GET', `/apis/${api.id}/payments`);
expect('the payments account takes charges', payments.charges_enabled, true);
expect('payments_ready', (await consoleCall('GET', `/apis/${api.id}/connection`)).payments_ready, true);
step(`owner ${owner} registered ${api.name} (payg, plans and auto-recharge allowed; plan Pro at $19.00 with 5.00 of credit); connected ${payments.account_id} (${connectUrl.startsWith(G) ? 'development provider' : connectUrl})`);

const meter = serveHello(server, api, secret);

/** The customer as the owner's console sees it, and its ledger. */
async function customerOf(email: string) {
  const { customers } = await consoleCall('GET', `/apis/${api.id}/customers?q=${encodeURIComponent(email)}`);
  const detail = await consoleCall('GET', `/apis/${api.id}/customers/${customers[0].id}`);
  const { entries } = await consoleCall('GET', `/apis/${api.id}/ledger?customer_id=${detail.id}&limit=200`);
  return { detail, entries: entries as { kind: string; amount_micro: number; ref?: string; note: string }[] };
}

/** Pays (or saves a card) on the development provider's test checkout page, back on the portal. */
async function payOnTestPage(page: Page, outcome: 'pay' | 'save', notice: string) {
  await page.waitForURL(/\/dev\/payments\/checkout\/cs_dev_/);
  expect('the checkout page is marked as a test page', /TEST PAGE/.test(await textOf(page, '[role=note]')), true);
  await page.click(`button[data-outcome=${outcome}]`);
  await page.waitForSelector(notice);
}

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const customer = `customer-${tag}@example.com`;
  await signUpOnPortal(page, api.portal_url, customer, 'Cy Customer');
  let known = await customerOf(customer);
  step(`signed up on the portal as ${customer} (${known.detail.id}); balance ${await textOf(page, '#balance')}`);

  // 1. A top-up of 10.00.
  const beforeTopUp = BigInt(known.detail.balance_micro);
  await page.click('nav.portal a[href="/billing"]');
  await page.click('#topup-1000');
  await payOnTestPage(page, 'pay', '#billing-notice');
  const notice = await textOf(page, '#billing-notice');
  known = await customerOf(customer);
  expect('the top-up raises the balance by', BigInt(known.detail.balance_micro) - beforeTopUp, 10_000_000n);
  expect('the balance on the billing page', micro(await textOf(page, '#balance')), BigInt(known.detail.balance_micro));
  const topups = known.entries.filter((e) => e.kind === 'topup');
  expect('topup ledger entries', topups.map((e) => e.amount_micro).join(), '10000000');
  const receipt = await mailed(customer, /Your receipt from/);
  const receiptLink = receipt.text.match(/https?:\/\/\S+\/dev\/payments\/receipts\/\S+/)?.[0] ?? '';
  expect('the receipt link answers', (await fetch(receiptLink)).status, 200);
  step(`top-up: "${notice}" balance ${await textOf(page, '#balance')} (+${BigInt(known.detail.balance_micro) - beforeTopUp} micro units, ref ${topups[0]?.ref}); receipt mailed: ${receiptLink}`);

  // 2. A subscription: the first invoice's credit.
  const beforePlan = BigInt(known.detail.balance_micro);
  await page.click('nav.portal a[href="/plans"]');
  await page.click(`#subscribe-${plan.id}`);
  await payOnTestPage(page, 'pay', '#plans-notice');
  known = await customerOf(customer);
  const credits = known.entries.filter((e) => e.kind === 'plan_credit');
  expect('the plan', known.detail.plan_id, plan.id);
  expect('the subscription', known.detail.subscription_status, 'active');
  expect('plan credit entries of the first invoice', credits.map((e) => e.amount_micro).join(), '5000000');
  expect('the plan credit raises the balance by', BigInt(known.detail.balance_micro) - beforePlan, 5_000_000n);
  step(`subscription: "${await textOf(page, '#plans-notice')}" plan ${known.detail.plan_name} (${known.detail.subscription_status}), invoice ${credits[0]?.ref} credited ${credits[0]?.amount_micro} micro units`);

  // 3. Auto-recharge at a threshold equal to the balance: usage takes it under.
  const threshold = BigInt(known.detail.balance_micro);
  await page.click('nav.portal a[href="/billing"]');
  await page.click('#save-card');
  await payOnTestPage(page, 'save', '#billing-notice');
  await page.check('#auto-recharge-enabled');
  await page.fill('#auto-recharge-threshold', (Number(threshold) / 1_000_000).toFixed(2));
  await page.fill('#auto-recharge-amount', '5.00');
  await page.click('#auto-recharge-save');
  await page.waitForSelector('#billing-notice');
  step(`auto-recharge: ${await textOf(page, '#auto-recharge-state')}`);
  const key = await makeKey(page, 'recharge');
  const requests = 3;
  for (let i = 0; i < requests; i++) expect('the hello world answers', (await fetch(helloUrl, { headers: { [api.key_header]: key } })).status, 200);
  await meter.flush();
  const price = BigInt(api.price_per_request_micro);
  known = await customerOf(customer);
  // The server's job may already have charged the card by the time the usage is read (it runs every
  // 20 s): the balance is then higher by exactly that one recharge of 5.00.
  const rechargedAlready = known.entries.filter((e) => e.kind === 'auto_recharge').length;
  expect('the balance after usage', BigInt(known.detail.balance_micro), threshold - price * BigInt(requests) + BigInt(rechargedAlready) * 5_000_000n);
  step(`${requests} requests through the SDK: balance ${known.detail.balance_micro} micro units${rechargedAlready ? ' (recharged once already)' : ''}, under the threshold of ${threshold} before any recharge`);
  let recharges = known.entries.filter((e) => e.kind === 'auto_recharge');
  for (let waited = 0; recharges.length === 0 && waited < 6 * JOB_MS; waited += 2000) {
    await sleep(2000);
    recharges = (await customerOf(customer)).entries.filter((e) => e.kind === 'auto_recharge');
  }
  // Two more runs of the job: still one charge (the balance is above the threshold, and the cool-down holds).
  await sleep(2 * JOB_MS + 2000);
  known = await customerOf(customer);
  recharges = known.entries.filter((e) => e.kind === 'auto_recharge');
  expect('automatic charges', recharges.length, 1);
  expect('the automatic charge', recharges[0]?.amount_micro, 5_000_000);
  expect('the balance after the charge', BigInt(known.detail.balance_micro), threshold - price * BigInt(requests) + 5_000_000n);
  step(`auto-recharge charged ${recharges.length} time(s): ${recharges.map((e) => `${e.amount_micro} micro units (${e.ref})`).join(', ')}`);

  // Every balance is the sum of its ledger entries.
  const sum = known.entries.reduce((total, e) => total + BigInt(e.amount_micro), 0n);
  expect('balance = sum of the ledger entries', BigInt(known.detail.balance_micro), sum);
  await page.click('nav.portal a[href="/billing"]');
  const shown = await textOf(page, '#balance');
  expect('the balance on the portal', micro(shown), BigInt(known.detail.balance_micro));
  console.log('final balances:');
  console.log(`  ${known.detail.name} (${known.detail.id}): ${shown} (${known.detail.balance_micro} micro units) = ${known.entries.map((e) => `${e.kind} ${e.amount_micro}`).join(' + ')}`);
  const stats = await consoleCall('GET', `/apis/${api.id}/stats`);
  console.log(`  ${api.name}: topups_month_micro ${stats.topups_month_micro}, charged_month_micro ${stats.charged_month_micro}`);
} finally {
  await browser.close();
  await meter.close();
  server.close();
}

finish();
