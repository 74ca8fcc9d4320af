// The portal's page of people's own API keys in Chromium (issue 15 item 7, DESIGN 10): a person
// signs in, creates a key (the whole secret once, copied with the button), renames it, rolls it,
// sees a refusal worded on the page, signs in again when their sign-in is older than 10 minutes
// and comes back, revokes one key with a confirmation and then all; with keys turned off the page
// is a 404 and leaves the nav. No Content-Security-Policy violation anywhere. Screenshots go to
// test-output/portal/portal-api-keys-browser/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MINUTE } from '../../src/platform/clock.js';
import { patchKeySettings } from '../support/end-user-keys.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { PERSON_PASSWORD, personWithPassword } from '../support/pages.js';
import { testOutputDir } from '../support/output.js';
import { chromiumMissing as skip, cspViolations, launchChromium } from '../support/portal.js';
import type { MovableClock } from '../support/clock.js';

const output = testOutputDir(import.meta.url);

let f: IssuerFixture;
let browser: Browser;
let roles: string[];
before(async () => {
  if (skip) return;
  f = await startIssuer('Forecast API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', accent_color: '#0b7285', tagline: 'Forecasts by the minute' })).status, 200);
  await patchKeySettings(f, { enabled: true, prefix: 'fc' });
  // A second server, so the form shows how several look.
  const maps = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, {
    name: 'Maps server', resource_url: 'https://maps.forecast.example/', permissions: [{ name: 'read:maps', description: 'Read radar maps' }, { name: 'write:maps', description: 'Draw on maps' }],
  });
  assert.equal(maps.status, 200, maps.text);
  const mapper = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: 'mapper', permissions: [{ server_id: maps.body.id, permission: 'read:maps' }, { server_id: maps.body.id, permission: 'write:maps' }] });
  assert.equal(mapper.status, 200, mapper.text);
  roles = [f.roleId, mapper.body.id];
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await f?.t.close();
});

async function windowOf(): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  return { context, page, violations: cspViolations(page) };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(output, `${name}.png`), fullPage: true });
const textOf = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').trim();
const rowIds = async (page: Page) => page.locator('#api-keys tbody tr').evaluateAll((rows) => rows.map((row) => row.id.slice('key-'.length)));

async function signIn(page: Page, email: string) {
  await page.waitForSelector('#signin-password');
  if (!(await page.inputValue('#email'))) await page.fill('#email', email);
  await page.fill('#password', PERSON_PASSWORD);
  await page.click('#signin-password');
  await page.waitForLoadState();
}

async function createKey(page: Page, name: string, permissions: string[], lifetime = '30') {
  await page.goto(f.issuer + '/api-keys');
  await page.fill('#key-name', name);
  await page.check('#server-0');
  for (const permission of permissions) await page.check(`input[name=permissions][value="${permission}"]`);
  await page.selectOption('#lifetime', lifetime);
  await page.click('#create-key');
  await page.waitForLoadState();
}

test('a person creates, copies, renames, rolls, is refused, signs in again, revokes one and all', { skip }, async () => {
  const person = await personWithPassword(f, { roles });
  const { page, violations } = await windowOf();

  // Signed out, the page sends the person to sign in and back.
  await page.goto(f.issuer + '/api-keys');
  await signIn(page, person.email);
  assert.equal(new URL(page.url()).pathname, '/api-keys');
  assert.equal(await textOf(page, 'h1'), 'Your API keys');
  assert.equal(await page.getAttribute('nav.portal a[href="/api-keys"]', 'aria-current'), 'page');
  assert.equal(await textOf(page, '#no-keys'), 'No keys yet.');
  await shot(page, '1-empty');

  // Create: the whole secret once, and the copy button puts it on the clipboard.
  await createKey(page, 'laptop script', ['read:weather']);
  assert.match(await textOf(page, 'h1'), /^Your new key: laptop script$/);
  const secret = await textOf(page, '#new-secret');
  assert.match(secret, /^fc_[0-9A-Za-z]{46}$/);
  assert.equal(new URL(page.url()).pathname, '/api-keys');
  await page.click('#copy-secret');
  await page.waitForFunction("document.querySelector('#copy-secret').textContent === 'Copied'");
  assert.equal(await page.evaluate<string>('navigator.clipboard.readText()'), secret);
  await shot(page, '2-created');
  await page.click('#back-to-api-keys');
  const [keyId] = await rowIds(page);
  assert.equal(await textOf(page, `#key-${keyId} td.name`), 'laptop script');
  assert.equal(await textOf(page, `#key-${keyId} code`), `${secret.slice(0, 7)}…`);
  assert.ok(!(await page.content()).includes(secret.slice(7)), 'the list never shows the secret');
  await shot(page, '3-list');

  // A key at both servers with three permissions, never expiring not offered (the owner's limit).
  await page.fill('#key-name', 'dashboard');
  await page.check('#server-0');
  await page.check('#server-1');
  for (const permission of ['read:weather', 'read:maps', 'write:maps']) await page.check(`input[name=permissions][value="${permission}"]`);
  assert.deepEqual(await page.locator('#lifetime option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value)), ['7', '30', '90', '365']);
  await shot(page, '4-create-form-filled');
  await page.click('#create-key');
  assert.match(await textOf(page, 'h1'), /^Your new key: dashboard$/);
  await page.click('#back-to-api-keys');
  await shot(page, '5-list-two-keys');

  // Rename.
  await page.click(`#rename-${keyId}`);
  await shot(page, '6-rename');
  await page.fill('#key-name', 'laptop (renamed)');
  await page.click('#save-name');
  assert.equal(await textOf(page, 'p.ok'), 'The key is renamed.');
  assert.equal(await textOf(page, `#key-${keyId} td.name`), 'laptop (renamed)');

  // Roll, the old secret kept 24 hours.
  await page.click(`#roll-${keyId}`);
  await page.check('#grace-24');
  await shot(page, '7-roll');
  await page.click('#confirm-roll');
  const rolled = await textOf(page, '#new-secret');
  assert.match(rolled, /^fc_[0-9A-Za-z]{46}$/);
  assert.notEqual(rolled, secret);
  assert.match(await textOf(page, '#old-secret-ends'), /^The old secret keeps working until /);
  await shot(page, '8-rolled');

  // A refusal of the rules, worded on the page, with what was typed kept.
  await page.goto(f.issuer + '/api-keys');
  await page.fill('#key-name', 'no server');
  await page.click('#create-key');
  assert.match(await textOf(page, '.error'), /^Choose 1 to 10 servers the key works at\.$/);
  assert.equal(await page.inputValue('#key-name'), 'no server');
  await shot(page, '9-refused');

  // Eleven minutes later: creating asks for the password again, then comes back to the page.
  (f.t.clock as MovableClock).advance(11 * MINUTE);
  await page.goto(f.issuer + '/api-keys');
  assert.ok(await page.isVisible('#reauth-note'));
  await page.fill('#key-name', 'after a while');
  await page.check('#server-0');
  await page.click('#create-key');
  await page.waitForSelector('#signin-password');
  assert.equal(await textOf(page, 'h1'), 'Sign in');
  await shot(page, '10-sign-in-again');
  await signIn(page, person.email);
  assert.equal(new URL(page.url()).pathname, '/api-keys');
  assert.equal(await textOf(page, 'p.ok'), 'You signed in again: you can create and roll keys for the next 10 minutes.');
  await shot(page, '11-back-after-sign-in');
  await createKey(page, 'after a while', []);
  assert.match(await textOf(page, 'h1'), /^Your new key: after a while$/);

  // Revoke one, with a confirmation; then all.
  await page.goto(f.issuer + '/api-keys');
  assert.equal((await rowIds(page)).length, 3);
  await page.click(`#revoke-${keyId}`);
  assert.equal(await textOf(page, 'h1'), 'Revoke laptop (renamed)?');
  await shot(page, '12-revoke-confirm');
  await page.click('#confirm-revoke');
  assert.equal(await textOf(page, 'p.ok'), 'The key is revoked: servers refuse it within 30 seconds.');
  assert.ok(!(await rowIds(page)).includes(keyId!));
  await page.click('#revoke-all');
  assert.equal(await textOf(page, 'h1'), 'Revoke all 2 of your keys?');
  await shot(page, '13-revoke-all-confirm');
  await page.click('#confirm-revoke-all');
  assert.equal(await textOf(page, '#no-keys'), 'No keys yet.');
  await shot(page, '14-all-revoked');

  // Keys turned off: the page is gone and so is its nav entry.
  await patchKeySettings(f, { enabled: false });
  try {
    const answer = await page.goto(f.issuer + '/api-keys');
    assert.equal(answer?.status(), 404);
    await page.goto(f.issuer + '/');
    assert.equal(await page.locator('nav.portal a[href="/api-keys"]').count(), 0);
    await shot(page, '15-keys-off-overview');
  } finally {
    await patchKeySettings(f, { enabled: true });
  }
  assert.deepEqual(violations, []);
});
