// The invitation link in a real browser (DESIGN 10: Chromium for pages): Debian's chromium driven
// by playwright-core opens the link of the real invitation mail, accepts as a new address and
// lands signed in to the console, with no Content-Security-Policy violation on the way. Each page
// is saved as a screenshot in test-output/console/invite-page-browser/ for a reviewer to look at.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { mailedInvitation } from '../support/invite-page.js';
import { testOutputDir } from '../support/output.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;
const output = testOutputDir(import.meta.url);

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

test('Chromium: the link of the invitation mail, accepted as a new address, lands signed in to the console', { skip }, async () => {
  const owner = await signUp(t, { name: 'Olivia Owner', email: uniqueEmail('olivia') });
  const ws = (await owner.client.post('/workspaces', { name: 'Acme Weather' })).body.id;
  const email = uniqueEmail('casey');
  const { link } = await mailedInvitation(t, owner.client, ws, email, 'editor');

  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });

  await page.goto(link);
  assert.equal(await page.locator('h1').textContent(), 'Join Acme Weather');
  assert.equal(await page.locator('header strong').textContent(), 'Gatehouse');
  assert.equal(await page.locator('#invited-by').textContent(), 'Olivia Owner');
  assert.equal(await page.locator('#role').textContent(), 'editor');
  assert.equal(await page.locator('#invited-email').textContent(), email);
  await page.screenshot({ path: join(output, '1-invitation.png'), fullPage: true });

  // The browser's own checks hold a short password back before anything is sent.
  await page.fill('#name', 'Casey Newcomer');
  await page.fill('#password', 'short');
  await page.click('#accept-create');
  assert.equal(await page.locator('#password').evaluate((input) => (input as unknown as { validity: { tooShort: boolean } }).validity.tooShort), true);

  await page.fill('#password', PASSWORD);
  await page.click('#accept-create');
  await page.waitForSelector('#next-docs');
  assert.equal(await page.locator('h1').textContent(), 'You joined Acme Weather');
  assert.equal(await page.locator('#signed-in-as').textContent(), email);
  assert.equal(await page.locator('#workspace-id').textContent(), ws);
  await page.screenshot({ path: join(output, '2-joined.png'), fullPage: true });

  const session = (await context.cookies(t.url)).find((cookie) => cookie.name === 'gh_session');
  assert.ok(session?.httpOnly, 'a console session cookie the page scripts cannot read');
  assert.equal(session.sameSite, 'Lax');
  // Signed in for real: the console API answers this browser as the new account.
  const me = await page.request.get(`${t.url}/api/me`);
  assert.equal(me.status(), 200);
  const body = await me.json();
  assert.equal(body.user.email, email);
  assert.deepEqual(body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role]), [[ws, 'editor']]);

  assert.deepEqual(violations, [], 'no Content-Security-Policy violations on the invitation pages');

  // Where to go next works: the console API documentation (swagger-ui, under its own policy).
  await page.click('#next-docs');
  await page.waitForURL(`${t.url}/api/docs**`);
  assert.ok((await page.title()).length > 0);

  // The link was used: opening it again is the clear page, not the form.
  violations.length = 0;
  const again = await page.goto(link);
  assert.equal(again?.status(), 404);
  assert.equal(await page.locator('h1').textContent(), 'This invitation cannot be used');
  await page.screenshot({ path: join(output, '3-used.png'), fullPage: true });

  assert.deepEqual(violations, [], 'no Content-Security-Policy violations');
  await context.close();
});

test('Chromium: signed in as someone else, sign out, then sign in as the invited account with its second factor', { skip }, async () => {
  const owner = await signUp(t, { name: 'Omar Owner', email: uniqueEmail('omar') });
  const ws = (await owner.client.post('/workspaces', { name: 'Nimbus Maps' })).body.id;
  const invitee = await signUp(t, { name: 'Ivy Invitee', email: uniqueEmail('ivy') });
  const { secret } = await enableTwoFactor(t, invitee.client);
  t.clock.advance(30_000);
  const { link } = await mailedInvitation(t, owner.client, ws, invitee.email, 'admin');

  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  // This browser is signed in to the console as the owner, in a session of its own.
  const ownSession = t.client();
  assert.equal((await ownSession.post('/auth/login', { email: owner.email, password: PASSWORD })).status, 200);
  await context.addCookies([{ name: 'gh_session', value: ownSession.cookies.get('gh_session')!, url: t.url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });

  const shown = await page.goto(link);
  assert.equal(shown?.status(), 403);
  assert.equal(await page.locator('#signed-in-as').textContent(), owner.email);
  await page.screenshot({ path: join(output, '4-another-account.png'), fullPage: true });

  await page.click('#signout');
  await page.waitForSelector('#accept-signin');
  assert.equal((await context.cookies(t.url)).some((cookie) => cookie.name === 'gh_session'), false, 'signed out');
  await page.screenshot({ path: join(output, '5-sign-in.png'), fullPage: true });

  await page.fill('#password', PASSWORD);
  await page.click('#accept-signin');
  await page.waitForSelector('#accept-2fa');
  await page.screenshot({ path: join(output, '6-second-factor.png'), fullPage: true });
  await page.fill('#code', totpNow(t, secret));
  await page.click('#accept-2fa');
  await page.waitForSelector('#next-docs');
  assert.equal(await page.locator('#signed-in-as').textContent(), invitee.email);
  assert.equal(await page.locator('#joined-role').textContent(), 'an admin');
  await page.screenshot({ path: join(output, '7-joined-existing-account.png'), fullPage: true });

  const me = await (await page.request.get(`${t.url}/api/me`)).json();
  assert.equal(me.user.email, invitee.email);
  assert.equal(me.workspaces.find((w: { id: string }) => w.id === ws)?.role, 'admin');
  assert.deepEqual(violations, [], 'no Content-Security-Policy violations');
  await context.close();
});
