// The account page in Chromium: what opening it costs, the name, a password change (bounds and a
// wrong current password refused on their fields) and signing out from the frame. Two-factor is
// account-two-factor.test.ts. Screenshots of every state go to test-output/account/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PASSWORD } from '../../server/test/support/flows.js';
import { apiRequestsOnOpen, heading, newConsolePage, shotAndCheck, signedInOwner, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fieldError, meOf } from './support/page-fields.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const button = (scope: Page | ReturnType<Page['locator']>, name: string) => scope.getByRole('button', { name, exact: true });
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });



async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/);
}


test('the account page: one request on open, the name, a password change, and signing out', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const owner = await signedInOwner(f, cp, { name: 'Ada Owner' });
  const requests = await apiRequestsOnOpen(page, '/account');
  console.log(`requests on open of /account: ${requests.length} (${requests.join(', ')})`);
  assert.ok(requests.length <= 3, requests.join(', '));
  assert.deepEqual(requests, ['GET /api/me'], 'the page needs nothing beyond the frame’s /api/me');
  assert.equal(await heading(page), 'Account');
  await shotAndCheck(f, page, '01-account');

  const profile = region(page, 'Profile');
  await profile.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await button(profile, 'Save name').click();
  await profile.getByText('Your name is saved.').waitFor();
  await page.getByRole('banner').getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  assert.equal((await meOf(f, cp))?.user.name, 'Ada Lovelace');

  const password = region(page, 'Password');
  await password.getByLabel('Current password', { exact: true }).fill('not my password');
  await password.getByLabel('New password', { exact: true }).fill('a new password here');
  await button(password, 'Change password').click();
  assert.match(await fieldError(password, 'Current password'), /current password is wrong/i);
  await password.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await password.getByLabel('New password', { exact: true }).fill('p'.repeat(9));
  await button(password, 'Change password').click();
    assert.match(await fieldError(password, 'New password'), /10/);
  await shotAndCheck(f, page, '02-password-too-short');
  await password.getByLabel('New password', { exact: true }).fill('p'.repeat(73));
  assert.equal((await password.getByLabel('New password', { exact: true }).inputValue()).length, 72, 'the field takes 72 characters at most');
  await password.getByLabel('New password', { exact: true }).fill('a new password here');
  await button(password, 'Change password').click();
  await password.getByText('Your password is changed.').waitFor();
  await shotAndCheck(f, page, '03-password-changed');
  assert.equal((await f.t.client().post('/auth/login', { email: owner.email, password: 'a new password here' })).status, 200);
  assert.equal((await f.t.client().post('/auth/login', { email: owner.email, password: PASSWORD })).status, 401);
  assert.ok(await meOf(f, cp), 'this session stays signed in');

  // Sign out from the frame's top bar: the session ends on the server, not only in the page.
  await signOut(page);
  assert.equal(await meOf(f, cp), null, 'the console API no longer knows this browser');
  assert.equal((await cp.context.cookies()).some((cookie) => cookie.name === 'gh_session'), false);
  await page.goto('/account');
  await page.waitForURL(/\/login\?next=%2Faccount$/);
  await shotAndCheck(f, page, '04-signed-out');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
