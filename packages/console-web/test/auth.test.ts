// The pages before a session in Chromium: sign-up with the mailed code, forgot password, and the
// link of a workspace invitation (as a new address, as an existing account signing in on the way,
// and refused for another signed-in account). Every page and state is checked by axe and saved as
// a screenshot in test-output/auth/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { otherCode } from '../../server/test/support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../../server/test/support/flows.js';
import { codeIn } from '../../server/test/support/mailbox.js';
import { addMember, MEMBER_PASSWORD, sendInvite } from '../../server/test/support/workspaces.js';
import { heading, newConsolePage, shotAndCheck, signInContext, skipWithoutChromium, startConsole, type ConsoleFixture, type ConsolePage } from './support/console-browser.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const label = (page: Page, text: string) => page.getByLabel(text, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** The error shown under a field, by the field's label. */
async function fieldError(page: Page, text: string): Promise<string> {
  const field = label(page, text);
  await page.locator('[aria-invalid=true]').first().waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true', `${text} is marked invalid`);
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
  return (await page.locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
}

/** Who the browser context is signed in as, from the console API itself. */
async function meOf(cp: ConsolePage): Promise<{ user: { email: string; name: string }; workspaces: { id: string; name: string; role: string }[] } | null> {
  const answer = await cp.context.request.get(`${f.t.url}/api/me`);
  return answer.status() === 200 ? answer.json() : null;
}

const linkIn = (text: string) => /(https?:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? assert.fail(`no invitation link in ${text}`);

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
  assert.equal(await meOf(cp), null, 'no account yet');
  await shotAndCheck(f, page, '05-signup-short-password');

  await label(page, 'Password').fill(PASSWORD);
  await button(page, 'Create account').click();
  await page.waitForURL(/\/workspaces\/ws_[^/]+\/apis$/);
  const me = await meOf(cp);
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
  assert.equal((await meOf(cp))?.user.email, owner.email, 'signed in by the reset');
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
  assert.equal(await meOf(cp), null, 'not signed in');
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

test('an invitation to a new address: the mail link, a short password refused, then joined and signed in; the used link says so', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Olivia Owner' });
  const ws = (await owner.client.post('/workspaces', { name: 'Acme Weather' })).body.id as string;
  const email = uniqueEmail('casey');
  const { mail } = await sendInvite(f.t, owner.client, ws, email, 'editor');
  const link = linkIn(mail.text);
  assert.ok(link.startsWith(`${f.t.url}/invites/`), 'the link is on the console host');

  const cp = await newConsolePage(f, { width: 800, height: 900 });
  const { page } = cp;
  await page.goto(link);
  await page.getByRole('heading', { name: 'Join Acme Weather' }).waitFor();
  const text = (await page.locator('main').textContent()) ?? '';
  assert.ok(text.includes(`Olivia Owner invited ${email} to the Gatehouse workspace Acme Weather as editor.`), text);
  assert.match(text, /expires on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  await shotAndCheck(f, page, '10-invite-new-address');

  await label(page, 'Your name').fill('Casey Newcomer');
  await label(page, 'Password').fill('short');
  await button(page, 'Create account and join Acme Weather').click();
  assert.match(await fieldError(page, 'Password'), /10 to 72/);
  assert.equal(await meOf(cp), null);
  await shotAndCheck(f, page, '11-invite-short-password');

  await label(page, 'Password').fill(PASSWORD);
  await button(page, 'Create account and join Acme Weather').click();
  await page.waitForURL(`**/workspaces/${ws}/apis`);
  const me = await meOf(cp);
  assert.equal(me?.user.email, email);
  assert.deepEqual(me?.workspaces.map((w) => [w.id, w.role]), [[ws, 'editor']]);
  const session = (await cp.context.cookies()).find((cookie) => cookie.name === 'gh_session');
  assert.ok(session?.httpOnly, 'a session cookie no script can read');

  await page.goto(link);
  await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
  await shotAndCheck(f, page, '12-invite-used');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('an invitation to an existing account: sign in (with two-factor) from the page, come back and join', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Omar Owner' });
  const ws = (await owner.client.post('/workspaces', { name: 'Nimbus Maps' })).body.id as string;
  const invitee = await signUp(f.t, { name: 'Ivy Invitee' });
  const { secret } = await enableTwoFactor(f.t, invitee.client);
  const { mail } = await sendInvite(f.t, owner.client, ws, invitee.email, 'admin');

  const cp = await newConsolePage(f);
  const { page } = cp;
  await page.goto(linkIn(mail.text));
  await page.getByText('already has a Gatehouse account').waitFor();
  await shotAndCheck(f, page, '13-invite-existing-signed-out');
  await page.getByRole('link', { name: 'Sign in to accept' }).click();
  await page.waitForURL(/\/login\?next=%2Finvites%2F/);
  assert.equal(await label(page, 'E-mail').inputValue(), invitee.email);
  await label(page, 'Password').fill(PASSWORD);
  await button(page, 'Sign in').click();
  f.t.clock.advance(30_000);
  await label(page, 'Authenticator code').fill(totpNow(f.t, secret));
  await button(page, 'Verify and sign in').click();

  await page.waitForURL(/\/invites\//);
  await button(page, 'Join Nimbus Maps').waitFor();
  assert.match((await page.locator('main').textContent()) ?? '', new RegExp(`You are signed in as ${invitee.email.replace(/[.+]/g, '\\$&')}`));
  await shotAndCheck(f, page, '14-invite-existing-signed-in');
  await button(page, 'Join Nimbus Maps').click();
  await page.waitForURL(`**/workspaces/${ws}/apis`);
  const me = await meOf(cp);
  assert.equal(me?.user.email, invitee.email);
  assert.equal(me?.workspaces.find((w) => w.id === ws)?.role, 'admin');
  assert.equal(me?.workspaces.length, 2, 'the workspace of their own is kept');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('an invitation opened while signed in as another account is refused: the page says so and signs out; the API answers 409', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Rhea Owner' });
  const ws = (await owner.client.post('/workspaces', { name: 'Cirrus' })).body.id as string;
  const invitee = await addMember(f.t, owner.client, owner.workspaceId, 'viewer', 'pat');
  const { token, mail } = await sendInvite(f.t, owner.client, ws, invitee.email, 'editor');

  const cp = await newConsolePage(f);
  const { page } = cp;
  await signInContext(f, cp, owner.email);
  await page.goto(linkIn(mail.text));
  await page.getByText(`You are signed in as ${owner.email}, but this invitation is for ${invitee.email}`).waitFor();
  assert.equal(await button(page, 'Join Cirrus').count(), 0, 'nothing to accept with');
  await shotAndCheck(f, page, '15-invite-other-account');
  // The API is the authority: accepting as this account is 409, and the invitation stays open.
  const refused = await cp.context.request.post(`${f.t.url}/api/invites/${token}/accept`, { data: {}, headers: { 'x-requested-with': 'test' } });
  assert.equal(refused.status(), 409);
  assert.equal((await f.t.client().get(`/invites/${token}`)).status, 200);

  await button(page, `Sign out of ${owner.email}`).click();
  await page.getByRole('link', { name: 'Sign in to accept' }).waitFor();
  assert.equal(await meOf(cp), null, 'signed out');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('a session that changed in another tab: joining answers 409, shown with a way to sign in as the invited address', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Nora Owner' });
  const ws = (await owner.client.post('/workspaces', { name: 'Stratus' })).body.id as string;
  const invitee = await addMember(f.t, owner.client, owner.workspaceId, 'viewer', 'lee');
  const { token, mail } = await sendInvite(f.t, owner.client, ws, invitee.email, 'viewer');

  const cp = await newConsolePage(f);
  const { page } = cp;
  await signInContext(f, cp, invitee.email, MEMBER_PASSWORD);
  await page.goto(linkIn(mail.text));
  await button(page, 'Join Stratus').waitFor();
  // Another tab signs in as the owner: this page still offers to join as the invitee.
  await signInContext(f, cp, owner.email);
  await button(page, 'Join Stratus').click();
  await page.getByRole('alert').waitFor();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /Sign in as the invited address/);
  const signIn = page.getByRole('link', { name: 'Sign in as the invited address' });
  assert.equal(await signIn.getAttribute('href'), `/login?next=%2Finvites%2F${token}&email=${encodeURIComponent(invitee.email)}`);
  assert.equal(await button(page, 'Join Stratus').count(), 0, 'no second try as the wrong account');
  await shotAndCheck(f, page, '16-invite-refused-409');
  assert.equal((await f.t.client().get(`/invites/${token}`)).status, 200, 'still open');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('an unknown invitation link is a clear page, not an error', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  await cp.page.goto('/invites/not-a-real-token');
  await cp.page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
  assert.match((await cp.page.locator('main').textContent()) ?? '', /unknown, was used already, was revoked, or has expired/);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
