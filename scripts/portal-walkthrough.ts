// The customer portal end to end against a running server (`npm start`), as a new owner and their
// first customer would try it: `node --import tsx scripts/portal-walkthrough.ts`
// (GATEHOUSE=http://localhost:8080; CHROMIUM=/usr/bin/chromium). An owner signs up through the
// console API and registers an API whose api_base_url is a hello world this script serves, metered
// by @gatehouse/sdk as in the SDK README's node:http example. Then, in Chromium, a customer opens
// the API's portal_url, signs up with a code from the dev outbox, makes a key; the script calls the
// hello world with that key and waits until the portal shows the request and its charge. It prints
// the customer id and the balance it ended with, and exits 1 on any mismatch.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMeter } from '@gatehouse/sdk';
import { withMeter } from '@gatehouse/sdk/node';
import { chromium, type Page } from 'playwright-core';

const G = process.env.GATEHOUSE ?? 'http://localhost:8080';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const cookies = new Map<string, string>();

async function consoleCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${G}/api${path}`, {
    method,
    headers: { 'x-requested-with': 'walkthrough', 'content-type': 'application/json', cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
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

/** The newest six-digit code mailed to `to` whose subject matches, from the dev outbox. */
async function mailedCode(to: string, subject: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const { mails } = (await (await fetch(`${G}/dev/mail.json`)).json()) as { mails: { to: string; subject: string; text: string }[] };
    const code = mails.filter((mail) => mail.to === to && subject.test(mail.subject)).at(-1)?.text.match(/\b\d{6}\b/)?.[0];
    if (code) return code;
    await sleep(250);
  }
  throw new Error(`no code mailed to ${to}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const step = (text: string) => console.log(`- ${text}`);

/** "1,234.005" or "-0.01" as the portal writes credit units → micro units, on integers. */
function micro(shown: string): bigint {
  const match = /^(-?)([\d,]+)\.(\d{2,6})$/.exec(shown.trim());
  if (!match) throw new Error(`not an amount: "${shown}"`);
  const value = BigInt(match[2]!.replace(/,/g, '')) * 1_000_000n + BigInt(match[3]!.padEnd(6, '0'));
  return match[1] ? -value : value;
}

const failures: string[] = [];
function expect(what: string, actual: unknown, expected: unknown) {
  const same = String(actual) === String(expected);
  if (!same) failures.push(`${what}: expected ${String(expected)}, got ${String(actual)}`);
  return same;
}

const textOf = async (page: Page, selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();

const tag = Math.random().toString(36).slice(2, 8);

// The owner's API: a hello world on a port of its own, its address known before the API is registered.
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const helloUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const owner = `owner-${tag}@example.com`;
await consoleCall('POST', '/auth/signup', { email: owner });
const { ticket } = await consoleCall('POST', '/auth/signup/verify', { email: owner, code: await mailedCode(owner, /sign-up code/) });
const { workspace_id: ws } = await consoleCall('POST', '/auth/signup/complete', { ticket, name: 'Ada Owner', password: 'correct horse battery' });
const { api, secret } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Hello ${tag}`, api_base_url: helloUrl });
step(`owner ${owner} registered ${api.name} (api_base_url ${api.api_base_url}); its portal is ${api.portal_url}`);

// The SDK README's node:http example, with this API's secret and key header; usage kept in memory
// (journalDir: null) since this process exits once it has seen the charge.
const meter = createMeter({ secret, baseUrl: G, keyHeader: api.key_header, journalDir: null });
server.on('request', withMeter(meter, (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ customer: req.gatehouse!.id, hello: 'world' }));
}));

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP *.localhost 127.0.0.1'] });
try {
  const page = await browser.newPage();
  await page.goto(api.portal_url);
  expect('the portal opens on', await textOf(page, 'h1'), 'Sign in');
  const customer = `customer-${tag}@example.com`;
  await page.click('#to-signup');
  await page.fill('#email', customer);
  await page.click('#signup-send');
  await page.waitForSelector('#signup-complete');
  await page.fill('#code', await mailedCode(customer, /sign-up code/));
  await page.fill('#name', 'Cy Customer');
  await page.fill('#password', 'a long enough secret');
  await page.click('#signup-complete');
  await page.waitForSelector('#balance');
  const welcome = micro(await textOf(page, '#balance'));
  expect('the welcome credit', welcome, api.welcome_credit_micro);
  step(`signed up on the portal as ${customer}; balance ${await textOf(page, '#balance')}`);

  await page.click('nav.portal a[href="/keys"]');
  await page.fill('#name', 'laptop');
  await page.click('#create-key');
  const key = await textOf(page, '#new-key');
  expect('the quickstart names the API', (await textOf(page, '#curl')).includes(helloUrl), true);
  step(`made key ${key.slice(0, 12)}… on the keys page`);

  const answer = await fetch(helloUrl, { headers: { [api.key_header]: key } });
  const body = (await answer.json()) as { customer?: string; hello?: string };
  expect('the hello world answers', answer.status, 200);
  expect('the hello world says', body.hello, 'world');
  step(`GET ${helloUrl} with the key: ${answer.status} ${JSON.stringify(body)}`);

  // The SDK reports usage in the background (every 5 s by default): the portal shows it once it arrives.
  const price = BigInt(api.price_per_request_micro);
  let shown = false;
  for (let attempt = 0; attempt < 60 && !shown; attempt++) {
    await page.goto(new URL('/', api.portal_url).href);
    shown = (await textOf(page, '#month-requests')) === '1' && micro(await textOf(page, '#month-charged')) === price;
    if (!shown) await sleep(500);
  }
  expect('requests this month on the overview', await textOf(page, '#month-requests'), 1);
  expect('charged this month on the overview', micro(await textOf(page, '#month-charged')), price);
  const balanceShown = await textOf(page, '#balance');
  const balance = micro(balanceShown);
  expect('the balance on the overview', balance, welcome - price);
  step(`overview: 1 request this month, charged ${await textOf(page, '#month-charged')}, balance ${balanceShown}`);

  await page.click('nav.portal a[href="/usage"]');
  const today = await page.locator('#usage-table tbody tr').first().locator('td').allTextContents();
  expect("today's requests on the usage page", today[1], 1);
  expect("today's charge on the usage page", micro(today[4] ?? ''), price);
  await page.click('nav.portal a[href="/ledger"]');
  const usageEntry = await page.locator('#ledger-table tbody tr').first().locator('td').allTextContents();
  expect('the newest ledger entry', `${usageEntry[1]} ${usageEntry[2]}`, 'Usage 1 request');
  expect('its amount', micro(usageEntry[3] ?? ''), -price);
  step(`usage page: ${today.join(' | ')}; ledger: ${usageEntry.join(' | ')}`);

  // The owner's console agrees with what the customer saw.
  const { customers } = await consoleCall('GET', `/apis/${api.id}/customers?q=${encodeURIComponent(customer)}`);
  expect('the customer the API saw', body.customer, customers[0]?.id);
  expect('the balance in the console', customers[0]?.balance_micro, balance);
  console.log(`customer ${body.customer} ended with a balance of ${balanceShown} (${balance} micro units)`);
} finally {
  await browser.close();
  await meter.close();
  server.close();
}

if (failures.length) {
  for (const failure of failures) console.error(`MISMATCH ${failure}`);
  process.exit(1);
}
