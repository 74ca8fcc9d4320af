// An API's settings in Chromium: each section saved on its own and read back through the API, a
// 422 landing on its field, the portal preview following the accent colour as it is typed, the
// logo set (shown from the console's host) and removed, suspend and resume, delete confirmed by
// typing the name; what a viewer and an editor are offered.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { SignedUp } from '../../server/test/support/flows.js';
import { startHttpsServer, type TestHttpsServer } from '../../server/test/support/test-ca.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { apiRequestsOnOpen, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';

// A 1x1 PNG, served over https by a test authority the app trusts (logos must be https).
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
let f: ConsoleFixture;
let owner: SignedUp;
let images: TestHttpsServer;
before(async () => {
  if (skipWithoutChromium) return;
  images = await startHttpsServer((_request, response) => void response.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  f = await startConsole(import.meta.url, { UNSAFE_OUTBOUND_PRIVATE: 'true' });
  owner = await fileOwner(f);
});
after(async () => {
  await f?.close();
  await images?.close();
});

async function newApi(name: string, preset = 'payg') {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset });
  assert.equal(created.status, 200, created.text);
  return created.body.api.id as string;
}

const section = (page: Page, name: string) => page.getByRole('region', { name });
const previewColour = (page: Page) => page.getByTestId('preview-header').evaluate((element) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor);

test('settings: each section saves its own fields, a 422 lands on its field, the preview follows the accent', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Weather API');
  const read = async () => (await owner.client.get(`/apis/${apiId}`)).body;
  const path = `/apis/${apiId}/settings`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3, requests.join(', '));
  await page.getByRole('heading', { level: 1, name: 'Settings of Weather API', exact: true }).waitFor();
  await shotAndCheck(f, page, '1-settings');

  // Price and limits, typed in units, saved alone.
  const pricing = section(page, 'Price and limits');
  await pricing.getByLabel('Price per billable request').fill('0.0025');
  await pricing.getByLabel('Requests per second, per customer').fill('50');
  await pricing.getByLabel('Requests per month, per customer').fill('100,000');
  await pricing.getByLabel('Welcome credit').fill('2.5');
  await pricing.getByLabel('Billable status codes').fill('200, 201');
  const before = await read();
  await pricing.getByRole('button', { name: 'Save price and limits' }).click();
  await pricing.getByRole('status').getByText(/^Saved at /).waitFor();
  const priced = await read();
  assert.deepEqual(
    [priced.price_per_request_micro, priced.rps, priced.monthly_quota, priced.welcome_credit_micro, priced.billable_status_codes],
    [2500, 50, 100000, 2500000, [200, 201]],
  );
  assert.equal(priced.tagline, before.tagline);
  assert.equal(await pricing.getByLabel('Price per billable request').inputValue(), '0.0025');

  // Out of the API's bounds: its 422 lands on the field, and nothing changes.
  await pricing.getByLabel('Requests per second, per customer').fill('100001');
  await pricing.getByRole('button', { name: 'Save price and limits' }).click();
  const rps = pricing.getByLabel('Requests per second, per customer');
  await pricing.locator('[aria-invalid=true]').waitFor();
  assert.equal(await rps.getAttribute('aria-invalid'), 'true');
  assert.match((await pricing.locator('.field-error').textContent()) ?? '', /100000/);
  assert.equal((await read()).rps, 50);
  await shotAndCheck(f, page, '2-rps-refused');
  // Not a number at all: refused before asking.
  await rps.fill('fifty');
  await pricing.getByRole('button', { name: 'Save price and limits' }).click();
  await pricing.getByText('Enter a whole number.').waitFor();
  await rps.fill('50');

  // How customers pay.
  const billing = section(page, 'How customers pay');
  await billing.getByRole('switch', { name: 'Plans: customers subscribe to your public plans' }).click();
  await billing.getByLabel('Top-up amounts (dollars)').fill('5, 20.50');
  await billing.getByLabel('Smallest top-up (dollars)').fill('5');
  await billing.getByLabel('Low balance line').fill('0.5');
  await billing.getByRole('switch', { name: 'Customers may turn on automatic recharge' }).click();
  await billing.getByRole('button', { name: 'Save payment settings' }).click();
  await billing.getByRole('status').getByText(/^Saved at /).waitFor();
  const paying = await read();
  assert.deepEqual(
    [paying.plans_enabled, paying.payg_enabled, paying.topup_amounts_cents, paying.min_topup_cents, paying.low_balance_micro, paying.auto_recharge_allowed],
    [true, true, [500, 2050], 500, 500000, false],
  );
  assert.equal(paying.rps, 50, 'the price section was not sent again');

  // Branding: the preview follows the accent colour as it is typed.
  const branding = section(page, 'Branding');
  assert.equal(await previewColour(page), 'rgb(79, 70, 229)');
  const accent = branding.getByLabel('Accent colour', { exact: true });
  await accent.fill('');
  await accent.pressSequentially('#0f76');
  assert.equal(await previewColour(page), 'rgb(79, 70, 229)', 'half a colour leaves the default');
  await accent.pressSequentially('6e');
  assert.equal(await previewColour(page), 'rgb(15, 118, 110)');
  await branding.getByLabel('Name', { exact: true }).fill('Weather Pro');
  await branding.getByLabel('Tagline').fill('Forecasts by the minute');
  await page.getByTestId('preview-header').getByText('Weather Pro').waitFor();
  await branding.getByLabel('Support e-mail').fill('help@weather.example');
  await branding.getByLabel('Website').fill('https://weather.example');
  await branding.getByLabel('Documentation').fill('https://weather.example/docs');
  await shotAndCheck(f, page, '3-branding-preview');
  await branding.getByRole('button', { name: 'Save branding' }).click();
  await branding.getByRole('status').getByText(/^Saved at /).waitFor();
  const branded = await read();
  assert.deepEqual(
    [branded.name, branded.tagline, branded.accent_color, branded.support_email, branded.website_url, branded.docs_url, branded.terms_url],
    ['Weather Pro', 'Forecasts by the minute', '#0f766e', 'help@weather.example', 'https://weather.example', 'https://weather.example/docs', ''],
  );
  await page.getByRole('navigation', { name: 'Console' }).getByText('Weather Pro').waitFor();
  await branding.getByLabel('Privacy policy').fill('privacy.html');
  await branding.getByRole('button', { name: 'Save branding' }).click();
  await branding.getByLabel('Privacy policy').and(page.locator('[aria-invalid=true]')).waitFor();
  assert.equal((await read()).privacy_url, '');
  await branding.getByLabel('Privacy policy').fill('');

  // The logo: set, shown in the preview from the console's own host, then removed.
  const logo = section(page, 'Logo');
  const logoUrl = `${images.origin}/weather.png`;
  await logo.getByLabel('Logo address').fill(logoUrl);
  await logo.getByRole('button', { name: 'Set logo' }).click();
  await page.getByTestId('current-logo').getByRole('link', { name: logoUrl }).waitFor();
  assert.equal((await read()).logo_url, logoUrl);
  const previewLogo = page.getByTestId('preview-logo');
  assert.match((await previewLogo.getAttribute('src')) ?? '', new RegExp(`^/api/apis/${apiId}/logo\\?v=`));
  await page.waitForFunction(() => ((globalThis as unknown as { document: { querySelector(s: string): { naturalWidth: number } | null } }).document.querySelector('[data-testid=preview-logo]')?.naturalWidth ?? 0) === 1);
  await shotAndCheck(f, page, '4-logo-set');
  const withLogo = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path} (with a logo): ${withLogo.length}: ${withLogo.join(', ')}`);
  assert.ok(withLogo.length <= 3, withLogo.join(', '));
  await logo.getByRole('button', { name: 'Remove logo' }).click();
  await page.getByRole('dialog', { name: 'Remove the logo' }).getByRole('button', { name: 'Remove logo' }).click();
  await page.getByTestId('current-logo').getByText('No logo').waitFor();
  assert.equal((await read()).logo_url, undefined);
  assert.equal(await previewLogo.count(), 0, 'the preview is back to the initial');

  // Sign-up mode and the API's own details.
  const signup = section(page, 'Sign-up');
  await signup.getByLabel(/^Approval\./).check();
  await signup.getByRole('button', { name: 'Save sign-up mode' }).click();
  await signup.getByRole('status').getByText(/^Saved at /).waitFor();
  assert.equal((await read()).signup_mode, 'approval');
  const details = section(page, 'Your API');
  await details.getByLabel('Key header').fill('X-Weather-Key');
  await details.getByLabel('Where your API runs').fill('https://api.weather.example');
  await details.getByRole('button', { name: 'Save API details' }).click();
  await details.getByRole('status').getByText(/^Saved at /).waitFor();
  const detailed = await read();
  assert.deepEqual([detailed.key_header, detailed.api_base_url], ['X-Weather-Key', 'https://api.weather.example']);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('settings: suspend with a reason and resume, then delete confirmed by typing the name', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Doomed API', 'free');
  await page.goto(`/apis/${apiId}/settings`);
  const status = section(page, 'Status');
  await status.getByRole('button', { name: 'Suspend API' }).click();
  const suspendDialog = page.getByRole('dialog', { name: 'Suspend Doomed API' });
  await suspendDialog.getByLabel('Reason (optional)').fill('unpaid invoices');
  await suspendDialog.getByRole('button', { name: 'Suspend API' }).click();
  await page.getByTestId('api-status').getByText('Reason: unpaid invoices').waitFor();
  const suspended = (await owner.client.get(`/apis/${apiId}`)).body;
  assert.deepEqual([suspended.status, suspended.suspended_reason], ['suspended', 'unpaid invoices']);
  await shotAndCheck(f, page, '5-suspended');
  await status.getByRole('button', { name: 'Resume API' }).click();
  await page.getByTestId('api-status').getByText('Customers can use the API.').waitFor();
  assert.equal((await owner.client.get(`/apis/${apiId}`)).body.status, 'active');

  await section(page, 'Delete this API').getByRole('button', { name: 'Delete API' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Doomed API' });
  const confirm = dialog.getByRole('button', { name: 'Delete API' });
  assert.ok(await confirm.isDisabled());
  await dialog.getByLabel('Type Doomed API to confirm').fill('Doomed');
  assert.ok(await confirm.isDisabled(), 'part of the name is not enough');
  await dialog.getByLabel('Type Doomed API to confirm').fill('Doomed API');
  await shotAndCheck(f, page, '6-delete-dialog');
  await confirm.click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  await page.getByRole('heading', { level: 1, name: 'APIs', exact: true }).waitFor();
  await page.locator('main table, main .state h2').first().waitFor();
  assert.equal(await page.getByRole('row', { name: /Doomed API/ }).count(), 0, 'the list no longer holds it');
  assert.equal((await owner.client.get(`/apis/${apiId}`)).status, 404);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('settings for a viewer and an editor: the values without controls they cannot use', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Shown API');
  for (const role of ['viewer', 'editor'] as const) {
    const member = await addMember(f.t, owner.client, owner.workspaceId, role);
    const cp = await newConsolePage(f);
    await shareSession(f, cp, member.client);
    const { page } = cp;
    await page.goto(`/apis/${apiId}/settings`);
    await section(page, 'Price and limits').waitFor();
    assert.equal(await page.getByLabel('Price per billable request').inputValue(), '0.001');
    assert.equal(await page.getByLabel('Price per billable request').isDisabled(), role === 'viewer');
    assert.equal(await page.getByRole('button', { name: 'Save price and limits' }).count(), role === 'viewer' ? 0 : 1);
    for (const name of ['Suspend API', 'Delete API']) assert.equal(await page.getByRole('button', { name }).count(), 0, `${role}: ${name}`);
    await shotAndCheck(f, page, `7-${role}`);
    assert.deepEqual(cp.problems, []);
    await cp.context.close();
  }
});
