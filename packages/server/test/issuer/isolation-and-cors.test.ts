// Two APIs on one app: tokens, credentials and keys of one never work at the other, even for a
// server with the same resource URL; and which endpoints answer cross-origin requests (spec 4.1).
// The introspection limits of spec 8 are in introspection-limits.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { authorizeRaw, introspect, webAuth, webTokens } from '../support/issuer-flows.js';
import { basic, postForm, signedInPerson, startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';
import { createApi } from '../support/money.js';

let f: IssuerFixture;
/** API B of the same owner, with a server at the very same resource URL as A's and a web app. */
let b: { issuer: string; server: { clientId: string; secret: string }; web: { clientId: string; secret: string } };
before(async () => {
  f = await startIssuer('Isolation API A');
  const api = await createApi(f.t, { name: 'Isolation API B' }, f.owner);
  const server = await f.owner.client.post(`/apis/${api.apiId}/signin/servers`, { name: 'B server', resource_url: f.server.resource, permissions: [{ name: 'read:weather', description: 'Read' }] });
  assert.equal(server.status, 200, server.text);
  const web = await f.owner.client.post(`/apis/${api.apiId}/signin/apps`, { name: 'B web', kind: 'web', redirect_uris: [f.web.redirectUri], refresh_tokens: true });
  assert.equal(web.status, 200, web.text);
  b = {
    issuer: `http://${api.slug}.localhost:${f.t.port}`,
    server: { clientId: server.body.client_id, secret: server.body.client_secret },
    web: { clientId: web.body.id, secret: web.body.client_secret },
  };
});
after(() => f.t.close());

const atB = (path: string, fields: Record<string, string>, headers: Record<string, string>) => postForm({ ...f, issuer: b.issuer }, path, fields, headers);
const jwksOf = async (issuer: string) => (await (await tenantFetch(issuer + '/oauth/jwks')).json()) as JSONWebKeySet;

test("API A's tokens are inactive at API B's introspection, even to B's server at the same resource URL, and A's credentials mean nothing at B", async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal((await introspect(f, tokens.access_token)).body.active, true, 'active at A');
  const atBServer = await atB('/oauth/introspect', { token: tokens.access_token }, { authorization: basic(b.server.clientId, b.server.secret) });
  assert.equal(atBServer.status, 200, atBServer.text);
  assert.equal(atBServer.text, '{"active":false}');
  assert.equal((await atB('/oauth/introspect', { token: tokens.access_token }, { authorization: basic(b.web.clientId, b.web.secret) })).text, '{"active":false}');
  assert.equal((await atB('/oauth/introspect', { token: tokens.refresh_token! }, { authorization: basic(b.web.clientId, b.web.secret) })).text, '{"active":false}');

  assert.equal((await atB('/oauth/introspect', { token: tokens.access_token }, { authorization: basic(f.server.clientId, f.server.secret) })).status, 401, "A's server is unknown at B");
  const refreshAtB = await atB('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, webAuth(f));
  assert.equal(refreshAtB.status, 401, "A's app is unknown at B");
  const refreshAsB = await atB('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, { authorization: basic(b.web.clientId, b.web.secret) });
  assert.equal(refreshAsB.body.error, 'invalid_grant', "A's refresh token is unknown at B");
  const userinfoAtB = await tenantFetch(b.issuer + '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(userinfoAtB.status, 401);
  const authorizeAtB = await authorizeRaw({ ...f, issuer: b.issuer }, webRequest(f).params, cookie);
  assert.equal(authorizeAtB.status, 400, "A's client_id is unknown at B: an error page");
  assert.equal(authorizeAtB.location, null);
  assert.equal((await postForm(f, '/oauth/revoke', { token: tokens.refresh_token! }, { authorization: basic(b.web.clientId, b.web.secret) })).status, 401);
});

test("API A's access token verifies against A's JWKS and not against B's", async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  const options = { issuer: f.issuer, audience: f.server.resource, typ: 'at+jwt', currentDate: f.t.clock.now() };
  await jwtVerify(tokens.access_token, createLocalJWKSet(await jwksOf(f.issuer)), options);
  const bKeys = await jwksOf(b.issuer);
  assert.ok(bKeys.keys.length >= 1);
  assert.ok(!bKeys.keys.some((key) => key.kid === decodeProtectedHeader(tokens.access_token).kid), 'kids differ');
  await assert.rejects(jwtVerify(tokens.access_token, createLocalJWKSet(bKeys), options));
  // Even with A's kid forced onto B's key, the signature does not verify.
  const forged = { keys: bKeys.keys.map((key) => ({ ...key, kid: decodeProtectedHeader(tokens.access_token).kid })) };
  await assert.rejects(jwtVerify(tokens.access_token, createLocalJWKSet(forged), options), (error: Error) => /signature/i.test(error.message));
});

test('CORS: discovery, JWKS, token, userinfo and revocation answer any origin without credentials (preflight 204); introspection and authorize do not', async () => {
  const origin = { origin: 'https://spa.example' };
  const assertOpen = (response: Response, what: string) => {
    assert.equal(response.headers.get('access-control-allow-origin'), '*', what);
    assert.equal(response.headers.get('access-control-allow-credentials'), null, `${what}: never with credentials`);
  };
  const assertClosed = (response: Response, what: string) => {
    assert.equal(response.headers.get('access-control-allow-origin'), null, what);
    assert.equal(response.headers.get('access-control-allow-credentials'), null, what);
  };
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/oauth/jwks', '/oauth/userinfo']) {
    assertOpen(await tenantFetch(f.issuer + path, { headers: origin }), `GET ${path}`);
  }
  const form = { ...origin, 'content-type': 'application/x-www-form-urlencoded' };
  assertOpen(await tenantFetch(f.issuer + '/oauth/token', { method: 'POST', headers: form, body: `grant_type=authorization_code&client_id=${f.spa.clientId}&code=x` }), 'POST /oauth/token');
  assertOpen(await tenantFetch(f.issuer + '/oauth/revoke', { method: 'POST', headers: form, body: `token=x&client_id=${f.spa.clientId}` }), 'POST /oauth/revoke');
  for (const path of ['/.well-known/openid-configuration', '/oauth/jwks', '/oauth/token', '/oauth/userinfo', '/oauth/revoke']) {
    const preflight = await tenantFetch(f.issuer + path, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    assert.equal(preflight.status, 204, `OPTIONS ${path}`);
    assertOpen(preflight, `OPTIONS ${path}`);
    assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /Authorization/i);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /Content-Type/i);
  }

  const introspected = await tenantFetch(f.issuer + '/oauth/introspect', { method: 'POST', headers: { ...form, authorization: basic(f.server.clientId, f.server.secret) }, body: 'token=x' });
  assert.equal(introspected.status, 200);
  assertClosed(introspected, 'POST /oauth/introspect');
  const introspectPreflight = await tenantFetch(f.issuer + '/oauth/introspect', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } });
  assert.notEqual(introspectPreflight.status, 204);
  assertClosed(introspectPreflight, 'OPTIONS /oauth/introspect');
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(webRequest(f).params)) url.searchParams.set(name, value);
  assertClosed(await tenantFetch(url, { headers: origin }), 'GET /oauth/authorize');
  assertClosed(await tenantFetch(f.issuer + '/oauth/authorize', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'GET' } }), 'OPTIONS /oauth/authorize');
});
