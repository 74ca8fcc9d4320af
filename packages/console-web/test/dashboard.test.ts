// The dashboard of an API in Chromium (issue 21): StatsBody as figures, the platform allowance as
// a meter, the charts of 30 days with their text alternative, top customers linking to their
// pages, and the empty state of an API without traffic. The set-up goes through the API; every
// figure on the page is compared with what GET /apis/{api}/stats answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPendingCustomer } from '../../server/test/support/money.js';
import { formatCount, formatMicro } from '../src/format/money.js';
import { apiRequestsOnOpen, heading, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { creditThroughApi, customerWithKey, DAY_MS, fileOwner, ownerWithApi, readApi, reportRequests, rowsOf } from './support/metered-api.js';
import type { SignedUp } from '../../server/test/support/flows.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

test('an API without traffic shows its figures at zero and points to the Connect page', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const api = await ownerWithApi(f, cp, owner, 'Quiet API');
  const requests = await apiRequestsOnOpen(cp.page, `/apis/${api.apiId}`);
  console.log(`requests on open of the dashboard (no traffic): ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3, requests.join(', '));
  await cp.page.getByRole('heading', { name: 'No traffic yet' }).waitFor();
  assert.equal(await heading(cp.page), 'Quiet API: dashboard');
  assert.equal(await cp.page.getByTestId('requests-month').textContent(), '0');
  assert.equal(await cp.page.getByTestId('charged-month').textContent(), '0.00');
  const connect = cp.page.getByRole('link', { name: 'Connect your API' });
  assert.equal(await connect.getAttribute('href'), `/apis/${api.apiId}/connect`);
  assert.equal(await cp.page.getByTestId('requests-chart').count(), 0, 'no chart of nothing');
  await shotAndCheck(f, cp.page, '1-no-traffic');

  // An API that is not the caller's (or not at all) is the API's 404, shown as such.
  await cp.page.goto('/apis/api_nosuchapi000000000');
  await cp.page.getByRole('heading', { name: 'Not found' }).waitFor();
  await shotAndCheck(f, cp.page, '3-not-found');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('the figures, the allowance, the charts and top customers are what the API answers', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const api = await ownerWithApi(f, cp, owner, 'Weather API');
  const now = f.t.clock.now();
  const acme = await customerWithKey(f, api, 'Acme Corp');
  const globex = await customerWithKey(f, api, 'Globex');
  const initech = await customerWithKey(f, api, 'Initech');
  await createPendingCustomer(f.t, api, 'Waiting Co');
  await creditThroughApi(api, acme.id, 5_000_000, 'Prepaid', 'invoice-1');
  // Three days of traffic: billable (200), not billable (404) and errors (500), today and before.
  await reportRequests(api, acme, [
    { status: 200, count: 12, at: now },
    { status: 404, count: 3, at: now },
    { status: 500, count: 2, at: now },
    { status: 200, count: 7, at: new Date(now.getTime() - 2 * DAY_MS) },
  ]);
  await reportRequests(api, globex, [
    { status: 200, count: 4, at: now },
    { status: 200, count: 9, at: new Date(now.getTime() - 5 * DAY_MS) },
  ]);
  await reportRequests(api, initech, [{ status: 201, count: 1, at: now }]);
  const stats = await readApi(api, `/apis/${api.apiId}/stats?days=30`);

  const requests = await apiRequestsOnOpen(cp.page, `/apis/${api.apiId}`);
  console.log(`requests on open of the dashboard: ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3, requests.join(', '));
  const page = cp.page;
  await page.getByTestId('requests-chart').waitFor();
  const figures: [string, string][] = [
    ['requests-today', formatCount(stats.requests_today)],
    ['requests-month', formatCount(stats.requests_month)],
    ['charged-month', formatMicro(stats.charged_month_micro)],
    ['topups-month', formatMicro(stats.topups_month_micro)],
    ['customers', formatCount(stats.customers)],
    ['active-customers', formatCount(stats.active_customers)],
    ['pending-customers', formatCount(stats.pending_customers)],
  ];
  for (const [testId, expected] of figures) assert.equal(await page.getByTestId(testId).textContent(), expected, testId);
  // The numbers themselves, so a wrong set-up cannot pass by agreeing with itself.
  assert.equal(stats.requests_today, 22);
  assert.equal(await page.getByTestId('charged-month').textContent(), formatMicro(1000 * stats.daily.reduce((sum: number, d: { billable: number }) => sum + d.billable, 0)));
  assert.equal(await page.getByTestId('pending-customers').textContent(), '1');

  const meter = page.getByRole('meter', { name: 'Platform allowance this month' });
  assert.equal(await meter.getAttribute('aria-valuenow'), String(Math.min(stats.requests_month, stats.platform_limit)));
  assert.equal(await meter.getAttribute('aria-valuemax'), String(stats.platform_limit));
  assert.match((await meter.getAttribute('aria-valuetext')) ?? '', new RegExp(`^${formatCount(stats.requests_month)} of ${formatCount(stats.platform_limit)} requests`));

  // The charts: images named by their title and summary, with the days as a table.
  const chart = page.getByRole('img', { name: /Requests per day/ });
  assert.equal(await chart.count(), 1);
  const total = stats.daily.reduce((sum: number, d: { requests: number }) => sum + d.requests, 0);
  assert.match((await page.locator('#requests-chart-desc').textContent()) ?? '', new RegExp(`^${total} requests from ${stats.daily[0].day} to ${stats.daily.at(-1).day}`));
  assert.equal(await page.getByRole('img', { name: /Charges per day/ }).count(), 1);
  assert.equal(await page.locator('svg[data-testid=requests-chart] g.day').count(), 30, 'a slot for each of the 30 days');
  await page.getByText('The 30 days as a table').click();
  const rows = await rowsOf(page.locator('details.days-table table'));
  const expected = [...stats.daily].reverse().map((d: { day: string; requests: number; billable: number; errors: number; charged_micro: number }) => [d.day, formatCount(d.requests), formatCount(d.billable), formatCount(d.errors), formatMicro(d.charged_micro)]);
  assert.deepEqual(rows, expected);
  assert.deepEqual(rows[0], [stats.daily.at(-1).day, '22', '17', '2', '0.017'], 'today: 12 + 4 + 1 billable, 3 not found, 2 errors');

  // Top customers, busiest first, each a link to its page.
  const top = await rowsOf(page.getByTestId('top-customers'));
  assert.deepEqual(
    top,
    stats.top_customers.map((c: { name: string; requests: number; charged_micro: number; balance_micro: number }) => [c.name, formatCount(c.requests), formatMicro(c.charged_micro), formatMicro(c.balance_micro)]),
  );
  assert.deepEqual(top.map((row) => row[0]), ['Acme Corp', 'Globex', 'Initech']);
  await shotAndCheck(f, page, '2-dashboard');

  await page.getByTestId('top-customers').getByRole('link', { name: 'Globex' }).click();
  await page.waitForURL(`**/apis/${api.apiId}/customers/${globex.id}`);
  await page.getByRole('heading', { level: 1, name: 'Globex' }).waitFor();
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
