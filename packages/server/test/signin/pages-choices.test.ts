// The choices of spec 4.2 rules 3 to 6 on the pages: prompt=create and a login_hint naming someone
// else while signed in, what prompt=none answers instead, login_hint pre-filling the address, and
// prompt=login asking for a fresh sign-in.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rememberConsent, signedInPerson, startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { exchange, expectPage, expectRedirect, followLink, freshEmail, PERSON_PASSWORD, personWithPassword, signUpWithCode } from '../support/pages.js';
import { findPersonSession } from '../support/signin.js';
import { formsIn, TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Choices API');
});
after(() => f.t.close());

/** A browser whose person is signed in (and, when asked, consented to the web app before). */
async function signedInBrowser(options: { consented?: boolean; email?: string } = {}) {
  const signedIn = await signedInPerson(f, { roles: [], email: options.email ?? freshEmail('signed-in') });
  if (options.consented) await rememberConsent(f, signedIn.person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const browser = new TenantBrowser(f.issuer);
  browser.cookies.set('gh_ps', signedIn.session.token);
  return { browser, ...signedIn };
}

const setSignups = async (signups: 'open' | 'closed') => {
  const patched = await f.owner.client.patch(`/apis/${f.apiId}/signin`, { signups });
  assert.equal(patched.status, 200, patched.text);
};

test('rule 3: prompt=create while signed in offers to continue as that account', async () => {
  const { browser, person } = await signedInBrowser({ consented: true });
  const { params, pkce } = webRequest(f, { prompt: 'create' });
  const choose = expectPage(await browser.authorize(params), /Choose an account/);
  assert.match(choose.html, new RegExp(`Continue as ${person.email}`));
  assert.match(choose.html, /Create a new account/);
  const answer = expectRedirect(await browser.submit(choose, 'choose-continue'), f.web.redirectUri);
  assert.equal((await exchange(f, answer.get('code')!, pkce.verifier)).claims.sub, person.id);
});

test('rule 3: or to sign out here and create another account, which opens on the sign-up form', async () => {
  const { browser, session, person } = await signedInBrowser({ consented: true });
  const { params, pkce } = webRequest(f, { prompt: 'create' });
  const choose = expectPage(await browser.authorize(params), /Choose an account/);
  const signup = expectPage(await browser.submit(choose, 'choose-other'), /Create your account/);
  assert.ok(!browser.cookies.has('gh_ps'), 'the cookie is cleared');
  assert.ok((await findPersonSession(f.t, f.apiId, session.id))!.ended_at, 'the old session ended');
  const email = freshEmail('second-account');
  const consent = expectPage(await signUpWithCode(f, browser, signup, email), /wants to access/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  const claims = (await exchange(f, answer.get('code')!, pkce.verifier)).claims;
  assert.notEqual(claims.sub, person.id);
  assert.equal(claims.email, email);
});

test('rule 3 while sign-ups are closed: prompt=create simply continues', async () => {
  await setSignups('closed');
  try {
    const { browser, person } = await signedInBrowser({ consented: true });
    const { params, pkce } = webRequest(f, { prompt: 'create' });
    const answer = expectRedirect(await browser.authorize(params), f.web.redirectUri);
    assert.equal((await exchange(f, answer.get('code')!, pkce.verifier)).claims.sub, person.id);
  } finally {
    await setSignups('open');
  }
});

test('prompt=create without a session opens on the sign-up form, with a way to sign in instead', async () => {
  const browser = new TenantBrowser(f.issuer);
  const signup = expectPage(await browser.authorize(webRequest(f, { prompt: 'create' }).params), /Create your account/);
  const signin = expectPage(await followLink(browser, signup, 'to-signin'), /^Sign in$/);
  assert.ok(formsIn(signin.html).some((form) => form.action.endsWith('/password')));
});

test('rule 4: a login_hint naming someone else offers to continue or to sign in as them, pre-filled', async () => {
  const hinted = await personWithPassword(f, { email: freshEmail('hinted') });
  const { browser, person, session } = await signedInBrowser({ consented: true });
  const { params, pkce } = webRequest(f, { login_hint: hinted.email.toUpperCase() });
  const choose = expectPage(await browser.authorize(params), /Choose an account/);
  assert.match(choose.html, new RegExp(`Continue as ${person.email}`));
  assert.match(choose.html, new RegExp(`Sign in as ${hinted.email.toUpperCase()}`));
  const signin = expectPage(await browser.submit(choose, 'choose-other'), /^Sign in$/);
  assert.ok((await findPersonSession(f.t, f.apiId, session.id))!.ended_at, 'the old session ended');
  assert.match(signin.html, new RegExp(`name="email" value="${hinted.email.toUpperCase()}"`), 'login_hint pre-fills the address');
  const consent = expectPage(await browser.submit(signin, 'signin-password', { password: PERSON_PASSWORD }), /wants to access/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  assert.equal((await exchange(f, answer.get('code')!, pkce.verifier)).claims.sub, hinted.id);
});

test('rule 4: continuing keeps the signed-in account; a hint naming that account asks nothing', async () => {
  const { browser, person } = await signedInBrowser({ consented: true });
  const first = webRequest(f, { login_hint: freshEmail('someone-else') });
  const choose = expectPage(await browser.authorize(first.params), /Choose an account/);
  const answer = expectRedirect(await browser.submit(choose, 'choose-continue'), f.web.redirectUri);
  assert.equal((await exchange(f, answer.get('code')!, first.pkce.verifier)).claims.sub, person.id);
  const same = expectRedirect(await browser.authorize(webRequest(f, { login_hint: person.email.toUpperCase() }).params), f.web.redirectUri);
  assert.ok(same.get('code'));
});

test('rule 5: with prompt=none these choices answer login_required at the redirect URI', async () => {
  const { browser } = await signedInBrowser({ consented: true });
  const choices: Record<string, string>[] = [{ prompt: 'none create' }, { prompt: 'none', login_hint: freshEmail('other') }];
  for (const extra of choices) {
    const { params } = webRequest(f, extra);
    const answer = expectRedirect(await browser.authorize(params), f.web.redirectUri);
    assert.equal(answer.get('error'), 'login_required');
    assert.equal(answer.get('state'), params.state);
    assert.equal(answer.get('iss'), f.issuer);
  }
  // prompt=none with nothing to choose answers a code; without a session, login_required.
  assert.ok(expectRedirect(await browser.authorize(webRequest(f, { prompt: 'none' }).params), f.web.redirectUri).get('code'));
  // none with login or consent stays an error of the request (OIDC Core 3.1.2.1).
  assert.equal(expectRedirect(await browser.authorize(webRequest(f, { prompt: 'none login' }).params), f.web.redirectUri).get('error'), 'invalid_request');
  const stranger = new TenantBrowser(f.issuer);
  assert.equal(expectRedirect(await stranger.authorize(webRequest(f, { prompt: 'none' }).params), f.web.redirectUri).get('error'), 'login_required');
});

test('rule 6: prompt=login asks for a fresh sign-in even with a session', async () => {
  const person = await personWithPassword(f, { email: freshEmail('fresh') });
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  expectRedirect(await browser.submit(signin, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), f.web.redirectUri);
  const { params, pkce } = webRequest(f, { prompt: 'login' });
  const again = expectPage(await browser.authorize(params), /^Sign in$/);
  const answer = expectRedirect(await browser.submit(again, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), f.web.redirectUri);
  assert.equal((await exchange(f, answer.get('code')!, pkce.verifier)).claims.sub, person.id);
});
