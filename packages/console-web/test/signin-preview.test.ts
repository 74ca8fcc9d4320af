// The preview of the sign-in page in Chromium: the API's name, logo (from the console's own host)
// and accent; the sign-up link only while sign-up is open; a warning when white does not read on
// the accent; and the link to the live page, followed to the real sign-in page in the API's name.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { startHttpsServer, type TestHttpsServer } from '../../server/test/support/test-ca.js';
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

async function newApi(name: string, accent: string, logoUrl?: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  const apiId = created.body.api.id as string;
  const patched = await owner.client.patch(`/apis/${apiId}`, { accent_color: accent });
  assert.equal(patched.status, 200, patched.text);
  if (logoUrl) {
    const logo = await owner.client.put(`/apis/${apiId}/logo`, { logo_url: logoUrl });
    assert.equal(logo.status, 200, logo.text);
  }
  return { apiId, portalUrl: created.body.api.portal_url as string };
}

test('the sign-in page preview: logo, name and accent, the sign-up link while open, and the live page', { skip: skipWithoutChromium }, async () => {
  const { apiId, portalUrl } = await newApi('Weather API', '#0b6e4f', `${images.origin}/weather.png`);
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  const path = `/apis/${apiId}/signin/preview`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual(
    [...requests].filter((r) => !r.includes('/logo')).sort(),
    [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin`, 'GET /api/me'],
  );
  const preview = page.getByTestId('signin-preview');
  await preview.getByText('Weather API').waitFor();
  const logo = page.getByTestId('signin-preview-logo');
  assert.match((await logo.getAttribute('src')) ?? '', new RegExp(`^/api/apis/${apiId}/logo\\?v=`));
  await page.waitForFunction(() => ((globalThis as any).document.querySelector('[data-testid=signin-preview-logo]')?.naturalWidth ?? 0) === 1);
  const colours = await page.getByTestId('signin-preview-button').evaluate((el) => {
    const style = (globalThis as any).getComputedStyle(el);
    return { background: style.backgroundColor, color: style.color };
  });
  assert.deepEqual(colours, { background: 'rgb(11, 110, 79)', color: 'rgb(255, 255, 255)' });
  await page.getByTestId('signin-preview-signup').waitFor();
  assert.equal(await page.getByTestId('signin-preview-contrast').count(), 0);
  await shotAndCheck(f, page, '1-preview');

  // Sign-up closed: the link goes from the preview.
  const closed = await owner.client.patch(`/apis/${apiId}/signin`, { signups: 'closed' });
  assert.equal(closed.status, 200, closed.text);
  await page.reload();
  await preview.getByText('Weather API').waitFor();
  assert.equal(await page.getByTestId('signin-preview-signup').count(), 0);

  // The live page: the portal's sign-in, which shows the real sign-in page in the API's name.
  const live = page.getByRole('link', { name: 'Open the live sign-in page (opens in a new tab)' });
  assert.equal(await live.getAttribute('href'), `${portalUrl}/auth/signin`);
  assert.equal(await live.getAttribute('target'), '_blank');
  const [tab] = await Promise.all([cp.context.waitForEvent('page'), live.click()]);
  await tab!.getByRole('heading', { name: 'Sign in' }).waitFor();
  assert.match(await tab!.locator('header').textContent() ?? '', /Weather API/);
  assert.equal(await tab!.locator('#to-signup').count(), 0, 'sign-up closed on the live page too');
  await tab!.close();
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('the preview warns when white does not read on the accent, and shows the initial without a logo', { skip: skipWithoutChromium }, async () => {
  const { apiId } = await newApi('Sunny API', '#ffe066');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/preview`);
  await page.getByTestId('signin-preview').getByText('S', { exact: true }).waitFor();
  assert.equal(await page.getByTestId('signin-preview-logo').count(), 0);
  await page.getByTestId('signin-preview-contrast').getByText('#ffe066').waitFor();
  const ink = await page.getByTestId('signin-preview-button').evaluate((el) => (globalThis as any).getComputedStyle(el).color);
  assert.equal(ink, 'rgb(31, 35, 40)', 'dark ink on a light accent');
  await shotAndCheck(f, page, '2-light-accent');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
