// The pages before a session in Chromium: sign-up with the mailed code and forgot password (the
// invitation link is auth-invite.test.ts, a file of its own so each stays well inside the runner's
// time per file on a busy machine). Every page and state is checked by axe and saved as a
// screenshot in test-output/auth/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { otherCode } from '../../server/test/support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../../server/test/support/flows.js';
import { codeIn } from '../../server/test/support/mailbox.js';
import { heading, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fieldError, meOf } from './support/page-fields.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const label = (page: Page, text: string) => page.getByLabel(text, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });



test('sign up: the mailed code (a wrong one refused, a new one sent), a short password refused on its field, then the new workspace', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const email = uniqueEmail('signup');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL('**/signup');
  assert.equal(await heading(page), 'Create your Gatehouse account');
  await shotAndCheck(f, page, '01-signup-email');

  await label(page, 'E-mail').fill(email);
  await button(page, 'E-mail me a code').click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  const first = codeIn(await f.t.mail.waitFor(email, /sign-up code/));
  await shotAndCheck(f, page, '02-signup-code');

  await label(page, 'Code from the e-mail').fill(otherCode(first));
  await button(page, 'Continue').click();
  assert.match(await fieldError(page, 'Code from the e-mail'), /Wrong or expired code/);
  await shotAndCheck(f, page, '03-signup-wrong-code');

  // A new code supersedes the first; the page says it was sent.
  f.t.mail.take(email);
  await button(page, 'Send a new code').click();
  await page.getByText(`We sent a new code to ${email}`).waitFor();
  const second = codeIn(await f.t.mail.waitFor(email, /sign-up code/));
  await label(page, 'Code from the e-mail').fill(` ${second.slice(0, 3)} ${second.slice(3)} `);
  await button(page, 'Continue').click();
  await page.getByRole('heading', { name: 'Set up your account' }).waitFor();
  await shotAndCheck(f, page, '04-signup-account');

  await label(page, 'Your name').fill('Sam Signup');
  await label(page, 'Password').fill('too short');
  await label(page, 'Workspace name (optional)').fill('Acme Weather');
  await button(page, 'Create account').click();
  assert.match(await fieldError(page, 'Password'), /10/);
  assert.equal(await meOf(f, cp), null, 'no account yet');
  await shotAndCheck(f, page, '05-signup-short-password');

  await label(page, 'Password').fill(PASSWORD);
  await button(page, 'Create account').click();
  await page.waitForURL(/\/workspaces\/ws_[^/]+\/apis$/);
  const me = await meOf(f, cp);
  assert.equal(me?.user.email, email);
  assert.equal(me?.user.name, 'Sam Signup');
  assert.deepEqual(me?.workspaces.map((w) => [w.name, w.role]), [['Acme Weather', 'owner']]);
  assert.ok(page.url().endsWith(`/workspaces/${me!.workspaces[0]!.id}/apis`), 'lands on the new workspace');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('forgot password: the mailed code, a short password refused, then signed in with the new password', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Fran Forgetful' });
  const cp = await newConsolePage(f);
  const { page } = cp;
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await shotAndCheck(f, page, '06-forgot-email');

  f.t.mail.take(owner.email);
  await label(page, 'E-mail').fill(owner.email);
  await button(page, 'E-mail me a code').click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await label(page, 'Code from the e-mail').fill(codeIn(await f.t.mail.waitFor(owner.email, /password reset code/)));
  await button(page, 'Continue').click();
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await shotAndCheck(f, page, '07-forgot-new-password');

  await label(page, 'New password').fill('p'.repeat(9));
  await button(page, 'Set new password').click();
  assert.match(await fieldError(page, 'New password'), /10/);
  await shotAndCheck(f, page, '08-forgot-short-password');

  await label(page, 'New password').fill('a brand new password');
  await button(page, 'Set new password').click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  assert.equal((await meOf(f, cp))?.user.email, owner.email, 'signed in by the reset');
  assert.equal((await f.t.client().post('/auth/login', { email: owner.email, password: 'a brand new password' })).status, 200);
  assert.equal((await f.t.client().post('/auth/login', { email: owner.email, password: PASSWORD })).status, 401);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('forgot password with two-factor on: the page says so and sends to sign in, where the code finishes it', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Tess Twofactor' });
  const { secret } = await enableTwoFactor(f.t, owner.client);
  const cp = await newConsolePage(f);
  const { page } = cp;
  await page.goto('/forgot-password');
  f.t.mail.take(owner.email);
  await label(page, 'E-mail').fill(owner.email);
  await button(page, 'E-mail me a code').click();
  await label(page, 'Code from the e-mail').fill(codeIn(await f.t.mail.waitFor(owner.email, /password reset code/)));
  await button(page, 'Continue').click();
  await label(page, 'New password').fill('another new password');
  await button(page, 'Set new password').click();
  await page.getByRole('heading', { name: 'Password changed' }).waitFor();
  assert.match((await page.locator('main').textContent()) ?? '', /Two-factor is on/);
  assert.equal(await meOf(f, cp), null, 'not signed in');
  await shotAndCheck(f, page, '09-forgot-two-factor');

  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.waitForURL(/\/login\?email=/);
  assert.equal(await label(page, 'E-mail').inputValue(), owner.email, 'the address is filled in');
  await label(page, 'Password').fill('another new password');
  await button(page, 'Sign in').click();
  // The code that turned two-factor on is spent: the next 30-second step's.
  f.t.clock.advance(30_000);
  await label(page, 'Authenticator code').fill(totpNow(f.t, secret));
  await button(page, 'Verify and sign in').click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
