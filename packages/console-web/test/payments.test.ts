// The payments return pages of an API in Chromium, with the development provider: connecting
// (POST /payments/connect, then the browser follows the provider's URL back to ?connect=done), an
// onboarding to continue (?connect=again), and a platform plan's checkout done and canceled
// (/plan?checkout=done|canceled), each page saying what happened from the API's record.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { SignedUp } from '../../server/test/support/flows.js';
import { apiRequestsOnOpen, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

async function newApi(name: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  return created.body.api.id as string;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

test('connecting with the development provider, an onboarding to continue, a plan checkout done and canceled', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Paying API');

  const paymentsPath = `/apis/${apiId}/payments`;
  const requests = await apiRequestsOnOpen(page, paymentsPath);
  console.log(`requests on open, ${paymentsPath}: ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3);
  await page.getByText('Paying API has no payments account connected.').waitFor();
  await shotAndCheck(f, page, '1-payments-none');
  // The button asks for the provider's onboarding (POST /payments/connect) and follows its URL;
  // the development provider's onboarding is instant and returns to ?connect=done.
  await page.getByRole('button', { name: 'Connect a payments account' }).click();
  await page.waitForURL(`**${paymentsPath}?connect=done`);
  await page.getByText(/is connected in test mode/).waitFor();
  const payments = (await owner.client.get(`/apis/${apiId}`)).body.payments;
  assert.deepEqual([payments.connected, payments.charges_enabled], [true, true]);
  await shotAndCheck(f, page, '2-payments-connected');

  // A provider that sends the owner back before the end (?connect=again) on an API not connected.
  const otherId = await newApi('Unfinished API');
  await page.goto(`/apis/${otherId}/payments?connect=again`);
  await page.getByText('The onboarding link expired or was left before the end.').waitFor();
  await page.getByRole('button', { name: 'Continue onboarding' }).waitFor();
  await shotAndCheck(f, page, '3-payments-again');

  // Both pages are reached from the API's settings.
  await page.goto(`/apis/${apiId}/settings`);
  const summary = section(page, 'Plan and payments');
  await summary.getByText('connected', { exact: true }).waitFor();
  await summary.getByRole('link', { name: 'Payments' }).click();
  await page.waitForURL(`**${paymentsPath}`);
  await page.goBack();
  await summary.getByRole('link', { name: 'Platform plan' }).click();
  await page.waitForURL(`**/apis/${apiId}/plan`);
  await page.getByRole('heading', { level: 1, name: 'Platform plan of Paying API', exact: true }).waitFor();

  // A platform plan checkout canceled, then one bought through the development provider's checkout page.
  const planPath = `/apis/${apiId}/plan`;
  const planRequests = await apiRequestsOnOpen(page, planPath);
  console.log(`requests on open, ${planPath}: ${planRequests.length}: ${planRequests.join(', ')}`);
  assert.ok(planRequests.length <= 3);
  // A checkout canceled first: with a live subscription, another plan is a change of that one
  // subscription, not a checkout (issue 23), so the canceled checkout comes before any purchase.
  const canceled = await owner.client.post(`/apis/${apiId}/plan/checkout`, { plan_code: 'growth' });
  assert.equal(canceled.status, 200, canceled.text);
  await page.goto(canceled.body.url);
  await page.getByRole('link', { name: 'Cancel and go back' }).click();
  await page.waitForURL(`**${planPath}?checkout=canceled`);
  await page.getByText('The checkout was canceled: nothing was bought and nothing changed.').waitFor();
  await page.getByTestId('plan-now').getByText('Free').waitFor();
  await shotAndCheck(f, page, '4-plan-canceled');
  const checkout = await owner.client.post(`/apis/${apiId}/plan/checkout`, { plan_code: 'starter' });
  assert.equal(checkout.status, 200, checkout.text);
  await page.goto(checkout.body.url);
  await page.locator('[data-outcome=pay]').click();
  await page.waitForURL(`**${planPath}?checkout=done`);
  await page.getByText('Checkout done: Paying API is on the Starter plan.').waitFor();
  await page.getByTestId('plan-now').getByText('active').waitFor();
  assert.equal((await owner.client.get(`/apis/${apiId}`)).body.plan.code, 'starter');
  await shotAndCheck(f, page, '5-plan-done');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
