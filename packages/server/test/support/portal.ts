// Helpers of the customer portal tests (test/portal): Chromium launched as the project launches
// it, a visitor signing up on the portal's pages in it, and the owner's API as a hello-world
// server metered by the real @gatehouse/sdk.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createMeter, type Meter } from '../../../sdk/src/index.js';
import { withMeter } from '../../../sdk/src/adapters/node.js';
import type { IssuerFixture } from './issuer.js';
import { expectPage, freshEmail, mailedCode } from './pages.js';
import { createPerson, startPersonSession } from './signin.js';
import { TenantBrowser, type Page as TenantPage } from './tenant-client.js';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Browsers resolve *.localhost to loopback by themselves; the rule makes sure this one does.
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
  });
}

/** Collects what the page's Content-Security-Policy refused: every flow must end with none. */
export function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * From the portal's sign-in page (following its sign-up link) or its sign-up page: the address,
 * the mailed code, a name and a password.
 */
export async function signUpInBrowser(f: IssuerFixture, page: Page, email: string, name: string, password = 'a browser-typed password') {
  if ((await page.locator('#signup-send').count()) === 0) await page.click('#to-signup');
  await page.waitForSelector('#signup-send');
  if (!(await page.inputValue('#email'))) await page.fill('#email', email);
  f.t.mail.take(email);
  await page.click('#signup-send');
  await page.waitForSelector('#signup-complete');
  await page.fill('#code', await mailedCode(f, email, /sign-up code/));
  await page.fill('#name', name);
  await page.fill('#password', password);
  await page.click('#signup-complete');
  await page.waitForLoadState();
}

/** The API's SDK secret, revealed through the console as its owner would. */
export async function sdkSecretOf(f: IssuerFixture): Promise<string> {
  const answer = await f.owner.client.get(`/apis/${f.apiId}/secret`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body.secret as string;
}

export interface MeteredHello {
  url: string;
  meter: Meter;
  close(): Promise<void>;
}

/**
 * The SDK README's node:http example: a hello world behind `withMeter`, on a free port, metering
 * with the API's secret against the test app on the app's own clock. `status` picks what a request
 * answers (`/?status=503`), so a test can make errors too.
 */
export async function meteredHello(f: IssuerFixture, secret: string): Promise<MeteredHello> {
  const meter = createMeter({ secret, baseUrl: f.t.url, journalDir: null, now: () => f.t.clock.now().getTime(), onError: () => {} });
  const server: Server = createServer(withMeter(meter, (req, res) => {
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ hello: 'world', customer: req.gatehouse?.id }));
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    meter,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await meter.close();
    },
  };
}

/**
 * A person of the API signed in to its portal over HTTP, without the sign-up pages (their flows
 * have tests of their own): a person row and an issuer session, as a sign-up would leave them; the
 * portal then signs them in through the issuer like anyone. Answers the overview they land on.
 */
export async function portalVisitor(f: IssuerFixture, options: { email?: string; name?: string; api?: { id: string; issuer: string } } = {}) {
  const apiId = options.api?.id ?? f.apiId;
  const person = await createPerson(f.t, apiId, { email: options.email ?? freshEmail('visitor'), name: options.name ?? 'Val Visitor' });
  const session = await startPersonSession(f.t, apiId, person.id);
  const browser = new TenantBrowser(options.api?.issuer ?? f.issuer);
  browser.cookies.set('gh_ps', session.token);
  const overview: TenantPage = await browser.get('/');
  return { person, browser, overview };
}

/** A signed-in person's customer, as the portal chose it (their first). */
export async function customerIdOf(f: IssuerFixture, apiId: string, personId: string): Promise<string> {
  const [membership] = await f.t.services.customerMembers.membershipsOf(apiId, personId);
  assert.ok(membership, 'the person acts for a customer');
  return membership.customer_id;
}

/** The team page, asserted to be one. */
export async function teamPageOf(browser: TenantBrowser) {
  return expectPage(await browser.get('/team'), /^Team of /);
}
