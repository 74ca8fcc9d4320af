// The plans page in Chromium (issue 29): a plan created with its terms (a price that is not a number
// refused in the page, one above the bound refused by the API on its field), private, its link
// copied; on sale at the development provider; reordered; edited up to the price bound; its
// subscribers counted; a provider error shown with "Try again"; deactivated because it has a
// subscriber, and a plan without one deleted. A viewer reads without controls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { createApi, createCustomer, type ApiFixture } from '../../server/test/support/money.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';
import { assertRequestsOnOpen } from './support/workspace-pages.js';
import { fieldError } from './support/page-fields.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

interface Plan {
  id: string;
  name: string;
  price_monthly_cents: number;
  credit_micro: number;
  monthly_quota: number | null;
  visibility: string;
  active: boolean;
  sort: number;
  portal_url: string;
  provider_price_id?: string;
}

const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();

test('plans: create with errors by field, private link copied, on sale, reorder, edit to the bound, subscribers, sync error retried, deactivate and delete', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page, context } = cp;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.t.url });
  await shareSession(f, cp, owner.client);
  const api = (await createApi(f.t, { name: 'Planned API', preset: 'payg' }, owner)) as ApiFixture;
  assert.equal((await owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  const plans = async () => ((await owner.client.get(`/apis/${api.apiId}/plans`)).body.plans as Plan[]).sort((a, b) => a.sort - b.sort);
  const path = `/apis/${api.apiId}/plans`;
  const requests = await assertRequestsOnOpen(page, path, path.split('/').at(-1)!);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${api.apiId}`, `GET /api/apis/${api.apiId}/plans`, 'GET /api/me']);
  await page.getByRole('heading', { name: 'No plans yet' }).waitFor();
  await shotAndCheck(f, page, '1-no-plans');

  await page.getByRole('button', { name: 'New plan' }).click();
  const form = page.getByRole('form', { name: 'New plan' });
  await form.getByLabel('Name').fill('Pro');
  await form.getByLabel('Price a month, in dollars').fill('ten');
  await form.getByRole('button', { name: 'Create plan' }).click();
  assert.match(await fieldError(form, 'Price a month, in dollars'), /dollars/);
  // One cent above the bound ($10,000): the API's 422 on the field.
  await form.getByLabel('Price a month, in dollars').fill('10000.01');
  await form.getByRole('button', { name: 'Create plan' }).click();
  assert.ok((await fieldError(form, 'Price a month, in dollars')).length > 0);
  await shotAndCheck(f, page, '2-errors');
  assert.deepEqual(await plans(), []);
  await form.getByLabel('Price a month, in dollars').fill('29');
  await form.getByLabel('Credit added by each paid invoice').fill('5');
  await form.getByLabel('Requests a month').fill('10,000');
  await form.getByLabel('Visibility').selectOption('private');
  await form.getByRole('button', { name: 'Create plan' }).click();
  await form.waitFor({ state: 'detached' });
  let [pro] = await plans();
  assert.deepEqual([pro!.name, pro!.price_monthly_cents, pro!.credit_micro, pro!.monthly_quota, pro!.visibility, pro!.active], ['Pro', 2900, 5_000_000, 10_000, 'private', true]);
  const proRow = page.getByTestId(`plan-${pro!.id}`);
  await proRow.getByText('private').waitFor();
  await proRow.getByRole('button', { name: 'Copy the link to Pro' }).click();
  assert.equal(await page.evaluate(clipboard), pro!.portal_url);
  // The development provider puts it on sale; the page shows it without a reload.
  await proRow.getByText('on sale', { exact: true }).waitFor({ timeout: 20_000 });
  await shotAndCheck(f, page, '3-private-on-sale');

  // A second plan, free and public, listed after; moved up.
  await page.getByRole('button', { name: 'New plan' }).click();
  await page.getByRole('form', { name: 'New plan' }).getByLabel('Name').fill('Basic');
  await page.getByRole('form', { name: 'New plan' }).getByRole('button', { name: 'Create plan' }).click();
  await page.getByText('free: nothing to sell').waitFor();
  assert.deepEqual((await plans()).map((p) => p.name), ['Pro', 'Basic']);
  await page.getByRole('button', { name: 'Up Basic' }).click();
  await page.locator('tbody tr').first().locator('strong', { hasText: 'Basic' }).waitFor();
  assert.deepEqual((await plans()).map((p) => [p.name, p.sort]), [['Basic', 0], ['Pro', 1]]);
  assert.equal(await page.getByRole('button', { name: 'Up Basic' }).isDisabled(), true, 'the first cannot go up');

  // Edited to the highest price taken, and made public.
  await page.getByRole('button', { name: 'Edit Pro' }).click();
  const edit = page.getByRole('form', { name: 'Edit Pro' });
  assert.equal(await edit.getByLabel('Price a month, in dollars').inputValue(), '29.00');
  await edit.getByLabel('Price a month, in dollars').fill('10000');
  await edit.getByLabel('Visibility').selectOption('public');
  await edit.getByRole('button', { name: 'Save plan' }).click();
  await edit.waitFor({ state: 'detached' });
  pro = (await plans()).find((p) => p.name === 'Pro')!;
  assert.deepEqual([pro.price_monthly_cents, pro.visibility], [1_000_000, 'public']);

  // A subscriber, counted.
  const customer = await createCustomer(f.t, api, 'Initech');
  assert.equal((await owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: pro.id })).status, 200);
  await page.reload();
  await proRow.getByTestId('subscribers').getByText('1', { exact: true }).waitFor();

  // The provider refused the plan: its error, and "Try again" puts it on sale.
  await f.t.services.db.updateTable('plans').set({ provider_sync_error: 'The provider refused the price: try again later' }).where('id', '=', pro.id).execute();
  await page.reload();
  await proRow.getByTestId('sync-error').getByText('The provider refused the price: try again later').waitFor();
  await shotAndCheck(f, page, '4-sync-error');
  await proRow.getByRole('button', { name: 'Try again to put Pro on sale' }).click();
  await proRow.getByText('on sale', { exact: true }).waitFor({ timeout: 20_000 });
  assert.equal((await plans()).find((p) => p.name === 'Pro')!.provider_price_id !== undefined, true);

  // With a subscriber, delete deactivates; without, it deletes.
  await page.getByRole('button', { name: 'Deactivate Pro' }).click();
  const deactivate = page.getByRole('dialog', { name: 'Deactivate Pro' });
  await deactivate.getByText('1 customer is on it').waitFor();
  await shotAndCheck(f, page, '5-deactivate-dialog');
  await deactivate.getByRole('button', { name: 'Deactivate plan' }).click();
  await proRow.getByText('inactive').waitFor();
  await page.getByRole('button', { name: 'Delete Basic' }).click();
  await page.getByRole('dialog', { name: 'Delete Basic' }).getByRole('button', { name: 'Delete plan' }).click();
  await page.getByRole('button', { name: 'Delete Basic' }).waitFor({ state: 'detached' });
  assert.deepEqual((await plans()).map((p) => [p.name, p.active]), [['Pro', false]]);
  await shotAndCheck(f, page, '6-after-delete');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('plans for a viewer: the list with its links, no controls', { skip: skipWithoutChromium }, async () => {
  const api = (await createApi(f.t, { name: 'Viewed Plans API', preset: 'payg' }, owner)) as ApiFixture;
  assert.equal((await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Team', price_monthly_cents: 4900, visibility: 'private' })).status, 200);
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${api.apiId}/plans`);
  await page.getByRole('button', { name: 'Copy the link to Team' }).waitFor();
  for (const name of ['New plan', 'Edit Team', 'Delete Team', 'Up Team']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
  await shotAndCheck(f, page, '7-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
