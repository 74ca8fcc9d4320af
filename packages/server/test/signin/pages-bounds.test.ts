// Every bound a person types on the sign-up and sign-in pages, on both sides (spec 2.4 and 8:
// names 1..100, passwords 10..72, codes of 6 digits), and sign-ups while they are closed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findPersonByEmail } from '../../src/issuer/people/queries.js';
import { startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { exchange, expectPage, expectRedirect, followLink, freshEmail, mailedCode, personWithPassword } from '../support/pages.js';
import { errorIn, formsIn, TenantBrowser, type Page } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Bounds API');
});
after(() => f.t.close());

/** A browser on the second sign-up step for `email`, with the mailed code. */
async function atSignupStep2(email: string, extra: Record<string, string> = {}) {
  const browser = new TenantBrowser(f.issuer);
  const request = webRequest(f, { prompt: 'create', ...extra });
  const signup = expectPage(await browser.authorize(request.params), /Create your account/);
  f.t.mail.take(email);
  const step2 = expectPage(await browser.submit(signup, 'signup-send', { email }), /Check your e-mail/);
  return { browser, step2, request, code: await mailedCode(f, email, /sign-up code/) };
}

function refusedOnStep2(page: Page, message: RegExp) {
  expectPage(page, /Check your e-mail/, 400);
  assert.match(errorIn(page.html) ?? '', message);
}

test('sign-up: name 1..100 and password 10..72 characters; past either bound refused before the code is tried', async () => {
  const email = freshEmail('longest');
  const { browser, step2, request, code } = await atSignupStep2(email);
  const good = { code, name: 'N'.repeat(100), password: 'p'.repeat(72) };
  refusedOnStep2(await browser.submit(step2, 'signup-complete', { ...good, name: '' }), /Enter your name/);
  refusedOnStep2(await browser.submit(step2, 'signup-complete', { ...good, name: '   ' }), /Enter your name/);
  refusedOnStep2(await browser.submit(step2, 'signup-complete', { ...good, name: 'N'.repeat(101) }), /Enter your name \(up to 100/);
  refusedOnStep2(await browser.submit(step2, 'signup-complete', { ...good, password: 'p'.repeat(9) }), /10 to 72 characters/);
  refusedOnStep2(await browser.submit(step2, 'signup-complete', { ...good, password: 'p'.repeat(73) }), /10 to 72 characters/);
  const kept = await browser.submit(step2, 'signup-complete', { ...good, password: 'short' });
  assert.match(kept.html, new RegExp(`name="name" value="${'N'.repeat(100)}"`), 'the name stays filled in, the password does not');
  assert.equal(await findPersonByEmail(f.t.services.db, f.apiId, email), undefined, 'nobody was made');
  // The code was never tried: it still works, at both upper bounds.
  const consent = expectPage(await browser.submit(step2, 'signup-complete', good), /wants to access/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  assert.equal((await exchange(f, answer.get('code')!, request.pkce.verifier)).claims.name, 'N'.repeat(100));
  // The 72-character password signs in.
  const again = new TenantBrowser(f.issuer);
  const signin = expectPage(await again.authorize(webRequest(f).params), /^Sign in$/);
  expectRedirect(await again.submit(signin, 'signin-password', { email, password: 'p'.repeat(72) }), f.web.redirectUri);
});

test('sign-up at the lower bounds: a name of 1 character (trimmed) and a password of 10', async () => {
  const email = freshEmail('shortest');
  const { browser, step2, request, code } = await atSignupStep2(email);
  const consent = expectPage(await browser.submit(step2, 'signup-complete', { code, name: '  Q  ', password: 'p'.repeat(10) }), /wants to access/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  assert.equal((await exchange(f, answer.get('code')!, request.pkce.verifier)).claims.name, 'Q');
});

test('codes are exactly 6 digits: 5 or 7 digits, or letters, are refused without spending a try', async () => {
  const email = freshEmail('digits');
  const { browser, step2, code } = await atSignupStep2(email);
  const fields = { name: 'Dee Digits', password: 'p'.repeat(12) };
  for (const wrong of [code.slice(0, 5), `${code}0`, 'abcdef', '']) {
    refusedOnStep2(await browser.submit(step2, 'signup-complete', { ...fields, code: wrong }), /6-digit code/);
  }
  // Six wrong-length tries did not use up the five tries of the code; spaces around digits are forgiven.
  expectPage(await browser.submit(step2, 'signup-complete', { ...fields, code: ` ${code.slice(0, 3)} ${code.slice(3)} ` }), /wants to access/);
});

test('sign-in bounds: an e-mail over 254 characters or a password over 200 is refused (400), not tried', async () => {
  const person = await personWithPassword(f);
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const longEmail = `${'a'.repeat(245)}@people.test`;
  assert.equal(longEmail.length, 257);
  assert.match(errorIn(expectPage(await browser.submit(signin, 'signin-password', { email: longEmail, password: 'whatever1234' }), /^Sign in$/, 400).html)!, /e-mail address/);
  assert.match(errorIn(expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: 'x'.repeat(201) }), /^Sign in$/, 400).html)!, /password/);
  expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: '' }), /^Sign in$/, 400);
  expectPage(await browser.submit(signin, 'signin-code', { email: 'not an address' }), /^Sign in$/, 400);
});

test('while sign-ups are closed there is no sign-up form, and its posts are refused', async () => {
  const browser = new TenantBrowser(f.issuer);
  const open = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const signupPage = expectPage(await followLink(browser, open, 'to-signup'), /Create your account/);
  const patched = await f.owner.client.patch(`/apis/${f.apiId}/signin`, { signups: 'closed' });
  assert.equal(patched.status, 200);
  try {
    const email = freshEmail('closed');
    const refused = expectPage(await browser.submit(signupPage, 'signup-send', { email }), /^Sign in$/, 403);
    assert.match(errorIn(refused.html)!, /Sign-ups are closed/);
    assert.doesNotMatch(refused.html, /Create an account/, 'no way to sign up is offered');
    const posted = await browser.request('POST', signupPage.url.replace(/\?.*$/, '') + '/signup', {
      csrf: formsIn(signupPage.html)[0]!.fields.find((field) => field.name === 'csrf')!.value, email, code: '123456', name: 'Late', password: 'p'.repeat(12),
    });
    assert.equal(posted.status, 403);
    assert.equal(await findPersonByEmail(f.t.services.db, f.apiId, email), undefined);
    // ?form=signup and prompt=create both show the sign-in form.
    expectPage(await browser.get(signupPage.url), /^Sign in$/);
    expectPage(await new TenantBrowser(f.issuer).authorize(webRequest(f, { prompt: 'create' }).params), /^Sign in$/);
  } finally {
    await f.owner.client.patch(`/apis/${f.apiId}/signin`, { signups: 'open' });
  }
});
