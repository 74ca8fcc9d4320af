// An API's ledger in Chromium (issue 21): every entry written exactly from micro units with its
// sign, usage entries with their requests and day, cursor paging across pages of a small limit,
// the kind filter, and the customer filter from the picker (which asks for customers only when it
// is opened) and from the customer page's "See ledger". Set-up through the API; every page is
// compared with what GET /apis/{api}/ledger answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { formatCount, formatSignedMicro } from '../src/format/money.js';
import { apiRequestsOnOpen, heading, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { attributesOf, creditThroughApi, customerWithKey, DAY_MS, eventually, fileOwner, type MeteredApi, ownerWithApi, readApi, reportRequests } from './support/metered-api.js';
import type { SignedUp } from '../../server/test/support/flows.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

interface Entry {
  id: string;
  customer_name: string;
  kind: string;
  note: string;
  amount_micro: number;
  requests: number;
  usage_day?: string;
  ref?: string;
}

const KIND_NAMES: Record<string, string> = { welcome: 'Welcome credit', credit: 'Credit or debit by hand', usage: 'Usage' };

/** The rows of the page are the entries of the API's answer, each as the API has it. */
async function showsEntries(page: Page, expected: Entry[]) {
  const rows = page.getByTestId('ledger').locator('tbody tr');
  await eventually(() => attributesOf(rows, 'data-entry'), expected.map((e) => e.id), 'the entries of the page');
  for (const entry of expected) {
    const cells = await page.locator(`tr[data-entry="${entry.id}"] td`).allTextContents();
    const details =
      entry.kind === 'usage' ? `${formatCount(entry.requests)} ${entry.requests === 1 ? 'request' : 'requests'} on ${entry.usage_day!.slice(0, 10)}` : `${entry.note}${entry.ref ? `Reference ${entry.ref}` : ''}`;
    assert.deepEqual([cells[1], cells[2], cells[3], cells[5]], [entry.customer_name, KIND_NAMES[entry.kind], details, formatSignedMicro(entry.amount_micro)], `entry ${entry.id}`);
  }
}

async function ledgerOf(api: MeteredApi, query: string): Promise<{ entries: Entry[]; next_cursor?: string }> {
  return readApi(api, `/apis/${api.apiId}/ledger?${query}`);
}

test('entries with their signs, paged across two pages, filtered by kind and by customer', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const api = await ownerWithApi(f, cp, owner, 'Ledger API');
  const acme = await customerWithKey(f, api, 'Acme Corp');
  const globex = await customerWithKey(f, api, 'Globex');
  await creditThroughApi(api, acme.id, 5_000_000, 'Prepaid', 'invoice-1');
  await creditThroughApi(api, globex.id, -250_000, 'Correction');
  const now = f.t.clock.now();
  await reportRequests(api, acme, [{ status: 200, count: 7, at: now }, { status: 404, count: 2, at: now }]);
  await reportRequests(api, globex, [{ status: 200, count: 1, at: new Date(now.getTime() - DAY_MS) }]);

  const path = `/apis/${api.apiId}/ledger`;
  const requests = await apiRequestsOnOpen(page, `${path}?limit=4`);
  console.log(`requests on open of the ledger: ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3, requests.join(', '));
  const first = await ledgerOf(api, 'limit=4');
  const second = await ledgerOf(api, `limit=4&cursor=${first.next_cursor}`);
  assert.equal(second.next_cursor, undefined);
  const all = [...first.entries, ...second.entries];
  // The entries themselves, so the page cannot pass by agreeing with a wrong set-up.
  assert.deepEqual(all.map((e) => `${e.customer_name} ${e.kind} ${formatSignedMicro(e.amount_micro)}`).sort(), [
    'Acme Corp credit +5.00', 'Acme Corp usage -0.007', 'Acme Corp welcome +1.00', 'Globex credit -0.25', 'Globex usage -0.001', 'Globex welcome +1.00',
  ]);
  assert.equal(all.find((e) => e.kind === 'usage' && e.customer_name === 'Acme Corp')!.requests, 9, 'every request counts, billable or not');
  await showsEntries(page, first.entries);
  assert.equal(await heading(page), 'Ledger');
  assert.equal(await page.locator('td.credit').first().textContent().then((t) => t?.startsWith('+')), true);
  await shotAndCheck(f, page, '1-page-1');
  await page.getByRole('button', { name: 'Next page' }).click();
  await showsEntries(page, second.entries);
  assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
  await shotAndCheck(f, page, '2-page-2');
  await page.getByRole('button', { name: 'Previous page' }).click();
  await showsEntries(page, first.entries);

  // Kind: usage only, then a kind with no entry.
  await page.getByLabel('Kind').selectOption('usage');
  await page.waitForURL(/kind=usage/);
  await showsEntries(page, (await ledgerOf(api, 'limit=4&kind=usage')).entries);
  await shotAndCheck(f, page, '3-usage');
  await page.getByLabel('Kind').selectOption('topup');
  await page.getByRole('heading', { name: 'No entries match' }).waitFor();
  await shotAndCheck(f, page, '4-no-match');
  await page.getByLabel('Kind').selectOption('');

  // The customer picker asks for customers only when it is opened.
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) asked.push(`${request.method()} ${url.pathname}`);
  });
  await showsEntries(page, first.entries);
  assert.deepEqual(asked.filter((r) => r.includes('/customers')), []);
  await page.getByRole('button', { name: 'Choose a customer' }).click();
  await page.getByLabel('Find a customer').fill('glob');
  await page.getByRole('group', { name: 'Choose a customer' }).getByRole('button', { name: /^Globex/ }).click();
  await page.waitForURL(new RegExp(`customer_id=${globex.id}`));
  assert.ok(asked.some((r) => r === `GET /api/apis/${api.apiId}/customers`), asked.join(', '));
  await showsEntries(page, (await ledgerOf(api, `limit=4&customer_id=${globex.id}`)).entries);
  await eventually(() => page.getByTestId('ledger-customer').textContent(), 'Globex', 'the customer filtered on');
  await shotAndCheck(f, page, '5-one-customer');
  await page.getByRole('button', { name: 'All customers' }).click();
  await showsEntries(page, first.entries);

  // "See ledger" on a customer's page opens the ledger of that customer.
  await page.goto(`/apis/${api.apiId}/customers/${acme.id}`);
  await page.getByRole('link', { name: 'See ledger' }).click();
  await page.waitForURL(new RegExp(`/ledger\\?customer_id=${acme.id}`));
  await showsEntries(page, (await ledgerOf(api, `customer_id=${acme.id}`)).entries);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('an API without entries says so', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const api = await ownerWithApi(f, cp, owner, 'Empty Ledger API');
  await cp.page.goto(`/apis/${api.apiId}/ledger`);
  await cp.page.getByRole('heading', { name: 'No entries yet' }).waitFor();
  await shotAndCheck(f, cp.page, '6-empty');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
