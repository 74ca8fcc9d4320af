// The whole flow in a real browser (DESIGN 10: Chromium for pages): Debian's chromium driven by
// playwright-core signs up with an e-mailed code, consents, and lands on the app's redirect URI
// with code, state and iss; then signs out through the confirmation page. No Content-Security-Policy
// violation on the way.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { exchange, freshEmail, mailedCode } from '../support/pages.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;

let f: IssuerFixture;
let browser: Browser;
before(async () => {
  if (skip) return;
  f = await startIssuer('Browser API');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // Browsers resolve *.localhost to loopback by themselves; the rule makes sure this one does.
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
  });
});
after(async () => {
  await browser?.close();
  await f?.t.close();
});

test('Chromium: sign up with an e-mailed code, consent, return to the app with a code, and sign out', { skip }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  // The app's redirect URI is not a real host: the browser's arrival there is caught, not fetched.
  let landed: URL | null = null;
  await page.route('https://web.example/**', async (route) => {
    landed = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>App</title><p>Back in the app</p>' });
  });

  const { params, pkce } = webRequest(f);
  const url = new URL(`${f.issuer}/oauth/authorize`);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  await page.goto(url.href);
  assert.equal(await page.locator('h1').textContent(), 'Sign in');
  assert.equal(await page.locator('header strong').textContent(), 'Browser API');

  await page.click('#to-signup');
  await page.waitForSelector('#signup-send');
  const email = freshEmail('chromium');
  f.t.mail.take(email);
  await page.fill('#email', email);
  await page.click('#signup-send');
  await page.waitForSelector('#signup-complete');
  await page.fill('#code', await mailedCode(f, email, /sign-up code/));
  await page.fill('#name', 'Chris Chromium');
  await page.fill('#password', 'a browser-typed password');
  await page.click('#signup-complete');

  await page.waitForSelector('#consent-allow');
  assert.equal(await page.locator('#app-name').textContent(), 'Weather Web');
  const cookies = await context.cookies(f.issuer);
  const session = cookies.find((cookie) => cookie.name === 'gh_ps');
  assert.ok(session?.httpOnly, 'a session cookie the page scripts cannot read');
  await page.click('#consent-allow');

  await page.waitForURL('https://web.example/**');
  assert.ok(landed, 'the browser arrived at the redirect URI');
  const answer = (landed as URL).searchParams;
  assert.equal(answer.get('state'), params.state);
  assert.equal(answer.get('iss'), f.issuer);
  const tokens = await exchange(f, answer.get('code')!, pkce.verifier);
  assert.equal(tokens.claims.email, email);
  assert.equal(tokens.claims.name, 'Chris Chromium');

  // Signing out without an ID token asks first; the confirming form's redirect reaches the app.
  const logout = new URL(`${f.issuer}/oauth/logout`);
  logout.searchParams.set('client_id', f.web.clientId);
  logout.searchParams.set('post_logout_redirect_uri', f.web.logoutUri);
  logout.searchParams.set('state', 'bye-state');
  await page.goto(logout.href);
  await page.click('button[type=submit]');
  await page.waitForURL('https://web.example/bye**');
  assert.equal((landed as URL | null)?.searchParams.get('state'), 'bye-state');
  assert.ok(!(await context.cookies(f.issuer)).some((cookie) => cookie.name === 'gh_ps'), 'signed out');
  assert.deepEqual(violations, [], 'no Content-Security-Policy violations');
  await context.close();
});
