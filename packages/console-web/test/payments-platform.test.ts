// The payments account and the platform plan in Chromium (issue 29), with the development provider:
// the account connected from its page, its status, then disconnected (confirmed); the platform
// plan bought through the provider's checkout from the catalogue, upgraded and downgraded in place
// (each confirmed with what it costs), canceled at the period's end and kept again; the past_due
// banner with the end of the grace. An admin who is not an owner sees the catalogue without choices.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';
import { assertRequestsOnOpen } from './support/workspace-pages.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

async function newApi(name: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  return created.body.api.id as string;
}

const apiOf = async (apiId: string) => (await owner.client.get(`/apis/${apiId}`)).body as { plan: { code: string }; plan_status: string; payments: { connected: boolean } };

test('payments account: connect, status, disconnect', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Selling API');
  const path = `/apis/${apiId}/payments`;
  const requests = await assertRequestsOnOpen(page, path, path.split('/').at(-1)!);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/payments`, 'GET /api/me']);
  await page.getByRole('button', { name: 'Connect a payments account' }).click();
  await page.waitForURL(`**${path}?connect=done`);
  const account = page.getByTestId('payments-account');
  await account.getByText('test', { exact: true }).waitFor();
  await shotAndCheck(f, page, '1-connected');
  await page.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: /^Disconnect / });
  await dialog.getByText('Payments already taken are still credited').waitFor();
  await shotAndCheck(f, page, '2-disconnect-dialog');
  await dialog.getByRole('button', { name: 'Disconnect account' }).click();
  await page.getByText('Selling API has no payments account connected.').waitFor();
  assert.equal((await apiOf(apiId)).payments.connected, false);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('platform plan: bought at checkout, upgraded, downgraded, canceled and kept, past due with the end of grace', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Growing API');
  const path = `/apis/${apiId}/plan`;
  const requests = await assertRequestsOnOpen(page, path, path.split('/').at(-1)!);
  assert.ok(requests.length <= 3, requests.join(', '));
  await page.getByTestId('platform-free').getByText('current').waitFor();
  await shotAndCheck(f, page, '3-catalogue-free');

  // Bought: the provider's checkout, then back here.
  await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
  const buy = page.getByRole('dialog', { name: 'Upgrade to Starter' });
  await buy.getByText("You go to the payments provider's checkout for Starter at $29.00 a month").waitFor();
  await buy.getByRole('button', { name: 'Go to checkout' }).click();
  await page.locator('[data-outcome=pay]').click();
  await page.waitForURL(`**${path}?checkout=done`);
  await page.getByText('Checkout done: Growing API is on the Starter plan.').waitFor();
  assert.equal((await apiOf(apiId)).plan.code, 'starter');

  // Upgraded in place: the difference is invoiced now.
  await page.getByRole('button', { name: 'Upgrade to Growth' }).click();
  const up = page.getByRole('dialog', { name: 'Upgrade to Growth' });
  await up.getByText('is invoiced and paid at once').waitFor();
  await shotAndCheck(f, page, '4-upgrade-dialog');
  await up.getByRole('button', { name: 'Move to Growth' }).click();
  await page.getByText('Done: Growing API is on the Growth plan now.').waitFor();
  assert.equal((await apiOf(apiId)).plan.code, 'growth');
  await page.getByTestId('platform-growth').getByText('current').waitFor();

  // Downgraded in place: what is left becomes credit.
  await page.getByRole('button', { name: 'Downgrade to Starter' }).click();
  const down = page.getByRole('dialog', { name: 'Downgrade to Starter' });
  await down.getByText('becomes credit on the next invoice').waitFor();
  await down.getByRole('button', { name: 'Move to Starter' }).click();
  await page.getByText('Done: Growing API is on the Starter plan now.').waitFor();
  assert.equal((await apiOf(apiId)).plan.code, 'starter');

  // Canceled at the period's end, then kept.
  await page.getByRole('button', { name: 'Cancel the plan' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel the Starter plan' });
  await cancel.getByText('You can undo this until then.').waitFor();
  await cancel.getByRole('button', { name: 'Cancel at period end' }).click();
  await page.getByTestId('plan-ends').waitFor();
  assert.deepEqual(Object.values(await apiOf(apiId)).length > 0 && [(await apiOf(apiId)).plan.code, (await apiOf(apiId)).plan_status], ['starter', 'canceled']);
  await shotAndCheck(f, page, '5-canceled');
  await page.getByRole('button', { name: 'Keep the Starter plan' }).click();
  await page.getByTestId('plan-ends').waitFor({ state: 'detached' });
  assert.equal((await apiOf(apiId)).plan_status, 'active');

  // A renewal that failed: the banner with the end of the grace.
  const graceUntil = new Date(Date.UTC(2030, 0, 8, 12, 0));
  await f.t.services.db.updateTable('apis').set({ plan_status: 'past_due', plan_grace_until: graceUntil }).where('id', '=', apiId).execute();
  await page.reload();
  const banner = page.getByTestId('past-due');
  await banner.getByText('The payment of the Starter plan failed.').waitFor();
  await banner.getByText('2030-01-08 12:00 UTC', { exact: false }).waitFor();
  await shotAndCheck(f, page, '6-past-due');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('platform plan for an admin who is not an owner: the plan and catalogue, no choices', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Shared API');
  const admin = await addMember(f.t, owner.client, owner.workspaceId, 'admin');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, admin.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/plan`);
  await page.getByText('Owners of the workspace buy and change the platform plan.').waitFor();
  assert.equal(await page.getByRole('button', { name: /^Upgrade/ }).count(), 0);
  await shotAndCheck(f, page, '7-admin');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
