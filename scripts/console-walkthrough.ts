// npm start with: UNSAFE_OUTBOUND_PRIVATE=true DNS_SERVERS=127.0.0.1:5399
// (UNSAFE_OUTBOUND_PRIVATE lets the server deliver webhooks to this script's receiver on 127.0.0.1;
// DNS_SERVERS points the custom domain's check at this script's DNS server; DNS_PORT moves it.)
//
// A new owner's first hour in the console, in Chromium, against a running `npm start`
// (GATEHOUSE=http://localhost:8080 by default): sign up with the mailed code, create an API, take
// the SDK secret from its Connect page, run the SDK README's node:http example with it in this
// process, call it with the test key, wait until the Connect page says connected by itself, add a
// customer with a key and credit it, call the example with that key, then check that the dashboard,
// the customer's page and the ledger page show what the console API answers. Exits 1 on any
// mismatch. Nothing is done through curl or the API docs: the console API is only read, to compare.
// Then the rest of the console (console-walkthrough-more.ts): the sign-in service set up on its
// pages and used by openid-client, a webhook endpoint receiving a signed customer.created, and a
// custom domain taken to active with records this script serves.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { customDomain, signInService, webhooks, type Walk } from './console-walkthrough-more.js';
import { expect, failures, finish, G, launchChromium, listen, mailedCode, micro, serveHello, sleep, step, tag } from './walkthrough-kit.js';

const shots = process.env.SHOTS ?? join('packages', 'console-web', 'test-output', 'console-walkthrough');
mkdirSync(shots, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

/** The console API as the browser's own session sees it (the page's cookie, read only). */
async function read(context: BrowserContext, path: string): Promise<any> {
  const answer = await context.request.get(`${G}/api${path}`);
  if (!answer.ok()) throw new Error(`GET /api${path}: ${answer.status()} ${await answer.text()}`);
  return answer.json();
}

const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

const email = `owner-${tag}@example.com`;
const { server, url: helloUrl } = await listen();
const browser = await launchChromium();
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const problems: string[] = [];
page.on('console', (message) => {
  if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
});
page.on('pageerror', (error) => problems.push(error.message));

try {
  // 1. Sign up: the console's first page, "Create an account", the code from the dev outbox.
  await page.goto(G);
  await page.waitForURL(/\/login/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await page.getByLabel('Code from the e-mail').fill(await mailedCode(email, /sign-up code/));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Your name').fill('Ada Owner');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/workspaces\/ws_[^/]+\/apis$/);
  const workspace = /\/workspaces\/(ws_[^/]+)\//.exec(page.url())![1]!;
  step(`signed up as ${email} on ${G}; workspace ${workspace}`);
  await shot(page, '1-apis-empty');

  // 2. Create an API whose base URL is the hello world below; land on its Connect page.
  await page.getByRole('link', { name: /create (your first )?api/i }).first().click();
  await page.getByLabel('Name').fill(`Hello ${tag}`);
  await page.getByLabel('Where your API runs (optional)').fill(helloUrl);
  await page.getByRole('button', { name: 'Create API' }).click();
  await page.waitForURL(/\/apis\/api_[^/]+\/connect/);
  const apiId = /\/apis\/(api_[^/]+)\//.exec(page.url())![1]!;
  await page.getByRole('heading', { name: 'SDK secret' }).waitFor();
  if (await page.getByRole('button', { name: 'Reveal secret' }).isVisible()) await page.getByRole('button', { name: 'Reveal secret' }).click();
  const secret = await text(page, 'sdk-secret');
  expect('the SDK secret on the Connect page is the API\'s', secret, (await read(context, `/apis/${apiId}/secret`)).secret);
  const api = await read(context, `/apis/${apiId}`);
  step(`created ${api.name} (${apiId}, payg preset, api_base_url ${helloUrl}); the Connect page shows its SDK secret ${secret.slice(0, 8)}…`);
  await shot(page, '2-connect-waiting');

  // 3. The SDK README's node:http example, in this process, with that secret.
  const meter = serveHello(server, api, secret);
  await page.getByRole('button', { name: 'Make a test key' }).click();
  const testKey = await text(page, 'test-key');
  const hello = await fetch(helloUrl, { headers: { [api.key_header]: testKey } });
  expect('the hello world answers the test key', hello.status, 200);
  step(`GET ${helloUrl} with the test key: ${hello.status} ${await hello.text()}`);

  // 4. The Connect page turns to connected by itself (it asks every few seconds; no reload here).
  const started = Date.now();
  await page.getByTestId('connection-status').filter({ hasText: /connected/i }).filter({ hasNotText: /waiting/i }).waitFor({ timeout: 60_000 });
  step(`the Connect page says connected by itself, ${((Date.now() - started) / 1000).toFixed(1)} s after the test key's request`);
  await shot(page, '3-connect-connected');

  // 5. A customer, its key and 5.00 of credit, all on the customer pages.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Acme');
  await page.getByLabel('E-mail', { exact: true }).fill(`dev-${tag}@acme.example`);
  await page.getByRole('button', { name: 'Add customer' }).click();
  await page.waitForURL(/\/customers\/cus_/);
  const customerId = /\/customers\/(cus_[^/?]+)/.exec(page.url())![1]!;
  await page.getByLabel("New key's name").fill('production');
  await page.getByRole('button', { name: 'Create key' }).click();
  const customerKey = await text(page, 'new-key');
  await page.getByLabel('Amount', { exact: true }).fill('5');
  await page.getByLabel('Note', { exact: true }).fill('Prepaid');
  await page.getByRole('button', { name: 'Add credit' }).click();
  await page.getByTestId('customer-balance').filter({ hasText: '6.00' }).waitFor();
  step(`added customer Acme (${customerId}), made key ${customerKey.slice(0, 10)}…, credited 5.00: balance ${await text(page, 'customer-balance')}`);

  // 6. Two requests with the customer's key through the SDK; usage reported at once (flush).
  for (let i = 0; i < 2; i++) {
    const answer = await fetch(helloUrl, { headers: { [api.key_header]: customerKey } });
    if (answer.status !== 200) {
      // The SDK learns of a new key with its next snapshot: ask again after a moment.
      await meter.sync();
      const again = await fetch(helloUrl, { headers: { [api.key_header]: customerKey } });
      expect(`request ${i + 1} with the customer's key`, again.status, 200);
    }
  }
  await meter.flush();
  let customer = await read(context, `/apis/${apiId}/customers/${customerId}`);
  for (let i = 0; i < 40 && customer.month_requests < 2; i++) {
    await sleep(250);
    customer = await read(context, `/apis/${apiId}/customers/${customerId}`);
  }
  step(`2 requests with the customer's key: the console API answers balance ${customer.balance_micro} micro units, ${customer.month_requests} requests this month`);

  // 7. What the pages show is what the console API answers.
  await page.reload();
  await page.getByTestId('customer-balance').waitFor();
  expect('customer page balance (micro units)', micro(await text(page, 'customer-balance')), customer.balance_micro);
  expect('customer page requests this month', await text(page, 'customer-month-requests'), String(customer.month_requests));
  expect('the customer\'s balance', customer.balance_micro, 1_000_000 + 5_000_000 - 2 * 1_000);
  await shot(page, '4-customer');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.getByTestId('requests-today').waitFor();
  const stats = await read(context, `/apis/${apiId}/stats`);
  expect('dashboard requests today', await text(page, 'requests-today'), stats.requests_today.toLocaleString('en-US'));
  expect('dashboard requests this month', await text(page, 'requests-month'), stats.requests_month.toLocaleString('en-US'));
  expect('dashboard charged this month (micro units)', micro(await text(page, 'charged-month')), stats.charged_month_micro);
  expect('dashboard customers', await text(page, 'customers'), String(stats.customers));
  expect('requests today: the test key\'s and the customer\'s', stats.requests_today, 3);
  expect('charged this month: the customer\'s two requests only', stats.charged_month_micro, 2_000);
  step(`dashboard: ${stats.requests_today} requests today, charged ${await text(page, 'charged-month')}, ${stats.customers} customers (as the console API answers)`);
  await shot(page, '5-dashboard');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Ledger' }).click();
  await page.getByTestId('ledger').waitFor();
  const ledger = await read(context, `/apis/${apiId}/ledger?customer_id=${customerId}`);
  const rows = await page.locator(`[data-testid=ledger] tbody tr`).all();
  const shown = new Map<string, bigint>();
  for (const row of rows) shown.set((await row.getAttribute('data-entry')) ?? '', micro(((await row.getByTestId('amount').textContent()) ?? '').replace(/^\+/, '')));
  for (const entry of ledger.entries) expect(`ledger page amount of ${entry.kind} ${entry.id}`, shown.get(entry.id), entry.amount_micro);
  const sum = ledger.entries.reduce((total: number, entry: { amount_micro: number }) => total + entry.amount_micro, 0);
  expect('the balance is the sum of its ledger entries', sum, customer.balance_micro);
  step(`ledger page: ${ledger.entries.map((e: { kind: string; amount_micro: number }) => `${e.kind} ${e.amount_micro}`).join(', ')} = ${sum} micro units`);
  await shot(page, '6-ledger');

  // 8–10. The sign-in service, events and a custom domain, all on the console's pages.
  const walk: Walk = { page, context, apiId, portalUrl: api.portal_url, read: (path) => read(context, path), shot: (name) => shot(page, name) };
  await signInService(walk);
  await webhooks(walk);
  await customDomain(walk, Number(process.env.DNS_PORT ?? 5399));

  expect('Content-Security-Policy refusals and page errors', problems.join(' | '), '');
  await meter.close();
  console.log(failures.length ? '' : `  customer ${customerId} ended with a balance of ${customer.balance_micro} micro units; screenshots in ${shots}\nOK`);
} finally {
  await browser.close();
  server.close();
}
finish();
