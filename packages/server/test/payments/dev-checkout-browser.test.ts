// The development provider's checkout page in Chromium (Debian's, through playwright-core): the
// page says it is a test page, the click pays, the browser lands on the success URL, and the
// balance rises by exactly the amount. A screenshot is kept under test-output/payments/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, customerDetail } from '../support/money.js';
import { assertBalancesMatchLedger } from '../support/payments.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;
const OUTPUT = fileURLToPath(new URL('../../test-output/payments/dev-checkout-browser/', import.meta.url));

let t: TestApp;
let browser: Browser;
before(async () => {
  if (skip) return;
  t = await startTestApp();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
});
after(async () => {
  await browser?.close();
  await t?.close();
});

test('Chromium: the test checkout page pays a 10.00 top-up and returns to the success URL', { skip }, async () => {
  const api = await createApi(t, { name: 'Browser Pay', preset: 'payg' });
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  const customer = await createCustomer(t, api);
  const checkout = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 1000, successUrl: 'http://portal.example/topped-up', cancelUrl: 'http://portal.example/back' });
  assert.ok(checkout.ok, JSON.stringify(checkout));

  const page = await (await browser.newContext()).newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  let landed: string | null = null;
  await page.route('http://portal.example/**', async (route) => {
    landed = route.request().url();
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Portal</title><p>Back in the portal</p>' });
  });
  await page.goto(checkout.value.url);
  assert.match((await page.locator('[role=note]').textContent()) ?? '', /TEST PAGE/);
  assert.equal(await page.locator('h1').textContent(), 'Browser Pay credit');
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: join(OUTPUT, 'checkout.png'), fullPage: true });
  await page.click('button[data-outcome=pay]');
  await page.waitForURL('http://portal.example/topped-up');
  assert.equal(landed, 'http://portal.example/topped-up');
  assert.deepEqual(violations, []);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro + 10_000_000);
  await assertBalancesMatchLedger(t);
});
