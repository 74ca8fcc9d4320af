// Conformance with a certified relying-party library: openid-client drives discovery, PAR,
// PKCE, the code exchange with ID token validation, refresh rotation, userinfo, introspection,
// revocation and RP-initiated logout against the sign-in service of one API.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as client from 'openid-client';
import { rememberConsent, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { expectPage, expectRedirect, followLink, freshEmail, signUpWithCode } from '../support/pages.js';
import { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Conformance API');
});
after(() => f.t.close());

const fetchOptions = { [client.customFetch]: (url: string, options: RequestInit) => tenantFetch(url, options), execute: [client.allowInsecureRequests] };

async function webConfig() {
  return client.discovery(new URL(f.issuer), f.web.clientId, { redirect_uris: [f.web.redirectUri] }, client.ClientSecretBasic(f.web.secret), fetchOptions as never);
}

/** Follows the browser's redirects on the tenant host until it reaches `redirectUri`. */
async function browse(start: URL, cookie: string, redirectUri: string): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(redirectUri)) return url;
    const response = await tenantFetch(url, { headers: { cookie } });
    const location = response.headers.get('location');
    assert.ok(location, `expected a redirect from ${url.pathname}, got ${response.status}: ${(await response.text()).slice(0, 300)}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

test('openid-client: discovery, PAR with PKCE, code exchange with ID token checks, userinfo, refresh, introspection, revocation, logout', async () => {
  const config = await webConfig();
  assert.equal(config.serverMetadata().issuer, f.issuer);
  const { person, cookie } = await signedInPerson(f);
  const scope = 'openid profile email offline_access read:weather';
  await rememberConsent(f, person.id, f.web.clientId, f.server.resource, scope.split(' '));

  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: f.web.redirectUri, scope, state, nonce, resource: f.server.resource,
    code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  assert.match(authorizationUrl.searchParams.get('request_uri')!, /^urn:ietf:params:oauth:request_uri:/);
  const callback = await browse(authorizationUrl, cookie, f.web.redirectUri);

  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
  const claims = tokens.claims()!;
  assert.equal(claims.sub, person.id);
  assert.equal(claims.email, person.email);
  assert.ok(tokens.refresh_token);
  assert.equal(tokens.scope, scope);

  const userinfo = await client.fetchUserInfo(config, tokens.access_token, person.id);
  assert.equal(userinfo.email, person.email);
  assert.equal(userinfo.name, person.name);

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  assert.ok(refreshed.refresh_token && refreshed.refresh_token !== tokens.refresh_token);
  assert.equal(refreshed.claims()?.sub, person.id);

  const introspection = await client.tokenIntrospection(config, refreshed.access_token);
  assert.equal(introspection.active, true);
  assert.equal(introspection.sub, person.id);

  await client.tokenRevocation(config, refreshed.refresh_token!);
  await assert.rejects(client.refreshTokenGrant(config, refreshed.refresh_token!), (error: client.ResponseBodyError) => error.error === 'invalid_grant');

  // RP-initiated logout with a valid id_token_hint and a registered address: immediate.
  const endSession = client.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: f.web.logoutUri, state: 'bye-state' });
  const loggedOut = await tenantFetch(endSession, { headers: { cookie } });
  assert.equal(loggedOut.status, 303);
  const back = new URL(loggedOut.headers.get('location')!);
  assert.equal(back.origin + back.pathname, f.web.logoutUri);
  assert.equal(back.searchParams.get('state'), 'bye-state');
  // Revoking the refresh token ended its grant: the grant's access tokens are inactive too.
  const inactive = await client.tokenIntrospection(config, tokens.access_token);
  assert.equal(inactive.active, false);
  // The browser session ended: authorize asks the person to sign in again.
  const again = await tenantFetch(await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: f.web.redirectUri, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  }), { headers: { cookie } });
  assert.equal(again.status, 303);
  assert.match(again.headers.get('location')!, /^\/interaction\//);
});

test('openid-client: a public single-page app with PKCE and no secret; access token without offline access ends with the session', async () => {
  const config = await client.discovery(new URL(f.issuer), f.spa.clientId, { redirect_uris: [f.spa.redirectUri] }, client.None(), fetchOptions as never);
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.spa.clientId, null, ['openid', 'email']);
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: f.spa.redirectUri, scope: 'openid email', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'spa-state',
  });
  const callback = await browse(url, cookie, f.spa.redirectUri);
  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'spa-state' });
  assert.equal(tokens.refresh_token, undefined);
  const info = await client.fetchUserInfo(config, tokens.access_token, person.id);
  assert.equal(info.email, person.email);

  // Logout without a hint asks first; confirming ends the session and the token with it.
  const page = await tenantFetch(f.issuer + '/oauth/logout', { headers: { cookie } });
  assert.equal(page.status, 200);
  const html = await page.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  const csrfCookie = /gh_csrf=([^;]+)/.exec(page.headers.get('set-cookie')!)![1]!;
  const confirmed = await tenantFetch(f.issuer + '/oauth/logout', {
    method: 'POST', headers: { cookie: `${cookie}; gh_csrf=${csrfCookie}`, 'content-type': 'application/x-www-form-urlencoded' }, body: `csrf=${encodeURIComponent(csrf)}&confirm=yes`,
  });
  assert.equal(confirmed.status, 200);
  const userinfo = await tenantFetch(f.issuer + '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(userinfo.status, 401);
});

test('openid-client through the real pages: PAR, sign-up with a mailed code, consent, code exchange, userinfo, refresh, logout', async () => {
  const config = await webConfig();
  const browser = new TenantBrowser(f.issuer);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: f.web.redirectUri, scope: 'openid profile email offline_access', state, nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const signin = expectPage(await browser.get(authorizationUrl.href), /^Sign in$/);
  const signup = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  const email = freshEmail('rp');
  const consent = expectPage(await signUpWithCode(f, browser, signup, email, 'Rita Party'), /wants to access/);
  const callback = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
  const callbackUrl = new URL(f.web.redirectUri);
  callbackUrl.search = callback.toString();

  const tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
  const claims = tokens.claims()!;
  assert.equal(claims.email, email);
  assert.equal(claims.name, 'Rita Party');
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  assert.equal(userinfo.email, email);
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  assert.equal(refreshed.claims()?.sub, claims.sub);

  const endSession = client.buildEndSessionUrl(config, { id_token_hint: refreshed.id_token!, post_logout_redirect_uri: f.web.logoutUri, state: 'out' });
  const loggedOut = await browser.request('GET', endSession.href);
  assert.equal(loggedOut.leftTo?.searchParams.get('state'), 'out');
  assert.equal(browser.cookies.has('gh_ps'), false, 'the session cookie is cleared');
  // The access token issued during the session is inactive now that the session ended.
  assert.equal((await client.tokenIntrospection(config, tokens.access_token)).active, false);
});
