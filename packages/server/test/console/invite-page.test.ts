// The workspace invitation link as a page ({BASE_URL}/invites/<token>, issue 12 item 3): what it
// shows, accepting as a new address, as the signed-in invitee, by signing in (with and without a
// second factor), signed in as someone else, and the invitations that cannot be used.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { wrongTotp } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { browserSignedInAs, consoleBrowser, consoleMe, expectError, expectHtmlPage, mailedInvitation, textOf } from '../support/invite-page.js';
import { formsIn, headingOf } from '../support/tenant-client.js';
import { addMember, MEMBER_PASSWORD, sendInvite } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let ws: string;
/** Where people who already have an account got it. */
let elsewhere: string;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Olga Owner', email: uniqueEmail('olga') });
  ws = (await owner.client.post('/workspaces', { name: 'Page Lab' })).body.id;
  elsewhere = (await owner.client.post('/workspaces', { name: 'Elsewhere' })).body.id;
});
after(() => t.close());

const roleIn = (me: Awaited<ReturnType<typeof consoleMe>>, workspaceId: string) => me?.workspaces.find((w) => w.id === workspaceId)?.role;
const isOpen = async (token: string) => (await t.client().get(`/invites/${token}`)).status === 200;

test('a new address: the page names the workspace, the role and who invited; a name and a password make the account, signed in', async () => {
  const email = uniqueEmail('nia');
  const { link, token } = await mailedInvitation(t, owner.client, ws, email, 'editor');
  assert.ok(link.startsWith(`${t.url}/invites/`), link);
  const browser = consoleBrowser(t);

  const page = expectHtmlPage(await browser.get(link), 200, /^Join Page Lab$/);
  const text = textOf(page);
  assert.ok(text.includes(`Olga Owner invited ${email} to the Gatehouse workspace Page Lab as editor.`), text);
  assert.match(text, /expires on \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
  assert.deepEqual(formsIn(page.html).map((form) => form.fields.map((field) => field.name)), [['csrf', 'name', 'password']]);

  const done = expectHtmlPage(await browser.submit(page, 'accept-create', { name: 'Nia Newcomer', password: PASSWORD }), 200, /^You joined Page Lab$/);
  assert.match(textOf(done), new RegExp(`an editor of Page Lab, signed in to Gatehouse as ${email.replace(/[.+]/g, '\\$&')}`));
  assert.match(done.html, /<a id="next-docs" href="\/api\/docs">/, 'the page says where to go next');
  const me = await consoleMe(t, browser);
  assert.equal(me?.user.email, email, 'the browser ends signed in to the console as the new account');
  assert.equal(roleIn(me, ws), 'editor');
  // The password chosen on the page is the account's.
  assert.equal((await t.client().post('/auth/login', { email, password: PASSWORD })).status, 200);

  assert.equal(await isOpen(token), false, 'the invitation works once');
  expectHtmlPage(await browser.get(link), 404, /cannot be used/);
  // The form's address opened as a page leads to the invitation, never to a JSON answer.
  const opened = await browser.request('GET', `${link}/accept`);
  assert.equal(opened.status, 303);
  assert.equal(opened.headers.get('location'), `/invites/${token}`);
});

test('signed in as the invited account: one button accepts, and the session is kept', async () => {
  const person = await addMember(t, owner.client, elsewhere, 'viewer', 'sam');
  const { link } = await mailedInvitation(t, owner.client, ws, person.email, 'admin');
  const browser = browserSignedInAs(t, person.client);
  const session = browser.cookies.get('gh_session');

  const page = expectHtmlPage(await browser.get(link), 200, /^Join Page Lab$/);
  assert.match(textOf(page), new RegExp(`You are signed in as ${person.email.replace(/[.+]/g, '\\$&')}`));
  const forms = formsIn(page.html);
  assert.equal(forms.length, 1);
  assert.deepEqual(forms[0]!.fields.map((field) => field.name), ['csrf'], 'nothing to type');
  assert.deepEqual(forms[0]!.buttons.map((button) => button.id), ['accept-join']);

  const done = await browser.submit(page, 'accept-join');
  expectHtmlPage(done, 200, /^You joined Page Lab$/);
  assert.ok(!done.headers.getSetCookie().some((line) => line.startsWith('gh_session=')), 'no new session');
  assert.equal(browser.cookies.get('gh_session'), session);
  const me = await consoleMe(t, browser);
  assert.equal(roleIn(me, ws), 'admin');
  assert.equal(roleIn(me, elsewhere), 'viewer');
});

test('an account not signed in: a wrong password is 401 on the page; its password signs in and accepts', async () => {
  const person = await addMember(t, owner.client, elsewhere, 'viewer', 'ana');
  const { link, token } = await mailedInvitation(t, owner.client, ws, person.email, 'viewer');
  const browser = consoleBrowser(t);

  const page = expectHtmlPage(await browser.get(link), 200, /^Join Page Lab$/);
  assert.match(textOf(page), /already has a Gatehouse account\. Sign in to accept/);
  assert.deepEqual(formsIn(page.html)[0]!.fields.map((field) => field.name), ['csrf', 'password']);

  const wrong = expectError(await browser.submit(page, 'accept-signin', { password: 'not the password' }), 401, /^Wrong password\.$/);
  assert.equal(browser.cookies.get('gh_session'), undefined, 'no session');
  assert.equal(await isOpen(token), true, 'a refusal leaves the invitation open');

  const done = expectHtmlPage(await browser.submit(wrong, 'accept-signin', { password: MEMBER_PASSWORD }), 200, /^You joined Page Lab$/);
  assert.match(textOf(done), /a viewer of Page Lab/);
  const me = await consoleMe(t, browser);
  assert.equal(me?.user.id, person.userId, 'signed in as that account');
  assert.equal(roleIn(me, ws), 'viewer');
});

test('two-factor on: the password leads to the code step; a wrong code is 401, the authenticator code accepts', async () => {
  const person = await signUp(t, { name: 'Tia Two-Factor', email: uniqueEmail('tia') });
  const { secret } = await enableTwoFactor(t, person.client);
  // The next authenticator step: the code that turned two-factor on is spent (RFC 6238 5.2).
  t.clock.advance(30_000);
  const { link } = await mailedInvitation(t, owner.client, ws, person.email, 'editor');
  const browser = consoleBrowser(t);

  const signin = expectHtmlPage(await browser.get(link), 200, /^Join Page Lab$/);
  const step = expectHtmlPage(await browser.submit(signin, 'accept-signin', { password: PASSWORD }), 200, /^Two-factor sign-in$/);
  assert.equal(browser.cookies.get('gh_session'), undefined, 'no session before the second factor');
  assert.deepEqual(formsIn(step.html)[0]!.fields.map((field) => field.name), ['csrf', 'challenge', 'code']);

  const wrong = expectError(await browser.submit(step, 'accept-2fa', { code: wrongTotp(t, secret) }), 401, /^Wrong code/);
  assert.match(wrong.html, /<h1>Two-factor sign-in<\/h1>/, 'the code step again, same challenge');
  assert.equal(browser.cookies.get('gh_session'), undefined);

  expectHtmlPage(await browser.submit(wrong, 'accept-2fa', { code: totpNow(t, secret) }), 200, /^You joined Page Lab$/);
  const me = await consoleMe(t, browser);
  assert.equal(me?.user.id, person.userId);
  assert.equal(roleIn(me, ws), 'editor');
});

test('two-factor on: a recovery code accepts too; a challenge that is not one goes back to the password', async () => {
  const person = await signUp(t, { name: 'Rex Recovery', email: uniqueEmail('rex') });
  const { recoveryCodes } = await enableTwoFactor(t, person.client);
  const { link } = await mailedInvitation(t, owner.client, ws, person.email, 'viewer');
  const browser = consoleBrowser(t);

  const step = await browser.submit(await browser.get(link), 'accept-signin', { password: PASSWORD });
  const forged = expectError(await browser.submit(step, 'accept-2fa', { challenge: 'x'.repeat(43), code: recoveryCodes[0]! }), 401, /Enter your password again/);
  assert.equal(headingOf(forged.html), 'Join Page Lab');
  assert.ok(formsIn(forged.html).some((form) => form.buttons.some((button) => button.id === 'accept-signin')), 'the password form');

  const again = await browser.submit(forged, 'accept-signin', { password: PASSWORD });
  expectHtmlPage(await browser.submit(again, 'accept-2fa', { code: recoveryCodes[0]! }), 200, /^You joined Page Lab$/);
  assert.equal(roleIn(await consoleMe(t, browser), ws), 'viewer');
});

test('signed in as another account: the page says so (403), accepting is refused, and signing out shows the invitation', async () => {
  const email = uniqueEmail('oscar');
  const { link, token } = await mailedInvitation(t, owner.client, ws, email, 'viewer');
  // A session of its own, so ending it leaves the owner's API client signed in.
  const other = t.client();
  assert.equal((await other.post('/auth/login', { email: owner.email, password: PASSWORD })).status, 200);
  const browser = browserSignedInAs(t, other);

  const page = expectHtmlPage(await browser.get(link), 403, /^Join Page Lab$/);
  assert.match(textOf(page), new RegExp(`You are signed in as ${owner.email.replace(/[.+]/g, '\\$&')}, but this invitation is for ${email.replace(/[.+]/g, '\\$&')}`));
  assert.deepEqual(formsIn(page.html).flatMap((form) => form.buttons.map((button) => button.id)), ['signout']);

  // A post to accept (a stale form, another tab) is refused the same way and changes nothing.
  const csrf = formsIn(page.html)[0]!.fields.find((field) => field.name === 'csrf')!.value;
  const refused = await browser.request('POST', `${link}/accept`, { csrf, name: 'Oscar', password: PASSWORD });
  expectHtmlPage(refused, 403, /^Join Page Lab$/);
  assert.equal(await isOpen(token), true);
  assert.equal((await other.get('/me')).status, 200, 'still signed in as the other account');

  const signedOut = expectHtmlPage(await browser.submit(page, 'signout'), 200, /^Join Page Lab$/);
  assert.equal(browser.cookies.get('gh_session'), undefined, 'the cookie is cleared');
  assert.equal((await other.get('/me')).status, 401, 'that console session has ended');
  assert.ok(formsIn(signedOut.html).some((form) => form.buttons.some((button) => button.id === 'accept-create')), 'the form of a new address');
  expectHtmlPage(await browser.submit(signedOut, 'accept-create', { name: 'Oscar Other', password: PASSWORD }), 200, /^You joined Page Lab$/);
  assert.equal((await consoleMe(t, browser))?.user.email, email);
});

test('too many wrong passwords: 429 on the page with Retry-After, as the console login', async () => {
  const person = await addMember(t, owner.client, elsewhere, 'viewer', 'lim');
  const { link } = await mailedInvitation(t, owner.client, ws, person.email, 'viewer');
  const browser = consoleBrowser(t);
  let page = await browser.get(link);
  // The console's login allows 10 tries per address in 15 minutes (accounts/limits.ts loginPerEmail).
  for (let i = 0; i < 10; i++) page = expectError(await browser.submit(page, 'accept-signin', { password: `wrong password ${i}` }), 401, /^Wrong password\.$/);
  const limited = expectError(await browser.submit(page, 'accept-signin', { password: MEMBER_PASSWORD }), 429, /^Too many attempts\. Try again in \d+ seconds\.$/);
  assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(browser.cookies.get('gh_session'), undefined);
});

test('an unknown, used or revoked invitation is a clear 404 page, never a JSON answer', async () => {
  const browser = consoleBrowser(t);
  for (const path of ['/invites/not-a-real-token', `/invites/${'a'.repeat(43)}`, '/invites/bad%20token', '/invites/not-a-real-token/accept']) {
    const page = expectHtmlPage(await browser.get(`${t.url}${path}`), 404, /^This invitation cannot be used$/);
    assert.match(textOf(page), /unknown, was used already, was revoked, or has expired/);
  }

  const used = await sendInvite(t, owner.client, ws, uniqueEmail('used'), 'viewer');
  assert.equal((await t.client().post(`/invites/${used.token}/accept`, { name: 'Used', password: PASSWORD })).status, 200);
  expectHtmlPage(await browser.get(`${t.url}/invites/${used.token}`), 404, /cannot be used/);

  const revoked = await sendInvite(t, owner.client, ws, uniqueEmail('revoked'), 'viewer');
  expectHtmlPage(await browser.get(`${t.url}/invites/${revoked.token}`), 200, /^Join Page Lab$/);
  assert.equal((await owner.client.delete(`/workspaces/${ws}/invites/${revoked.id}`)).status, 204);
  expectHtmlPage(await browser.get(`${t.url}/invites/${revoked.token}`), 404, /cannot be used/);

  // A new invitation to the same address replaces the open one: the first link is dead.
  const email = uniqueEmail('replaced');
  const first = await sendInvite(t, owner.client, ws, email, 'viewer');
  await sendInvite(t, owner.client, ws, email, 'editor');
  expectHtmlPage(await browser.get(`${t.url}/invites/${first.token}`), 404, /cannot be used/);
});

// Last in the file: it moves the clock a week.
test('an invitation is a page for 7 days and a 404 page after; a form sent after that is 404 too', async () => {
  const email = uniqueEmail('late');
  const { link } = await mailedInvitation(t, owner.client, ws, email, 'viewer');
  const browser = consoleBrowser(t);
  t.clock.advance(7 * DAY - MINUTE);
  const page = expectHtmlPage(await browser.get(link), 200, /^Join Page Lab$/);
  t.clock.advance(2 * MINUTE);
  expectHtmlPage(await browser.get(link), 404, /cannot be used/);
  expectHtmlPage(await browser.submit(page, 'accept-create', { name: 'Late Larry', password: PASSWORD }), 404, /cannot be used/);
  assert.equal((await t.client().post('/auth/login', { email, password: PASSWORD })).status, 401, 'no account was made');
});
