// Open invitations to become a customer in Chromium (issue 29): listed when asked for, a new one
// joining the open list, one sent again, one revoked after its dialog; a viewer has no such card.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { createApi, type ApiFixture } from '../../server/test/support/money.js';
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

test('customer invitations: listed on demand, a new one added, resent, revoked', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const api = (await createApi(f.t, { name: 'Inviting API', preset: 'payg' }, owner)) as ApiFixture;
  assert.equal((await owner.client.post(`/apis/${api.apiId}/customers/invite`, { email: 'first@prospect.test' })).status, 200);
  const open = async () => (await owner.client.get(`/apis/${api.apiId}/customers/invites`)).body.invites as { id: string; email: string; expires_at: string }[];
  await assertRequestsOnOpen(page, `/apis/${api.apiId}/customers`, 'customers');
  await page.getByRole('button', { name: 'Show open invitations' }).click();
  await page.getByRole('cell', { name: 'first@prospect.test', exact: true }).waitFor();
  await page.getByLabel('E-mail to invite').fill('second@prospect.test');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('cell', { name: 'second@prospect.test', exact: true }).waitFor();
  await shotAndCheck(f, page, '1-open-invitations');

  const [first] = (await open()).filter((i) => i.email === 'first@prospect.test');
  await page.getByRole('button', { name: 'Resend to first@prospect.test' }).click();
  await page.getByText('Invitation sent again to first@prospect.test').waitFor();
  const resent = (await open()).find((i) => i.email === 'first@prospect.test')!;
  assert.ok(resent.id !== first!.id || resent.expires_at >= first!.expires_at, 'a new link, good for 7 more days');

  await page.getByRole('button', { name: 'Revoke the invitation of second@prospect.test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke the invitation of second@prospect.test' });
  await dialog.getByText('The link in the mail stops working.').waitFor();
  await shotAndCheck(f, page, '2-revoke-dialog');
  await dialog.getByRole('button', { name: 'Revoke invitation' }).click();
  await page.getByRole('cell', { name: 'second@prospect.test', exact: true }).waitFor({ state: 'detached' });
  assert.deepEqual((await open()).map((i) => i.email), ['first@prospect.test']);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
