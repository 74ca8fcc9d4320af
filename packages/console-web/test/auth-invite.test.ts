// The link of a workspace invitation mail in Chromium (it replaced the server-rendered page): as a
// new address, as an existing account signing in (with two-factor) on the way, refused for another
// signed-in account, and a refusal of the API (409) shown. Every page and state is checked by axe
// and saved as a screenshot in test-output/auth-invite/.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../../server/test/support/flows.js';
import { addMemberOverHttp, MEMBER_PASSWORD, sendInvite } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, signInContext, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fieldError, meOf } from './support/page-fields.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const label = (page: Page, text: string) => page.getByLabel(text, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });



const linkIn = (text: string) => /(https?:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? assert.fail(`no invitation link in ${text}`);

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
  assert.equal(await meOf(f, cp), null);
  await shotAndCheck(f, page, '11-invite-short-password');

  await label(page, 'Password').fill(PASSWORD);
  await button(page, 'Create account and join Acme Weather').click();
  await page.waitForURL(`**/workspaces/${ws}/apis`);
  const me = await meOf(f, cp);
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
  const me = await meOf(f, cp);
  assert.equal(me?.user.email, invitee.email);
  assert.equal(me?.workspaces.find((w) => w.id === ws)?.role, 'admin');
  assert.equal(me?.workspaces.length, 2, 'the workspace of their own is kept');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('an invitation opened while signed in as another account is refused: the page says so and signs out; the API answers 409', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Rhea Owner' });
  const ws = (await owner.client.post('/workspaces', { name: 'Cirrus' })).body.id as string;
  const invitee = await addMemberOverHttp(f.t, owner.client, owner.workspaceId, 'viewer', 'pat');
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
  assert.equal(await meOf(f, cp), null, 'signed out');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('a session that changed in another tab: joining answers 409, shown with a way to sign in as the invited address', { skip: skipWithoutChromium }, async () => {
  const owner = await signUp(f.t, { name: 'Nora Owner' });
  const ws = (await owner.client.post('/workspaces', { name: 'Stratus' })).body.id as string;
  const invitee = await addMemberOverHttp(f.t, owner.client, owner.workspaceId, 'viewer', 'lee');
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
