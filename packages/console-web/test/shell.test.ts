// The console's frame in Chromium: a signed-out visitor is sent to sign in and brought back, a
// sign-in with two-factor takes the authenticator step, and the frame's navigation is there.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { enableTwoFactor, PASSWORD, signUp, totpNow } from '../../server/test/support/flows.js';
import { heading, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

test('signed out, a page of the console sends the visitor to sign in and back to it after', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Ada Owner' });
  const cp = await newConsolePage(f);
  const { page } = cp;
  await page.goto(`/workspaces/${owner.workspaceId}/members`);
  await page.waitForURL(/\/login\?next=/);
  assert.equal(await heading(page), 'Sign in to Gatehouse');
  await shotAndCheck(f, page, '1-sign-in');

  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').waitFor();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /password/i);
  await shotAndCheck(f, page, '2-wrong-password');

  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/members`);
  const nav = page.getByRole('navigation', { name: 'Console' });
  for (const link of ['APIs', 'Members', 'Workspace keys', 'Audit log', 'Settings', 'Account']) await nav.getByRole('link', { name: link, exact: true }).waitFor();
  assert.equal(await nav.getByRole('link', { name: 'Members' }).getAttribute('aria-current'), 'page');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('sign-in with two-factor: the authenticator step, then a recovery code in another browser', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Grace Owner' });
  const { secret, recoveryCodes } = await enableTwoFactor(f.t, owner.client);

  const cp = await newConsolePage(f);
  const { page } = cp;
  await page.goto('/');
  await page.waitForURL(/\/login$/);
  await page.getByLabel('E-mail').fill(owner.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Authenticator code').waitFor();
  assert.equal(await heading(page), 'Two-factor authentication');
  await shotAndCheck(f, page, '3-two-factor');
  // A code works once (the one that turned two-factor on is spent): the next 30-second step's.
  f.t.clock.advance(30_000);
  await page.getByLabel('Authenticator code').fill(totpNow(f.t, secret));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();

  const other = await newConsolePage(f);
  await other.page.goto('/login');
  await other.page.getByLabel('E-mail').fill(owner.email);
  await other.page.getByLabel('Password').fill(PASSWORD);
  await other.page.getByRole('button', { name: 'Sign in' }).click();
  await other.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await other.page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
  await other.page.getByRole('button', { name: 'Verify and sign in' }).click();
  await other.page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  const session = (await other.context.cookies()).find((cookie) => cookie.name === 'gh_session');
  assert.ok(session?.httpOnly, 'the session is a cookie no script can read');
  assert.deepEqual(other.problems, []);
  await other.context.close();
});

test('an address the console does not know shows its not-found page inside the frame', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const owner = await signUp(f.t);
  const login = await cp.context.request.post('/api/auth/login', { data: { email: owner.email, password: PASSWORD }, headers: { 'x-requested-with': 'test' } });
  assert.equal(login.status(), 200);
  await cp.page.goto('/no/such/page');
  await cp.page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await shotAndCheck(f, cp.page, '4-not-found');
  await cp.context.close();
});
