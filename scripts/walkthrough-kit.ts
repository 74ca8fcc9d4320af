// What the walkthroughs against a running server share (scripts/portal-walkthrough.ts,
// scripts/payments-walkthrough.ts): the console API with a cookie jar, codes from the dev outbox,
// amounts as the portal writes them, Chromium, an owner's sign-up, a hello world metered by
// @gatehouse/sdk, and a customer's sign-up on the portal. GATEHOUSE=http://localhost:8080 and
// CHROMIUM=/usr/bin/chromium by default.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMeter, type Meter } from '@gatehouse/sdk';
import { withMeter } from '@gatehouse/sdk/node';
import { chromium, type Browser, type Page } from 'playwright-core';

export const G = process.env.GATEHOUSE ?? 'http://localhost:8080';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const cookies = new Map<string, string>();

/** A console API call as the signed-in owner (cookies kept); throws on anything but 2xx. */
export async function consoleCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${G}/api${path}`, {
    method,
    headers: { 'x-requested-with': 'walkthrough', ...(body === undefined ? {} : { 'content-type': 'application/json' }), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json as any;
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The newest mail to `to` whose subject matches, from the dev outbox (waits up to 10 s). */
export async function mailed(to: string, subject: RegExp): Promise<OutboxMail> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const { mails } = (await (await fetch(`${G}/dev/mail.json`)).json()) as { mails: OutboxMail[] };
    const found = mails.filter((mail) => mail.to === to && subject.test(mail.subject)).at(-1);
    if (found) return found;
    await sleep(250);
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/** The newest six-digit code mailed to `to` whose subject matches. */
export async function mailedCode(to: string, subject: RegExp): Promise<string> {
  const code = (await mailed(to, subject)).text.match(/\b\d{6}\b/)?.[0];
  if (!code) throw new Error(`no code in the mail to ${to}`);
  return code;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const step = (text: string) => console.log(`- ${text}`);

/** "1,234.005" or "-0.01" as the portal writes credit units → micro units, on integers. */
export function micro(shown: string): bigint {
  const match = /^(-?)([\d,]+)\.(\d{2,6})$/.exec(shown.trim());
  if (!match) throw new Error(`not an amount: "${shown}"`);
  const value = BigInt(match[2]!.replace(/,/g, '')) * 1_000_000n + BigInt(match[3]!.padEnd(6, '0'));
  return match[1] ? -value : value;
}

export const failures: string[] = [];
/** Records a mismatch (the script exits 1 at the end if there is any); true when they agree. */
export function expect(what: string, actual: unknown, expected: unknown) {
  const same = String(actual) === String(expected);
  if (!same) failures.push(`${what}: expected ${String(expected)}, got ${String(actual)}`);
  return same;
}

/** Prints every mismatch and exits 1 if there was any. */
export function finish(): void {
  if (failures.length) {
    for (const failure of failures) console.error(`MISMATCH ${failure}`);
    process.exit(1);
  }
}

export const textOf = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP *.localhost 127.0.0.1'] });
}

export const tag = Math.random().toString(36).slice(2, 8);

/** A server on a free port whose address is known before the API is registered. */
export async function listen(): Promise<{ server: Server; url: string }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A new owner signs up through the console API (code from the dev outbox); answers the workspace. */
export async function signUpOwner(email: string): Promise<string> {
  await consoleCall('POST', '/auth/signup', { email });
  const { ticket } = await consoleCall('POST', '/auth/signup/verify', { email, code: await mailedCode(email, /sign-up code/) });
  const { workspace_id: workspace } = await consoleCall('POST', '/auth/signup/complete', { ticket, name: 'Ada Owner', password: 'correct horse battery' });
  return workspace as string;
}

/**
 * The SDK README's node:http example on `server`, with the API's secret and key header; usage is
 * kept in memory (journalDir: null) since the script exits once it has seen what it waits for.
 */
export function serveHello(server: Server, api: { key_header: string }, secret: string): Meter {
  const meter = createMeter({ secret, baseUrl: G, keyHeader: api.key_header, journalDir: null });
  server.on('request', withMeter(meter, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ customer: req.gatehouse!.id, hello: 'world' }));
  }));
  return meter;
}

/** A customer opens the portal, follows "Create an account", and signs up with the mailed code. */
export async function signUpOnPortal(page: Page, portalUrl: string, email: string, name: string): Promise<void> {
  await page.goto(portalUrl);
  expect('the portal opens on', await textOf(page, 'h1'), 'Sign in');
  await page.click('#to-signup');
  await page.fill('#email', email);
  await page.click('#signup-send');
  await page.waitForSelector('#signup-complete');
  await page.fill('#code', await mailedCode(email, /sign-up code/));
  await page.fill('#name', name);
  await page.fill('#password', 'a long enough secret');
  await page.click('#signup-complete');
  await page.waitForSelector('#balance');
}

/** Makes a key on the portal's keys page and answers it. */
export async function makeKey(page: Page, name: string): Promise<string> {
  await page.click('nav.portal a[href="/keys"]');
  await page.fill('#name', name);
  await page.click('#create-key');
  return textOf(page, '#new-key');
}
