// The portal's usage, ledger and plans pages over HTTP (issue 12 item 2), each bound on both
// sides: the usage page's 30 days (29 days ago shown, 30 not), the ledger's pages of 25 (25
// entries make one page, 26 two) and its cursor, the plans offered (public and active only, only
// while plans_enabled), key names of 1 to 80 characters.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { customerIn, getWireSnapshot, postWireUsage, usageItem } from '../support/money.js';
import { customerIdOf, portalVisitor, sdkSecretOf } from '../support/portal.js';
import type { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
let secret: string;
before(async () => {
  f = await startIssuer('Pages API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' })).status, 200);
  secret = await sdkSecretOf(f);
});
after(() => f.t.close());

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** The cells of each row of a table's body, tags stripped. */
const rowsOf = (html: string, tableId: string) => {
  const body = new RegExp(`<table id="${tableId}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '').trim()));
};

/** A key made on the keys page, and what the SDK needs to report usage of it. */
async function keyOf(browser: TenantBrowser, customerId: string) {
  const made = await browser.submit(await browser.get('/keys'), 'create-key', { name: 'usage' });
  assert.equal(made.status, 200, made.html.slice(0, 300));
  const snapshot = (await getWireSnapshot(f.t, secret, { full: true })).body;
  return { keyId: snapshot.keys.find((k: { customer_id: string }) => k.customer_id === customerId).id as string, policy: customerIn(snapshot, customerId).usage_policy_id as string };
}

test('usage: today and the 29 days before it, as a chart and a table; a day 30 days ago is not shown', async () => {
  const { person, browser, overview } = await portalVisitor(f);
  assert.equal(overview.status, 200);
  const empty = expectPage(await browser.get('/usage'), /^Usage$/);
  assert.match(empty.html, /No usage in these 30 days/, 'an empty chart says so');

  const customerId = await customerIdOf(f, f.apiId, person.id);
  const { keyId, policy } = await keyOf(browser, customerId);
  const now = f.t.clock.now();
  const oldest = new Date(now.getTime() - 29 * DAY);
  const tooOld = new Date(now.getTime() - 30 * DAY);
  const items = [
    usageItem(keyId, policy, 200, 5, now), usageItem(keyId, policy, 404, 2, now), usageItem(keyId, policy, 502, 1, now),
    usageItem(keyId, policy, 201, 3, oldest), usageItem(keyId, policy, 200, 7, tooOld),
  ];
  assert.deepEqual((await postWireUsage(f.t, secret, items)).map((r) => r.status), Array(items.length).fill('accepted'));

  const page = expectPage(await browser.get('/usage'), /^Usage$/);
  const rows = rowsOf(page.html, 'usage-table');
  assert.equal(rows.length, 30);
  assert.deepEqual(rows[0], [dayOf(now), '8', '5', '1', '0.005'], 'today first: all, billable, 5xx errors, charged');
  assert.deepEqual(rows[29], [dayOf(oldest), '3', '3', '0', '0.003'], '29 days ago last');
  assert.ok(!page.html.includes(dayOf(tooOld)), '30 days ago is not on the page');
  assert.match(page.html, /id="total-requests">11</);
  assert.match(page.html, /id="total-charged">0\.008</);
  // Charts a screen reader can name, drawn without script: 30 days, each with its own title.
  for (const id of ['requests-chart', 'charges-chart']) {
    assert.match(page.html, new RegExp(`<svg class="chart" id="${id}"[^>]* role="img" aria-labelledby="${id}-title ${id}-desc"`));
    assert.match(page.html, new RegExp(`<title id="${id}-title">[^<]+</title><desc id="${id}-desc">[^<]+</desc>`));
  }
  assert.equal(page.html.match(/<g class="day">/g)?.length, 60);
  assert.ok(!/<script/.test(page.html), 'no script on the page');
});

test('ledger: newest first, 25 entries a page; the 26th makes a second page; a cursor it did not make is a 400 page', async () => {
  const { person, browser } = await portalVisitor(f);
  const customerId = await customerIdOf(f, f.apiId, person.id);
  const credit = (note: string) => f.owner.client.post(`/apis/${f.apiId}/customers/${customerId}/credit`, { amount_micro: 10_000, note });
  // The welcome credit is the first entry: 24 credits more make 25.
  for (let i = 1; i <= 24; i++) assert.equal((await credit(`credit ${i}`)).status, 200);
  const full = expectPage(await browser.get('/ledger'), /^Ledger$/);
  const firstPage = rowsOf(full.html, 'ledger-table');
  assert.equal(firstPage.length, 25);
  assert.deepEqual(firstPage[0]!.slice(1), ['Credit', 'credit 24', '+0.01']);
  assert.deepEqual(firstPage[24]!.slice(1), ['Welcome credit', '', '+1.00']);
  assert.doesNotMatch(full.html, /id="ledger-older"/, '25 entries are one page');

  assert.equal((await credit('credit 25')).status, 200);
  const two = expectPage(await browser.get('/ledger'), /^Ledger$/);
  assert.equal(rowsOf(two.html, 'ledger-table').length, 25);
  assert.equal(rowsOf(two.html, 'ledger-table')[0]![2], 'credit 25');
  const older = /id="ledger-older" href="([^"]+)"|href="([^"]+)" id="ledger-older"/.exec(two.html);
  assert.ok(older, 'the 26th entry makes a second page');
  const second = expectPage(await browser.get((older[1] ?? older[2])!.replace(/&amp;/g, '&')), /^Ledger$/);
  assert.deepEqual(rowsOf(second.html, 'ledger-table').map((row) => row[1]), ['Welcome credit']);
  assert.match(second.html, /id="ledger-newest"/);

  for (const bad of ['?cursor=not-a-cursor', '?cursor=a&cursor=b', `?cursor=${Buffer.from('1969-12-31T23:59:59.999Z|led_x').toString('base64url')}`]) {
    const refused = await browser.get(`/ledger${bad}`);
    assert.equal(refused.status, 400, bad);
    assert.match(refused.html, /This page of the ledger does not exist/);
  }
});

test('plans: none while plans_enabled is off; then the public active plans only, the customer’s own marked', async () => {
  const { person, browser } = await portalVisitor(f);
  const off = expectPage(await browser.get('/plans'), /^Plans$/);
  assert.match(off.html, /id="no-plans">Pages API does not offer plans/);

  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { plans_enabled: true, support_email: '' })).status, 200);
  const none = expectPage(await browser.get('/plans'), /^Plans$/);
  assert.match(none.html, /offers no plans right now/);
  const plan = async (body: Record<string, unknown>) => {
    const made = await f.owner.client.post(`/apis/${f.apiId}/plans`, body);
    assert.equal(made.status, 200, made.text);
    return made.body.id as string;
  };
  const basic = await plan({ name: 'Basic', price_monthly_cents: 1000, credit_micro: 5_000_000, rps: 3, sort: 1 });
  const pro = await plan({ name: 'Pro', price_monthly_cents: 123456, price_per_request_micro: 250, monthly_quota: 1_000_000, sort: 2 });
  const hidden = await plan({ name: 'Hidden', price_monthly_cents: 500, visibility: 'private' });
  const retired = await plan({ name: 'Retired', price_monthly_cents: 700, active: false });
  const customerId = await customerIdOf(f, f.apiId, person.id);
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/customers/${customerId}`, { plan_id: pro })).status, 200);

  const page = expectPage(await browser.get('/plans'), /^Plans$/);
  assert.deepEqual([...page.html.matchAll(/<h2 id="plan-[^"]+-name">([^<]+)/g)].map((m) => m[1]!.trim()), ['Basic', 'Pro']);
  for (const id of [hidden, retired]) assert.ok(!page.html.includes(id), 'private and inactive plans are not offered');
  assert.match(page.html, new RegExp(`id="plan-${basic}"[\\s\\S]*\\$10\\.00[\\s\\S]*5\\.00 of credit every month[\\s\\S]*0\\.001 per billable request[\\s\\S]*Up to 3 requests a second[\\s\\S]*No monthly quota`), 'empty limits are the API’s own');
  assert.match(page.html, new RegExp(`id="plan-${pro}"[\\s\\S]*\\$1,234\\.56[\\s\\S]*0\\.00025 per billable request[\\s\\S]*1,000,000 requests a month`));
  assert.match(page.html, new RegExp(`class="card plan current" id="plan-${pro}"[\\s\\S]*?Your plan`));
  assert.match(page.html, /ask the team of Pages API/, 'without a support address: ask the team');

  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { support_email: 'billing@pages.example' })).status, 200);
  const withSupport = expectPage(await browser.get('/plans'), /^Plans$/);
  assert.match(withSupport.html, new RegExp(`id="ask-${basic}" href="mailto:billing@pages\\.example\\?subject=Plan%20Basic%20for%20`));
  assert.match(withSupport.html, /write to <a href="mailto:billing@pages\.example">/);
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { plans_enabled: false })).status, 200);
});

test('keys: a name of 80 characters is made; 81, or only spaces, are 400 on the page and make nothing', async () => {
  const { browser } = await portalVisitor(f);
  const keys = await browser.get('/keys');
  const long = 'k'.repeat(80);
  const made = await browser.submit(keys, 'create-key', { name: long });
  assert.equal(made.status, 200);
  assert.match(made.html, new RegExp(`Your new key: ${long}`));
  for (const name of ['k'.repeat(81), '   ']) {
    const refused = await browser.submit(await browser.get('/keys'), 'create-key', { name });
    assert.equal(refused.status, 400, JSON.stringify(name));
  }
  assert.equal([...(await browser.get('/keys')).html.matchAll(/id="revoke-/g)].length, 1, 'one key made');
});
