// The customer portal in a real browser (issue 12 item 5, DESIGN 10: Chromium for pages): Debian's
// chromium driven by playwright-core signs up in each signup mode (open; approval, then approved in
// the console; invite, through the mailed link), a teammate accepts an invitation, a key is made
// and used through the real @gatehouse/sdk (a metered hello world), the request and its charge show
// on the overview, usage and ledger pages, and the key is revoked. No Content-Security-Policy
// violation anywhere. Every flow saves screenshots in test-output/portal/portal-browser/.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { freshEmail } from '../support/pages.js';
import { testOutputDir } from '../support/output.js';
import { chromiumMissing as skip, cspViolations, launchChromium, meteredHello, sdkSecretOf, signUpInBrowser, type MeteredHello } from '../support/portal.js';

const output = testOutputDir(import.meta.url);

let f: IssuerFixture;
let browser: Browser;
let hello: MeteredHello;
before(async () => {
  if (skip) return;
  f = await startIssuer('Forecast API');
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, {
    signup_mode: 'open', tagline: 'Forecasts by the minute', support_email: 'help@forecast.example', docs_url: 'https://docs.forecast.example', accent_color: '#0b7285',
  });
  assert.equal(set.status, 200, set.text);
  browser = await launchChromium();
  hello = await meteredHello(f, await sdkSecretOf(f));
  await f.owner.client.patch(`/apis/${f.apiId}`, { api_base_url: hello.url });
});
after(async () => {
  await hello?.close();
  await browser?.close();
  await f?.t.close();
});

async function setMode(mode: 'open' | 'approval' | 'invite') {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: mode });
  assert.equal(answer.status, 200, answer.text);
}

/** A browser window of its own (its own cookies), with the CSP watched. */
async function windowOf(): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  return { context, page, violations: cspViolations(page) };
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(output, `${name}.png`), fullPage: true });
const textOf = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

async function customerOf(email: string) {
  const list = await f.owner.client.get(`/apis/${f.apiId}/customers?q=${encodeURIComponent(email)}`);
  assert.equal(list.status, 200, list.text);
  return list.body.customers[0] as { id: string; status: string };
}

// The open customer of the first test, used by the teammate flow.
let openOwner: { page: Page; email: string; name: string };

test('open: sign up, make a key, call the metered API with it, see the request and its charge, revoke', { skip }, async () => {
  await setMode('open');
  const { page, violations } = await windowOf();
  const email = freshEmail('olga');
  await page.goto(f.issuer + '/');
  assert.equal(await textOf(page, 'h1'), 'Sign in');
  await signUpInBrowser(f, page, email, 'Olga Open');
  await page.waitForSelector('#balance');
  assert.equal(await textOf(page, 'h1'), 'Olga Open');
  assert.equal(await textOf(page, '#balance'), '1.00', 'the welcome credit');
  assert.equal(await textOf(page, '#month-requests'), '0');
  await shot(page, 'open-1-overview-new');

  await page.click('nav.portal a[href="/keys"]');
  await page.fill('#name', 'production');
  await page.click('#create-key');
  const key = await textOf(page, '#new-key');
  assert.match(key, /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/);
  assert.ok((await textOf(page, '#curl')).includes(hello.url), 'the quickstart names the API base URL');
  await shot(page, 'open-2-key-created');

  // The customer's app calls the owner's API: three good requests and one that fails on the server.
  for (const path of ['/', '/', '/', '/?status=503']) {
    const answer = await fetch(hello.url + path, { headers: { 'x-api-key': key } });
    assert.equal(answer.status, path.includes('503') ? 503 : 200, await answer.text());
  }
  await hello.meter.flush();
  await page.click('nav.portal a[href="/"]');
  assert.equal(await textOf(page, '#month-requests'), '4');
  assert.equal(await textOf(page, '#month-charged'), '0.003', 'three billable requests at 0.001');
  assert.equal(await textOf(page, '#balance'), '0.997');
  await shot(page, 'open-3-overview-after-requests');

  await page.click('nav.portal a[href="/usage"]');
  assert.equal(await textOf(page, '#total-requests'), '4');
  assert.equal(await textOf(page, '#total-billable'), '3');
  assert.equal(await textOf(page, '#total-errors'), '1');
  assert.equal(await textOf(page, '#total-charged'), '0.003');
  const today = f.t.clock.now().toISOString().slice(0, 10);
  const todayRow = page.locator('#usage-table tbody tr').first();
  assert.deepEqual(await todayRow.locator('td').allTextContents(), [today, '4', '3', '1', '0.003']);
  assert.equal(await page.locator('#usage-table tbody tr').count(), 30);
  // The chart is named for screen readers and draws today's bars.
  assert.match(await textOf(page, '#requests-chart-title'), /^Requests per day/);
  assert.ok((await page.locator('#requests-chart g.day').last().locator('rect.bar-requests').getAttribute('height')) !== '0.0');
  await shot(page, 'open-4-usage');

  await page.click('nav.portal a[href="/ledger"]');
  const entries = await page.locator('#ledger-table tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(entries, [[today, 'Usage', '4 requests', '-0.003'], [today, 'Welcome credit', '', '+1.00']], 'newest first, the welcome note not repeated');
  await shot(page, 'open-5-ledger');

  await page.click('nav.portal a[href="/keys"]');
  await page.click('a[id^="revoke-"]');
  assert.equal(await textOf(page, 'h1'), 'Revoke production?');
  await shot(page, 'open-6-revoke-confirm');
  await page.click('#confirm-revoke');
  assert.match(await textOf(page, 'p.ok'), /Revoked production/);
  await shot(page, 'open-7-revoked');
  // The meter learns of it with its next snapshot, and then refuses the key.
  await hello.meter.sync();
  assert.equal((await fetch(hello.url, { headers: { 'x-api-key': key } })).status, 401);

  await page.click('nav.portal a[href="/quickstart"]');
  assert.ok((await textOf(page, '#node')).includes(hello.url));
  await shot(page, 'open-8-quickstart');
  await page.click('nav.portal a[href="/account"]');
  assert.equal(await textOf(page, '#person-email'), email);
  await shot(page, 'open-9-account');

  assert.deepEqual(violations, [], 'no Content-Security-Policy violations');
  openOwner = { page, email, name: 'Olga Open' };
});

test('plans: the public active plans with price, credit and limits, and how to ask for one', { skip }, async () => {
  const plan = async (body: Record<string, unknown>) => {
    const made = await f.owner.client.post(`/apis/${f.apiId}/plans`, body);
    assert.equal(made.status, 200, made.text);
    return made.body.id as string;
  };
  await plan({ name: 'Starter', price_monthly_cents: 900, credit_micro: 10_000_000, description: 'For side projects', rps: 5, monthly_quota: 50_000, sort: 1 });
  await plan({ name: 'Business', price_monthly_cents: 4900, credit_micro: 60_000_000, description: 'For teams in production', price_per_request_micro: 500, rps: 0, monthly_quota: 0, sort: 2 });
  await plan({ name: 'Internal', price_monthly_cents: 0, visibility: 'private' });
  await plan({ name: 'Legacy', price_monthly_cents: 1900, active: false });
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { plans_enabled: true })).status, 200);
  const { page, violations } = await windowOf();
  await page.goto(f.issuer + '/');
  await signUpInBrowser(f, page, freshEmail('pia'), 'Pia Plans');
  await page.click('nav.portal a[href="/plans"]');
  assert.deepEqual(await page.locator('.plan h2').allTextContents(), ['Starter', 'Business']);
  assert.match(await textOf(page, '.plans'), /\$9\.00/);
  assert.match(await textOf(page, '.plans'), /10\.00 of credit every month/);
  assert.match((await page.locator('.plan-action a').first().getAttribute('href'))!, /^mailto:help@forecast\.example\?subject=/);
  await shot(page, 'plans');
  assert.deepEqual(violations, []);
});

test('team: an owner invites a teammate on the team page; the teammate accepts by the mailed link', { skip }, async () => {
  const { page } = openOwner;
  await page.click('nav.portal a[href="/team"]');
  const teammate = freshEmail('tomas');
  f.t.mail.take(teammate);
  await page.fill('#invite-email', teammate);
  await page.selectOption('#invite-role', 'admin');
  await page.click('#send-invitation');
  assert.equal(await textOf(page, 'p.ok'), 'Invitation sent.');
  assert.ok(page.url().endsWith('/team?done=invited'), 'a GET after the post: reloading sends nothing again');
  assert.equal(await page.locator('#invitations tbody tr').count(), 1);
  await shot(page, 'team-1-invitation-sent');

  const link = /(http:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(teammate, /You are invited to/)).text)![1]!;
  const other = await windowOf();
  await other.page.goto(link);
  assert.equal(await textOf(other.page, 'h1'), 'You are invited');
  await shot(other.page, 'team-2-invitation-landing');
  await other.page.click('#invite-signup');
  assert.equal(await other.page.inputValue('#email'), teammate, 'the address is filled in');
  await signUpInBrowser(f, other.page, teammate, 'Tomas Teammate');
  await other.page.waitForSelector('#balance');
  assert.equal(await textOf(other.page, 'h1'), openOwner.name, "the teammate acts for the inviter's customer");

  await page.goto(f.issuer + '/team');
  assert.deepEqual(await page.locator('#members td.role').allTextContents(), ['owner', 'admin']);
  assert.equal(await page.locator('#no-invitations').count(), 1);
  await shot(page, 'team-3-joined');
  await other.page.click('nav.portal a[href="/team"]');
  await other.page.click('#leave');
  assert.match(await textOf(other.page, 'h1'), /^Leave /);
  await shot(other.page, 'team-4-leave-confirm');
  assert.deepEqual([...other.violations], []);
});

test('approval: the sign-up waits; approved in the console, the mailed link opens the overview', { skip }, async () => {
  await setMode('approval');
  const { page, violations } = await windowOf();
  const email = freshEmail('ada');
  await page.goto(f.issuer + '/');
  await signUpInBrowser(f, page, email, 'Ada Approval');
  assert.equal(await textOf(page, 'h1'), 'Waiting for approval');
  assert.equal(await page.locator('nav.portal').count(), 0);
  await shot(page, 'approval-1-waiting');

  const customer = await customerOf(email);
  assert.equal(customer.status, 'pending');
  f.t.mail.take(email);
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/customers/${customer.id}`, { status: 'active' })).status, 200);
  const link = /(http:\/\/\S+)/.exec((await f.t.mail.waitFor(email, /is approved/)).text)![1]!;
  await page.goto(link);
  await page.waitForSelector('#balance');
  assert.equal(await textOf(page, 'h1'), 'Ada Approval');
  await shot(page, 'approval-2-approved');
  assert.deepEqual(violations, []);
});

test('invite: a stranger is told sign-up is by invitation; the invited address signs up by the mailed link', { skip }, async () => {
  await setMode('invite');
  const stranger = await windowOf();
  await stranger.page.goto(f.issuer + '/');
  await stranger.page.click('#to-signup');
  await stranger.page.fill('#email', freshEmail('sid'));
  await stranger.page.click('#signup-send');
  assert.match(await textOf(stranger.page, 'main'), /Sign-up is by invitation/);
  await shot(stranger.page, 'invite-1-stranger-refused');

  const email = freshEmail('ines');
  f.t.mail.take(email);
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/customers/invite`, { email })).status, 200);
  const link = /(http:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(email, /You are invited/)).text)![1]!;
  const { page, violations } = await windowOf();
  await page.goto(link);
  assert.equal(await textOf(page, 'h1'), 'You are invited');
  await shot(page, 'invite-2-landing');
  await page.click('#invite-signup');
  await signUpInBrowser(f, page, email, 'Ines Invited');
  await page.waitForSelector('#balance');
  assert.equal(await textOf(page, 'h1'), 'Ines Invited');
  assert.equal((await customerOf(email)).status, 'active');
  await shot(page, 'invite-3-overview');
  assert.deepEqual([...violations, ...stranger.violations], []);
});
