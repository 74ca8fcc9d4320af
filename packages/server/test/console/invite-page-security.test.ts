// The invitation page's defences and bounds: a strict CSP with nonces and nothing from elsewhere,
// CSRF double-submit tokens with an Origin check on every form, every field's bound on both
// sides, and refusals that are pages (400/401/403/413), never a JSON answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { wrongTotp } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, uniqueEmail, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { consoleBrowser, consoleMe, expectError, expectHtmlPage, mailedInvitation } from '../support/invite-page.js';
import { formsIn, type Page, type TenantBrowser } from '../support/tenant-client.js';
import { addMember, MEMBER_PASSWORD } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let ws: string;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Sofia Security', email: uniqueEmail('sofia') });
  ws = (await owner.client.post('/workspaces', { name: 'Guarded' })).body.id;
});
after(() => t.close());

/** A fresh invitation for a new address, opened in a new browser. */
async function newAddressPage(role: 'admin' | 'editor' | 'viewer' = 'viewer') {
  const email = uniqueEmail('guest');
  const { link, token } = await mailedInvitation(t, owner.client, ws, email, role);
  const browser = consoleBrowser(t);
  const page = expectHtmlPage(await browser.get(link), 200, /^Join Guarded$/);
  return { email, link, token, browser, page, csrf: csrfOf(page) };
}

const csrfOf = (page: Page) => formsIn(page.html)[0]!.fields.find((field) => field.name === 'csrf')!.value;
const isOpen = async (token: string) => (await t.client().get(`/invites/${token}`)).status === 200;
const accountExists = async (email: string, password = PASSWORD) => (await t.client().post('/auth/login', { email, password })).status === 200;

test('every page has a strict Content-Security-Policy with a fresh nonce, loads nothing from elsewhere, and is never cached or framed', async () => {
  const { browser, link } = await newAddressPage();
  const nonces = new Set<string>();
  for (const page of [await browser.get(link), await browser.get(link), await browser.get(`${t.url}/invites/unknown-token`)]) {
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; script-src 'nonce-[A-Za-z0-9+/=]+'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    nonces.add(nonce);
    assert.ok(page.html.includes(`<style nonce="${nonce}">`), 'the inline style carries the nonce');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.doesNotMatch(page.html, /(src|href|action)="(https?:)?\/\//, 'no asset or form from another origin');
    assert.doesNotMatch(page.html, /<script/, 'no script at all');
  }
  assert.equal(nonces.size, 3, 'a new nonce per answer');
});

test('the CSRF cookie is HttpOnly and SameSite=Lax, and every form carries its token', async () => {
  const { page } = await newAddressPage();
  const line = page.headers.getSetCookie().find((cookie) => cookie.startsWith('gh_csrf='));
  assert.ok(line, 'the page sets the CSRF cookie');
  assert.match(line, /HttpOnly/i);
  assert.match(line, /SameSite=Lax/i);
  assert.match(line, /Path=\//);
  for (const form of formsIn(page.html)) {
    assert.equal(form.method, 'post');
    assert.ok(form.fields.some((field) => field.name === 'csrf' && field.value.length === 43), form.action);
  }
});

test('a form post without the token, with another token, or without the cookie is a 403 page and changes nothing', async () => {
  const { browser, link, token, email, csrf } = await newAddressPage();
  const fields = { name: 'Cross Site', password: PASSWORD };
  const attempts: [string, () => Promise<Page>][] = [
    ['no token', () => browser.request('POST', `${link}/accept`, fields)],
    ['another token', () => browser.request('POST', `${link}/accept`, { ...fields, csrf: 'x'.repeat(43) })],
    ['the token twice', () => browser.request('POST', `${link}/accept`, [{ name: 'csrf', value: csrf }, { name: 'csrf', value: csrf }, { name: 'name', value: 'Twice' }, { name: 'password', value: PASSWORD }])],
    ['no cookie', () => consoleBrowser(t).request('POST', `${link}/accept`, { ...fields, csrf })],
  ];
  for (const [what, attempt] of attempts) {
    const page = expectHtmlPage(await attempt(), 403, /^This form cannot be sent$/);
    assert.match(page.html, /expired or came from another site/, what);
    assert.equal(page.headers.getSetCookie().some((line) => line.startsWith('gh_session=')), false, what);
  }
  assert.equal(await isOpen(token), true, 'the invitation is still open');
  assert.equal(await accountExists(email), false, 'no account was made');
  // The same form with its token goes through.
  const done = await browser.request('POST', `${link}/accept`, { ...fields, csrf });
  expectHtmlPage(done, 200, /^You joined Guarded$/);
});

test('a form post from another Origin is a 403 page even with the right token; our own Origin passes', async () => {
  const { browser, link, token, email, csrf } = await newAddressPage();
  const fields = { name: 'Origin Test', password: PASSWORD, csrf };
  for (const origin of ['https://evil.example', t.url.replace('127.0.0.1', 'localhost'), `${t.url}.evil.example`]) {
    expectHtmlPage(await browser.request('POST', `${link}/accept`, fields, { origin }), 403, /^This form cannot be sent$/);
  }
  assert.equal(await isOpen(token), true);
  assert.equal(await accountExists(email), false);
  expectHtmlPage(await browser.request('POST', `${link}/accept`, fields, { origin: t.url }), 200, /^You joined Guarded$/);
});

test('the sign-in, two-factor and sign-out forms are guarded too', async () => {
  const person = await addMember(t, owner.client, ws, 'viewer', 'guarded');
  const other = await mailedInvitation(t, owner.client, (await owner.client.post('/workspaces', { name: 'Second' })).body.id, person.email, 'editor');
  const browser = consoleBrowser(t);
  await browser.get(other.link);
  for (const action of ['signin', '2fa', 'signout']) {
    expectHtmlPage(await browser.request('POST', `${other.link}/${action}`, { password: MEMBER_PASSWORD, challenge: 'c', code: '123456' }), 403, /^This form cannot be sent$/);
  }
  assert.equal(browser.cookies.get('gh_session'), undefined, 'no sign-in happened');
});

test('name: 100 characters pass; 101, blank or missing are 400 on the page, echoed cut to 100', async () => {
  const { browser, page, token, email } = await newAddressPage();
  for (const name of ['n'.repeat(101), '   ', '']) {
    const refused = expectError(await browser.submit(page, 'accept-create', { name, password: PASSWORD }), 400, /^Enter your name \(up to 100 characters\)\.$/);
    const echoed = formsIn(refused.html)[0]!.fields.find((field) => field.name === 'name')!.value;
    assert.equal(echoed, name.slice(0, 100));
  }
  const missing = await browser.request('POST', `${t.url}/invites/${token}/accept`, { csrf: csrfOf(page), password: PASSWORD });
  expectError(missing, 400, /^Enter your name/);
  assert.equal(await isOpen(token), true, 'refusals leave the invitation open');
  // Code points, as the console API counts them: 100 of them, whatever their UTF-16 length.
  const longest = '\u{1F600}'.repeat(50) + 'n'.repeat(50);
  expectHtmlPage(await browser.submit(page, 'accept-create', { name: longest, password: PASSWORD }), 200, /^You joined Guarded$/);
  const members = (await owner.client.get(`/workspaces/${ws}/members`)).body.members as { email: string; name: string }[];
  assert.equal(members.find((member) => member.email === email)?.name, longest);
});

test('a new password: 9 and 73 characters are 400 on the page; 10 and 72 make the account', async () => {
  const first = await newAddressPage();
  for (const password of ['p'.repeat(9), 'p'.repeat(73)]) {
    expectError(await first.browser.submit(first.page, 'accept-create', { name: 'Pat Password', password }), 400, /^Choose a password of 10 to 72 characters\.$/);
  }
  assert.equal(await isOpen(first.token), true);
  expectHtmlPage(await first.browser.submit(first.page, 'accept-create', { name: 'Pat Password', password: 'p'.repeat(10) }), 200, /^You joined Guarded$/);
  assert.equal(await accountExists(first.email, 'p'.repeat(10)), true);

  const second = await newAddressPage();
  expectHtmlPage(await second.browser.submit(second.page, 'accept-create', { name: 'Pat Password', password: 'q'.repeat(72) }), 200, /^You joined Guarded$/);
  assert.equal(await accountExists(second.email, 'q'.repeat(72)), true);
});

/** An account not signed in, on its invitation's sign-in form. */
async function existingAccountPage(person: { email: string }): Promise<{ browser: TenantBrowser; page: Page }> {
  const { link } = await mailedInvitation(t, owner.client, ws, person.email, 'editor');
  const browser = consoleBrowser(t);
  return { browser, page: await browser.get(link) };
}

test('a sign-in password: 201 characters are 400 without a try, 200 are tried (401), empty is 400', async () => {
  const person = await signUp(t, { name: 'Len Length', email: uniqueEmail('len') });
  const { browser, page } = await existingAccountPage(person);
  expectError(await browser.submit(page, 'accept-signin', { password: 'p'.repeat(201) }), 400, /^Enter your password\.$/);
  expectError(await browser.submit(page, 'accept-signin', { password: '' }), 400, /^Enter your password\.$/);
  expectError(await browser.submit(page, 'accept-signin', { password: 'p'.repeat(200) }), 401, /^Wrong password\.$/);
  assert.equal(browser.cookies.get('gh_session'), undefined);
});

test('a second-factor code: 21 characters are 400, 20 are tried (401); a challenge over 200 characters is refused', async () => {
  const person = await signUp(t, { name: 'Cody Code', email: uniqueEmail('cody') });
  const { secret } = await enableTwoFactor(t, person.client);
  const { browser, page } = await existingAccountPage(person);
  const step = expectHtmlPage(await browser.submit(page, 'accept-signin', { password: PASSWORD }), 200, /^Two-factor sign-in$/);
  expectError(await browser.submit(step, 'accept-2fa', { code: '1'.repeat(21) }), 400, /^Enter the code from your authenticator app/);
  expectError(await browser.submit(step, 'accept-2fa', { code: '   ' }), 400, /^Enter the code/);
  expectError(await browser.submit(step, 'accept-2fa', { code: '1'.repeat(20) }), 401, /^Wrong code/);
  expectError(await browser.submit(step, 'accept-2fa', { code: wrongTotp(t, secret), challenge: 'c'.repeat(201) }), 401, /Enter your password again/);
  assert.equal(browser.cookies.get('gh_session'), undefined);
  assert.equal(await consoleMe(t, browser), null);
});

test('a body over 16 KB is a 413 page, and a JSON body is no way around the token', async () => {
  const { browser, link, token, csrf } = await newAddressPage();
  const big = await browser.request('POST', `${link}/accept`, { csrf, name: 'n'.repeat(17 * 1024), password: PASSWORD });
  expectHtmlPage(big, 413, /^Something went wrong$/);
  assert.match(big.html, /The form is too large/);
  const json = await browser.request('POST', `${link}/accept`, undefined, { 'content-type': 'application/json' });
  assert.match(json.headers.get('content-type') ?? '', /^text\/html/, 'an empty JSON body is answered with a page');
  const sneaky = await fetch(`${link}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `gh_csrf=${csrf}` },
    body: JSON.stringify({ name: 'Json Jay', password: PASSWORD }),
  });
  assert.equal(sneaky.status, 403);
  assert.match(sneaky.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(await isOpen(token), true);
});
