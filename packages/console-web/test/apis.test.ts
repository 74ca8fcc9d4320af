// The workspace's APIs in Chromium: the empty list inviting a first API, creating one with the
// portal address checked as it is typed (a taken one, then a free one), landing on its Connect page
// with the SDK secret, the list showing it, and a viewer seeing no control to create.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { apiRequestsOnOpen, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

/** A new workspace of the file's owner: each journey starts from an empty list. */
async function workspace(name: string): Promise<string> {
  const made = await owner.client.post('/workspaces', { name });
  assert.equal(made.status, 200, made.text);
  return made.body.id;
}

test('an owner creates a first API: a taken address is refused as it is typed, a free one is taken, and the Connect page shows the secret', { skip: skipWithoutChromium }, async () => {
  // Another API holds the address the owner will try first.
  const taken = `weather-${process.pid}`;
  const elsewhere = await workspace('Elsewhere');
  assert.equal((await owner.client.post(`/workspaces/${elsewhere}/apis`, { name: 'Rival weather', preset: 'payg', slug: taken })).status, 200);

  const ws = await workspace('Ada Labs');
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const listPath = `/workspaces/${ws}/apis`;
  const listRequests = await apiRequestsOnOpen(page, listPath);
  console.log(`requests on open, ${listPath} (empty): ${listRequests.length}: ${listRequests.join(', ')}`);
  assert.ok(listRequests.length <= 3, listRequests.join(', '));
  await page.getByRole('heading', { level: 1, name: 'APIs', exact: true }).waitFor();
  await page.getByRole('heading', { name: 'No APIs yet' }).waitFor();
  await shotAndCheck(f, page, '1-empty-list');

  await page.getByRole('link', { name: 'Create API' }).click();
  await page.waitForURL(`**${listPath}/new`);
  await page.getByRole('heading', { level: 1, name: 'Create API', exact: true }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('Weather API');
  await page.getByLabel('Subscriptions').waitFor();
  await page.getByLabel('Portal address').pressSequentially(taken);
  await page.getByText(`${taken}: another API uses this name`).waitFor();
  assert.equal(await page.getByLabel('Portal address').getAttribute('aria-invalid'), 'true');
  await shotAndCheck(f, page, '2-create-slug-taken');

  await page.getByLabel('Portal address').fill('Admin');
  await page.getByText('admin: this name is reserved').waitFor();
  await page.getByLabel('Portal address').fill('a-');
  await page.getByText(/a-: 3 to 40 lowercase letters/).waitFor();

  const mine = `my-weather-${process.pid}`;
  await page.getByLabel('Portal address').fill('');
  await page.getByLabel('Portal address').pressSequentially(mine);
  await page.locator('[data-testid=slug-check]', { hasText: `${mine} is available.` }).waitFor();
  assert.equal(await page.getByLabel('Portal address').getAttribute('aria-invalid'), null);
  await page.getByLabel('Free', { exact: false }).check();
  await page.getByLabel('Where your API runs (optional)').fill('https://weather.example/v1');
  await shotAndCheck(f, page, '3-create-slug-free');
  await page.getByRole('button', { name: 'Create API' }).click();

  await page.waitForURL(/\/apis\/api_[A-Za-z0-9]+\/connect$/);
  const apiId = new URL(page.url()).pathname.split('/')[2]!;
  await page.getByRole('heading', { level: 1, name: 'Connect Weather API', exact: true }).waitFor();
  const shown = await page.getByTestId('sdk-secret').textContent();
  assert.match(shown ?? '', /^mas_[0-9A-Za-z]{43}$/);
  await page.getByText('Your API is created.').waitFor();
  // The secret is nowhere in the address or the browser's storage.
  assert.ok(!page.url().includes(shown!));
  const stored = await page.evaluate(() => {
    const browser = globalThis as unknown as { localStorage: object; sessionStorage: object; document: { cookie: string } };
    return JSON.stringify({ ...browser.localStorage }) + JSON.stringify({ ...browser.sessionStorage }) + browser.document.cookie;
  });
  assert.ok(!stored.includes(shown!));
  await shotAndCheck(f, page, '4-created-connect');

  // What was created, as the API says: the free preset, the address and base URL typed.
  const created = await owner.client.get(`/apis/${apiId}`);
  assert.equal(created.status, 200);
  assert.equal(created.body.slug, mine);
  assert.equal(created.body.name, 'Weather API');
  assert.equal(created.body.api_base_url, 'https://weather.example/v1');
  assert.equal(created.body.price_per_request_micro, 0);
  assert.equal(created.body.monthly_quota, 10000);
  assert.equal((await owner.client.get(`/apis/${apiId}/secret`)).body.secret, shown);

  // The list now holds it, with its portal address and numbers.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'APIs', exact: true }).click();
  await page.waitForURL(`**${listPath}`);
  const row = page.getByRole('row', { name: /Weather API/ });
  await row.waitFor();
  assert.equal(await row.getByRole('link', { name: mine }).getAttribute('href'), created.body.portal_url);
  assert.match((await row.textContent()) ?? '', /active/);
  assert.match((await row.textContent()) ?? '', /not yet/);
  await shotAndCheck(f, page, '5-list');
  const createRequests = await apiRequestsOnOpen(page, `${listPath}/new`);
  console.log(`requests on open, ${listPath}/new: ${createRequests.length}: ${createRequests.join(', ')}`);
  assert.ok(createRequests.length <= 3);
  const filledRequests = await apiRequestsOnOpen(page, listPath);
  console.log(`requests on open, ${listPath} (one API): ${filledRequests.length}: ${filledRequests.join(', ')}`);
  assert.ok(filledRequests.length <= 3);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('a name left empty makes the address from the name; a refusal of the API lands on its field', { skip: skipWithoutChromium }, async () => {
  const ws = await workspace('Forecasts');
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  await page.goto(`/workspaces/${ws}/apis/new`);
  await page.getByLabel('Name', { exact: true }).fill(`Forecast ${process.pid}`);
  await page.getByLabel('Where your API runs (optional)').fill('ftp://nope.example');
  await page.getByRole('button', { name: 'Create API' }).click();
  await page.getByText('Check the fields marked in red.').waitFor();
  assert.equal(await page.getByLabel('Where your API runs (optional)').getAttribute('aria-invalid'), 'true');
  await shotAndCheck(f, page, '6-create-refused');
  assert.equal((await owner.client.get(`/workspaces/${ws}/apis`)).body.apis.length, 0, 'nothing was created');

  await page.getByLabel('Where your API runs (optional)').fill('');
  await page.getByRole('button', { name: 'Create API' }).click();
  await page.waitForURL(/\/connect$/);
  const apis = (await owner.client.get(`/workspaces/${ws}/apis`)).body.apis;
  assert.equal(apis.length, 1);
  assert.equal(apis[0].slug, `forecast-${process.pid}`);
  await cp.context.close();
});

test('a viewer sees the APIs but no control to create one', { skip: skipWithoutChromium }, async () => {
  const ws = await workspace('Seen');
  assert.equal((await owner.client.post(`/workspaces/${ws}/apis`, { name: 'Seen API', preset: 'payg' })).status, 200);
  const viewer = await addMember(f.t, owner.client, ws, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/workspaces/${ws}/apis`);
  await page.getByRole('row', { name: /Seen API/ }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Create API' }).count(), 0);
  await shotAndCheck(f, page, '7-viewer-list');
  await page.goto(`/workspaces/${ws}/apis/new`);
  await page.getByText('Only editors, admins and owners').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Create API' }).count(), 0);

  // A viewer in a workspace without APIs is not invited to make one.
  const empty = await workspace('Empty');
  const second = await addMember(f.t, owner.client, empty, 'viewer', 'viewer2');
  const other = await newConsolePage(f);
  await shareSession(f, other, second.client);
  await other.page.goto(`/workspaces/${empty}/apis`);
  await other.page.getByRole('heading', { name: 'No APIs yet' }).waitFor();
  assert.equal(await other.page.getByRole('link', { name: 'Create API' }).count(), 0);
  await shotAndCheck(f, other.page, '8-viewer-empty');
  assert.deepEqual([...cp.problems, ...other.problems], []);
  await cp.context.close();
  await other.context.close();
});
