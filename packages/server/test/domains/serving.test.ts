// An API's sign-in service and portal at its active custom domain (issue 17 point 4): the issuer
// there is https://<domain> (the proxy in front terminates TLS, so requests arrive as HTTP with
// the domain's Host header); openid-client runs the whole flow against it; the portal host keeps
// its own issuer; and what one issuer minted is refused by the other.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as client from 'openid-client';
import { activateDomain, hostFetch, putOnPlan, startDns, type TestDns } from '../support/domains.js';
import { basic, pkcePair, rememberConsent, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { expectPage, followLink, freshEmail, signUpWithCode } from '../support/pages.js';
import { TenantBrowser } from '../support/tenant-client.js';

const DOMAIN = 'login.serving.example';
const CUSTOM = `https://${DOMAIN}`;
let f: IssuerFixture;
let dns: TestDns;
/** Reaches the app at the custom domain (Host: login.serving.example) or at the portal host. */
let send: (url: string | URL, init?: RequestInit) => Promise<Response>;

before(async () => {
  dns = await startDns();
  f = await startIssuer('Serving API', { DNS_SERVERS: dns.address });
  await putOnPlan(f.t, f.apiId, 'starter');
  await activateDomain(f.owner.client, dns, f.apiId, DOMAIN);
  const custom = hostFetch(f.t.port);
  send = (url, init = {}) => (new URL(url).hostname.endsWith('.localhost') ? tenantFetch(url, init) : custom(url, init));
});
after(async () => {
  await f.t.close();
  await dns.close();
});

const fetchOptions = { [client.customFetch]: (url: string, options: RequestInit) => send(url, options), execute: [client.allowInsecureRequests] };
const configAt = (issuer: string) =>
  client.discovery(new URL(issuer), f.web.clientId, { redirect_uris: [f.web.redirectUri] }, client.ClientSecretBasic(f.web.secret), fetchOptions as never);

/** Follows the browser's redirects until one reaches the app's redirect URI. */
async function browse(start: URL, cookie: string): Promise<URL> {
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    if (url.href.startsWith(f.web.redirectUri)) return url;
    const response = await send(url, { headers: { cookie } });
    const location = response.headers.get('location');
    assert.ok(location, `expected a redirect from ${url.href}, got ${response.status}: ${(await response.text()).replace(/<style[\s\S]*?<\/style>/, '').slice(0, 1500)}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

/** Signs a person in with openid-client at `issuer` and answers the tokens. */
async function signIn(config: client.Configuration, cookie: string, scope = 'openid profile email offline_access read:weather') {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: f.web.redirectUri, scope, state, nonce, resource: f.server.resource,
    code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const callback = await browse(authorizationUrl, cookie);
  return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
}

test('discovery at the custom domain names https://<domain> and every endpoint under it; the portal host keeps its own issuer', async () => {
  const custom = await send(`${CUSTOM}/.well-known/openid-configuration`);
  assert.equal(custom.status, 200);
  const document = (await custom.json()) as Record<string, unknown>;
  assert.equal(document.issuer, CUSTOM);
  for (const [name, value] of Object.entries(document)) {
    if (name.endsWith('_endpoint') || name === 'jwks_uri') assert.ok(String(value).startsWith(`${CUSTOM}/`), `${name}: ${value}`);
  }
  const metadata = (await (await send(`${CUSTOM}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  assert.equal(metadata.issuer, CUSTOM);
  const portal = (await (await tenantFetch(`${f.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  assert.equal(portal.issuer, f.issuer);
  // One API, one key set, at both addresses.
  const jwksCustom = await (await send(`${CUSTOM}/oauth/jwks`)).json();
  const jwksPortal = await (await tenantFetch(`${f.issuer}/oauth/jwks`)).json();
  assert.deepEqual(jwksCustom, jwksPortal);
  // Another name, or the domain with the wrong case of nothing at all, is not this API.
  assert.equal((await send('https://other.serving.example/.well-known/openid-configuration')).status, 404);
  assert.equal((await send(`https://${DOMAIN.toUpperCase()}/.well-known/openid-configuration`)).status, 200, 'host names are case-insensitive');
});

test('MCP 2026-07-28 (clients refuse metadata whose issuer is not the one they used): at both well-known paths, the issuer is exactly the host asked, on the slug host and the custom domain, and every endpoint is under it', async () => {
  const patched = await f.owner.client.patch(`/apis/${f.apiId}/signin`, { connected_apps: 'on' });
  assert.equal(patched.status, 200, patched.text);
  try {
    for (const origin of [f.issuer, CUSTOM]) {
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const response = await send(origin + path);
        assert.equal(response.status, 200, origin + path);
        const document = (await response.json()) as Record<string, unknown>;
        assert.equal(document.issuer, origin, `${origin}${path}: the issuer is the origin asked, no trailing slash`);
        const endpoints = Object.entries(document).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri');
        assert.ok(endpoints.some(([name]) => name === 'registration_endpoint'), 'apps people connect are on');
        for (const [name, value] of endpoints) assert.ok(String(value).startsWith(`${origin}/`), `${origin}${path} ${name}: ${value}`);
      }
    }
  } finally {
    await f.owner.client.patch(`/apis/${f.apiId}/signin`, { connected_apps: 'off' });
  }
});

test('openid-client at the custom domain: discovery, PAR with PKCE, the code exchange with ID token checks, userinfo, refresh, introspection', async () => {
  const config = await configAt(CUSTOM);
  assert.equal(config.serverMetadata().issuer, CUSTOM);
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, f.server.resource, ['openid', 'profile', 'email', 'offline_access', 'read:weather']);
  const tokens = await signIn(config, cookie);
  const claims = tokens.claims()!;
  assert.equal(claims.iss, CUSTOM, 'openid-client checked iss against the custom issuer; so do we');
  assert.equal(claims.sub, person.id);
  const userinfo = await client.fetchUserInfo(config, tokens.access_token, person.id);
  assert.equal(userinfo.email, person.email);
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  assert.equal(refreshed.claims()?.iss, CUSTOM);
  const introspection = await client.tokenIntrospection(config, refreshed.access_token);
  assert.equal(introspection.active, true);
  assert.equal(introspection.iss, CUSTOM);
});

test('tokens minted under one issuer are refused under the other, both ways: access tokens, refresh tokens and codes', async () => {
  const customConfig = await configAt(CUSTOM);
  const portalConfig = await configAt(f.issuer);
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, f.server.resource, ['openid', 'profile', 'email', 'offline_access', 'read:weather']);
  const atCustom = await signIn(customConfig, cookie);
  const atPortal = await signIn(portalConfig, cookie);
  assert.equal(atPortal.claims()?.iss, f.issuer);

  for (const [label, tokens, otherConfig, otherIssuer] of [
    ['custom → portal', atCustom, portalConfig, f.issuer],
    ['portal → custom', atPortal, customConfig, CUSTOM],
  ] as const) {
    // Userinfo: 401 with the access token of the other issuer.
    const userinfo = await send(`${otherIssuer}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    assert.equal(userinfo.status, 401, label);
    assert.match(userinfo.headers.get('www-authenticate') ?? '', /invalid_token/, label);
    // Introspection: inactive, for the access token and the refresh token alike.
    assert.equal((await client.tokenIntrospection(otherConfig, tokens.access_token)).active, false, label);
    assert.equal((await client.tokenIntrospection(otherConfig, tokens.refresh_token!)).active, false, label);
    // Refresh at the other issuer: refused, and the token is not spent by the try.
    await assert.rejects(client.refreshTokenGrant(otherConfig, tokens.refresh_token!), (error: client.ResponseBodyError) => error.error === 'invalid_grant', label);
    // Revocation at the other issuer changes nothing.
    await client.tokenRevocation(otherConfig, tokens.refresh_token!);
  }
  // Both refresh tokens still work where they were made.
  assert.equal((await client.refreshTokenGrant(customConfig, atCustom.refresh_token!)).claims()?.iss, CUSTOM);
  assert.equal((await client.refreshTokenGrant(portalConfig, atPortal.refresh_token!)).claims()?.iss, f.issuer);

  // A code from the portal host's authorize, taken to the custom domain's token endpoint: refused,
  // and still good at its own issuer.
  const pkce = pkcePair();
  const authorize = new URL(`${f.issuer}/oauth/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code', client_id: f.web.clientId, redirect_uri: f.web.redirectUri, scope: 'openid read:weather', resource: f.server.resource, state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256',
  }).toString();
  const callback = await browse(authorize, cookie);
  assert.equal(callback.searchParams.get('iss'), f.issuer);
  const code = callback.searchParams.get('code')!;
  const exchange = (issuer: string) =>
    send(`${issuer}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(f.web.clientId, f.web.secret) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: pkce.verifier }).toString(),
    });
  const refused = await exchange(CUSTOM);
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { error: string }).error, 'invalid_grant');
  assert.equal((await exchange(f.issuer)).status, 200);
});

test('the pages and the portal at the custom domain: a visitor signs up there and lands on the overview; the portal host still signs in', async () => {
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' });
  assert.equal(set.status, 200, set.text);
  const browser = new TenantBrowser(CUSTOM, (url, init) => send(url, init));
  const signin = expectPage(await browser.get('/'), /^Sign in$/);
  assert.match(signin.url, new RegExp(`^${CUSTOM}/interaction/`), 'the portal signs in through the custom issuer');
  const signup = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  const landed = await browser.follow(await signUpWithCode(f, browser, signup, freshEmail('custom'), 'Cora Custom'));
  assert.equal(landed.status, 200, landed.html.slice(0, 300));
  assert.equal(landed.url, `${CUSTOM}/`);
  assert.match(landed.html, /<h1>Cora Custom<\/h1>/);

  // The portal host still signs its visitors in, with its own issuer.
  const other = new TenantBrowser(f.issuer);
  const portalSignin = expectPage(await other.get('/'), /^Sign in$/);
  assert.ok(portalSignin.url.startsWith(`${f.issuer}/interaction/`));
  const redirects = await f.t.services.db.selectFrom('oauth_apps').select('redirect_uris').where('api_id', '=', f.apiId).where('origin', '=', 'portal').executeTakeFirstOrThrow();
  assert.deepEqual(redirects.redirect_uris.sort(), [`${CUSTOM}/auth/callback`, `${f.issuer}/auth/callback`].sort());
});

test('once the domain is removed, its host answers 404 at once, and the portal host goes on', async () => {
  const removed = await f.owner.client.delete(`/apis/${f.apiId}/domain`);
  assert.equal(removed.status, 200, removed.text);
  assert.equal((await send(`${CUSTOM}/.well-known/openid-configuration`)).status, 404);
  assert.equal((await send(`${CUSTOM}/`)).status, 404);
  assert.equal((await tenantFetch(`${f.issuer}/.well-known/openid-configuration`)).status, 200);
});
