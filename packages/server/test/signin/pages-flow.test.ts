// The sign-in pages through a whole authorization-code flow (spec 4.2, 4.3): sign-up proven by
// an e-mailed code, consent remembered per app, password and code sign-in with their amr,
// wrong passwords, suspended people and a declined consent answered at the redirect URI.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findPersonByEmail } from '../../src/issuer/people/queries.js';
import { webRequest, type IssuerFixture, startIssuer } from '../support/issuer.js';
import {
  exchange, expectPage, expectRedirect, followLink, freshEmail, PERSON_PASSWORD, personWithPassword, signInWithCode, signUpWithCode, suspend,
} from '../support/pages.js';
import { errorIn, TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Forecast Co');
});
after(() => f.t.close());

test('sign-up with an e-mailed code, consent, the code at the redirect URI; a second authorize is immediate', async () => {
  const browser = new TenantBrowser(f.issuer);
  const { params, pkce } = webRequest(f);
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  assert.match(signin.html, /Weather Web/, 'the page names the app');
  assert.match(signin.html, /Forecast Co/, "the page is in the API's name");
  const signup = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  const email = freshEmail('newcomer');
  const consent = expectPage(await signUpWithCode(f, browser, signup, email, 'Sam Newcomer'), /Weather Web wants to access your Forecast Co account/);
  assert.ok(browser.cookies.has('gh_ps'), 'signing up signs in: a session cookie on the tenant host');
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  assert.equal(answer.get('state'), params.state);
  assert.equal(answer.get('iss'), f.issuer, 'RFC 9207: iss on the redirect');
  const tokens = await exchange(f, answer.get('code')!, pkce.verifier);
  assert.equal(tokens.claims.email, email);
  assert.equal(tokens.claims.email_verified, true, 'the sign-up code proved the address');
  assert.equal(tokens.claims.name, 'Sam Newcomer');
  assert.deepEqual(tokens.claims.amr, ['pwd']);
  assert.equal(tokens.claims.nonce, params.nonce);

  // Consent is remembered per app: the next authorization answers at once.
  const again = webRequest(f);
  const second = expectRedirect(await browser.authorize(again.params), f.web.redirectUri);
  assert.ok(second.get('code'));
  assert.equal(second.get('state'), again.params.state);
  assert.equal((await exchange(f, second.get('code')!, again.pkce.verifier)).claims.sub, tokens.claims.sub, 'the same person');
  // prompt=consent asks again even though it is remembered.
  expectPage(await browser.authorize(webRequest(f, { prompt: 'consent' }).params), /wants to access/);
});

test('password sign-in: a session with amr pwd; the address typed in any case', async () => {
  const person = await personWithPassword(f, { email: freshEmail('pwd') });
  const browser = new TenantBrowser(f.issuer);
  const { params, pkce } = webRequest(f);
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  const consent = expectPage(await browser.submit(signin, 'signin-password', { email: `  ${person.email.toUpperCase()} `, password: PERSON_PASSWORD }), /wants to access/);
  assert.match(consent.html, new RegExp(`Signed in as <strong>${person.email}</strong>`));
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  const tokens = await exchange(f, answer.get('code')!, pkce.verifier);
  assert.equal(tokens.claims.sub, person.id);
  assert.deepEqual(tokens.claims.amr, ['pwd']);
});

test('code sign-in: amr otp, and the code proves the address (email_verified)', async () => {
  const person = await personWithPassword(f, { email: freshEmail('otp'), emailVerified: false });
  const browser = new TenantBrowser(f.issuer);
  const { params, pkce } = webRequest(f);
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  const consent = expectPage(await signInWithCode(f, browser, signin, person.email), /wants to access/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  const tokens = await exchange(f, answer.get('code')!, pkce.verifier);
  assert.equal(tokens.claims.sub, person.id);
  assert.deepEqual(tokens.claims.amr, ['otp'], 'RFC 8176: a one-time password');
  assert.equal(tokens.claims.email_verified, true);
  assert.equal((await findPersonByEmail(f.t.services.db, f.apiId, person.email))!.email_verified, true);
});

test('a wrong password and an unknown address get the same 401 and no session', async () => {
  const person = await personWithPassword(f, { email: freshEmail('wrong') });
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const wrong = expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: 'not the password' }), /^Sign in$/, 401);
  const unknown = expectPage(await browser.submit(signin, 'signin-password', { email: freshEmail('nobody'), password: PERSON_PASSWORD }), /^Sign in$/, 401);
  assert.equal(errorIn(wrong.html), 'Wrong e-mail or password.');
  assert.equal(errorIn(unknown.html), errorIn(wrong.html));
  assert.match(wrong.html, new RegExp(`value="${person.email}"`), 'the address stays filled in');
  assert.ok(!browser.cookies.has('gh_ps'));
  // The right password still works after wrong ones.
  expectPage(await browser.submit(wrong, 'signin-password', { password: PERSON_PASSWORD }), /wants to access/);
});

test('a suspended person who proves who they are: access_denied at the redirect URI, no session', async () => {
  const person = await personWithPassword(f, { email: freshEmail('suspended') });
  await suspend(f, person.id);
  for (const how of ['password', 'code'] as const) {
    const browser = new TenantBrowser(f.issuer);
    const { params } = webRequest(f);
    const signin = expectPage(await browser.authorize(params), /^Sign in$/);
    const after = how === 'password'
      ? await browser.submit(signin, 'signin-password', { email: person.email, password: PERSON_PASSWORD })
      : await signInWithCode(f, browser, signin, person.email);
    const answer = expectRedirect(after, f.web.redirectUri);
    assert.equal(answer.get('error'), 'access_denied', how);
    assert.equal(answer.get('state'), params.state);
    assert.equal(answer.get('iss'), f.issuer);
    assert.ok(!browser.cookies.has('gh_ps'), `${how}: no session for a suspended person`);
  }
  // A wrong password for a suspended person is just a wrong password: it tells nothing.
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: 'not the password' }), /^Sign in$/, 401);
});

test('consent denied: access_denied at the redirect URI, and nothing is remembered', async () => {
  const browser = new TenantBrowser(f.issuer);
  const person = await personWithPassword(f);
  const { params } = webRequest(f);
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  const consent = expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), /wants to access/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-deny'), f.web.redirectUri);
  assert.equal(answer.get('error'), 'access_denied');
  assert.equal(answer.get('state'), params.state);
  assert.equal(answer.get('code'), null);
  // Still signed in; the next request asks for consent again.
  expectPage(await browser.authorize(webRequest(f).params), /wants to access/);
});

test('consent names the app, the server and its URL, each permission with its description, sensitive ones marked', async () => {
  const writer = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: 'writer', permissions: [{ server_id: f.server.id, permission: 'write:weather' }] });
  assert.equal(writer.status, 200, writer.text);
  const person = await personWithPassword(f, { roles: [f.roleId, writer.body.id] });
  const browser = new TenantBrowser(f.issuer);
  const { params, pkce } = webRequest(f, { scope: 'openid email offline_access read:weather write:weather', resource: f.server.resource });
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  const consent = expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), /wants to access/);
  assert.match(consent.html, /id="server-name">Weather API server<\/strong> \(<span class="note">https:\/\/api\.weather\.example\/<\/span>\)/);
  assert.match(consent.html, /<code>read:weather<\/code><br><span class="note">Read forecasts<\/span>/);
  assert.match(consent.html, /<code>write:weather<\/code><span class="badge">sensitive<\/span><br><span class="note">Change stations<\/span>/);
  assert.doesNotMatch(consent.html, /<code>read:weather<\/code><span class="badge">/, 'only sensitive permissions carry the badge');
  assert.match(consent.html, /See your e-mail address/);
  assert.match(consent.html, /Stay connected/);
  assert.doesNotMatch(consent.html, /unverified/, "the owner's app is not labelled unverified");
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  const tokens = await exchange(f, answer.get('code')!, pkce.verifier);
  assert.ok(tokens.access_token);
  // Remembered for this app and server: the same request is answered at once.
  expectRedirect(await browser.authorize(webRequest(f, { scope: params.scope!, resource: f.server.resource }).params), f.web.redirectUri);
});
