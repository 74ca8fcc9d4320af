// The customer portal end to end against a running server (`npm start`), as a new owner and their
// first customer would try it: `node --import tsx scripts/portal-walkthrough.ts`
// (GATEHOUSE=http://localhost:8080; CHROMIUM=/usr/bin/chromium). An owner signs up through the
// console API and registers an API whose api_base_url is a hello world this script serves, metered
// by @gatehouse/sdk as in the SDK README's node:http example. Then, in Chromium, a customer opens
// the API's portal_url, signs up with a code from the dev outbox, makes a key; the script calls the
// hello world with that key and waits until the portal shows the request and its charge. It prints
// the customer id and the balance it ended with, and exits 1 on any mismatch.
import { consoleCall, expect, finish, launchChromium, listen, makeKey, micro, serveHello, signUpOnPortal, signUpOwner, sleep, step, tag, textOf } from './walkthrough-kit.js';

// The owner's API: a hello world on a port of its own, its address known before the API is registered.
const { server, url: helloUrl } = await listen();

const owner = `owner-${tag}@example.com`;
const ws = await signUpOwner(owner);
const { api, secret } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Hello ${tag}`, api_base_url: helloUrl });
step(`owner ${owner} registered ${api.name} (api_base_url ${api.api_base_url}); its portal is ${api.portal_url}`);

// The SDK README's node:http example, with this API's secret and key header.
const meter = serveHello(server, api, secret);

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const customer = `customer-${tag}@example.com`;
  await signUpOnPortal(page, api.portal_url, customer, 'Cy Customer');
  const welcome = micro(await textOf(page, '#balance'));
  expect('the welcome credit', welcome, api.welcome_credit_micro);
  step(`signed up on the portal as ${customer}; balance ${await textOf(page, '#balance')}`);

  const key = await makeKey(page, 'laptop');
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

finish();
