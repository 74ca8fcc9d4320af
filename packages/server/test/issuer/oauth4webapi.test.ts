// Conformance with oauth4webapi, a second certified client library: the code flow for a web app,
// and the resource server's side of spec 4.3: validateJwtAccessToken checks an access token by
// exactly the rules a server applies (RS256, typ at+jwt, kid in JWKS, iss, aud, exp), and
// introspection with server credentials.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { rememberConsent, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { expectPage, expectRedirect, followLink, freshEmail, signUpWithCode } from '../support/pages.js';
import { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
let as: oauth.AuthorizationServer;
before(async () => {
  f = await startIssuer('Webapi API');
  const response = await oauth.discoveryRequest(new URL(f.issuer), { ...options, algorithm: 'oidc' });
  as = await oauth.processDiscoveryResponse(new URL(f.issuer), response);
});
after(() => f.t.close());

const options = { [oauth.customFetch]: (url: string, init: RequestInit) => tenantFetch(url, init), [oauth.allowInsecureRequests]: true } as const;

/**
 * The code flow of the web app. With `throughPages` a new person signs up on the real pages and
 * consents; otherwise a person with a session and remembered consent is answered at once.
 */
async function codeFlow(scope: string, throughPages = false) {
  const web: oauth.Client = { client_id: f.web.clientId };
  const auth = oauth.ClientSecretBasic(f.web.secret);
  const signedIn = throughPages ? null : await signedInPerson(f);
  if (signedIn) await rememberConsent(f, signedIn.person.id, f.web.clientId, f.server.resource, scope.split(' '));
  const verifier = oauth.generateRandomCodeVerifier();
  const nonce = oauth.generateRandomNonce();
  const par = await oauth.processPushedAuthorizationResponse(as, web, await oauth.pushedAuthorizationRequest(as, web, auth, {
    redirect_uri: f.web.redirectUri, scope, nonce, resource: f.server.resource, response_type: 'code',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  }, options));
  assert.equal(par.expires_in, 60);
  const authorizeUrl = new URL(as.authorization_endpoint!);
  authorizeUrl.searchParams.set('client_id', f.web.clientId);
  authorizeUrl.searchParams.set('request_uri', par.request_uri);
  let redirect: URL;
  if (signedIn) {
    redirect = new URL((await tenantFetch(authorizeUrl, { headers: { cookie: signedIn.cookie } })).headers.get('location')!);
  } else {
    const browser = new TenantBrowser(f.issuer);
    const signup = expectPage(await followLink(browser, expectPage(await browser.get(authorizeUrl.href), /^Sign in$/), 'to-signup'), /Create your account/);
    const consent = expectPage(await signUpWithCode(f, browser, signup, freshEmail('webapi')), /wants to access/);
    const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), f.web.redirectUri);
    redirect = new URL(f.web.redirectUri);
    redirect.search = answer.toString();
  }
  const callback = oauth.validateAuthResponse(as, web, redirect, oauth.expectNoState);
  const response = await oauth.authorizationCodeGrantRequest(as, web, auth, callback, f.web.redirectUri, verifier, options);
  const tokens = await oauth.processAuthorizationCodeResponse(as, web, response, { expectedNonce: nonce, requireIdToken: true });
  const sub = oauth.getValidatedIdTokenClaims(tokens)!.sub;
  return { person: signedIn?.person ?? { id: sub, email: oauth.getValidatedIdTokenClaims(tokens)!.email as string }, tokens, web, auth };
}

test('oauth4webapi through the real pages: PAR, sign-up, consent, code exchange with ID token checks, userinfo, refresh, revocation', async () => {
  const { person, tokens, web, auth } = await codeFlow('openid email offline_access', true);
  assert.equal(oauth.getValidatedIdTokenClaims(tokens)!.sub, person.id);
  const info = await oauth.processUserInfoResponse(as, web, person.id, await oauth.userInfoRequest(as, web, tokens.access_token, options));
  assert.equal(info.email, person.email);
  const refreshed = await oauth.processRefreshTokenResponse(as, web, await oauth.refreshTokenGrantRequest(as, web, auth, tokens.refresh_token!, options));
  assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, web, auth, refreshed.refresh_token!, options));
  await assert.rejects(
    oauth.processRefreshTokenResponse(as, web, await oauth.refreshTokenGrantRequest(as, web, auth, refreshed.refresh_token!, options)),
    (error: oauth.ResponseBodyError) => error.error === 'invalid_grant',
  );
});

test('a resource server validates the access token with validateJwtAccessToken (spec 4.3 rules) and by introspection', async () => {
  const { person, tokens } = await codeFlow('openid read:weather');
  const request = new Request(f.server.resource + 'forecast', { headers: { authorization: `Bearer ${tokens.access_token}` } });
  const claims = await oauth.validateJwtAccessToken(as, request, f.server.resource, options);
  assert.equal(claims.sub, person.id);
  assert.equal(claims.scope, 'openid read:weather');
  assert.equal(claims.client_id, f.web.clientId);
  // Another audience, as a different server would expect: refused.
  await assert.rejects(oauth.validateJwtAccessToken(as, request, 'https://other.example/', options));

  const server: oauth.Client = { client_id: f.server.clientId };
  const introspection = await oauth.processIntrospectionResponse(as, server, await oauth.introspectionRequest(as, server, oauth.ClientSecretBasic(f.server.secret), tokens.access_token, options));
  assert.equal(introspection.active, true);
  assert.equal(introspection.token_use, 'access_token');
  assert.deepEqual(introspection.aud, [f.server.resource, f.issuer]);
});
