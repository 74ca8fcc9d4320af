// Spec 4.1: the discovery document at both well-known paths, field by field; its scopes; its
// caching; hosts that serve no sign-in service; the JWKS and what it must never hold.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Discovery API');
});
after(() => f.t.close());

const get = (url: string) => tenantFetch(url);

test('both well-known paths give the same document, exactly the fields and values of spec 4.1, cached publicly for an hour', async () => {
  const openid = await get(f.issuer + '/.well-known/openid-configuration');
  const oauth = await get(f.issuer + '/.well-known/oauth-authorization-server');
  for (const response of [openid, oauth]) {
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=3600');
    assert.match(response.headers.get('content-type')!, /^application\/json/);
  }
  const doc = (await openid.json()) as Record<string, unknown>;
  assert.deepEqual(await oauth.json(), doc);
  const issuer = f.issuer;
  assert.match(issuer, /^http:\/\/discovery-api[a-z0-9-]*\.localhost:\d+$/, 'the tenant host, no trailing slash');
  assert.deepEqual(doc, {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/jwks`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    scopes_supported: ['openid', 'profile', 'email', 'offline_access', 'roles', 'read:weather', 'write:weather'],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'form_post'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    prompt_values_supported: ['none', 'login', 'consent', 'create'],
    authorization_response_iss_parameter_supported: true,
    // What we add: the other endpoints' auth methods, the claims, and how requests may be sent.
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'amr', 'sid', 'at_hash', 'name', 'picture', 'updated_at', 'email', 'email_verified', 'roles', 'permissions'],
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    require_pushed_authorization_requests: false,
  });
  // Apps people connect are off by default: no registration endpoint, no metadata documents.
  assert.equal('registration_endpoint' in doc, false);
  assert.equal('client_id_metadata_document_supported' in doc, false);
});

test("scopes_supported: the standard scopes, then every permission of the owner's servers once, never platform:api_keys", async () => {
  const reserved = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Sneaky', resource_url: 'https://sneaky.example/', permissions: [{ name: 'platform:api_keys', description: 'x' }] });
  assert.equal(reserved.status, 422, 'the reserved scope cannot be a permission');
  const tides = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, {
    name: 'Tides', resource_url: 'https://api.tides.example/', permissions: [{ name: 'read:tides', description: 'Read tides' }, { name: 'read:weather', description: 'Also weather' }],
  });
  assert.equal(tides.status, 200, tides.text);
  const doc = (await (await get(f.issuer + '/.well-known/openid-configuration')).json()) as { scopes_supported: string[] };
  assert.deepEqual(doc.scopes_supported, ['openid', 'profile', 'email', 'offline_access', 'roles', 'read:tides', 'read:weather', 'write:weather']);
  assert.ok(!doc.scopes_supported.includes('platform:api_keys'));
  assert.ok(!doc.scopes_supported.includes('phone') && !doc.scopes_supported.includes('address'), 'unsupported standard scopes are not listed');
  // A permission that leaves its server leaves discovery too.
  const removed = await f.owner.client.delete(`/apis/${f.apiId}/signin/servers/${tides.body.id}`);
  assert.equal(removed.status, 204, removed.text);
  const after = (await (await get(f.issuer + '/.well-known/oauth-authorization-server')).json()) as { scopes_supported: string[] };
  assert.deepEqual(after.scopes_supported, ['openid', 'profile', 'email', 'offline_access', 'roles', 'read:weather', 'write:weather']);
});

test('an unknown slug answers 404 on every issuer path, and the console host serves no discovery or JWKS', async () => {
  const unknown = `http://no-such-api-here.localhost:${f.t.port}`;
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/oauth/jwks', '/oauth/authorize', '/oauth/userinfo']) {
    const response = await get(unknown + path);
    assert.equal(response.status, 404, `unknown slug ${path}`);
    assert.doesNotMatch(await response.text(), /issuer|keys/);
  }
  const token = await tenantFetch(unknown + '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=refresh_token' });
  assert.equal(token.status, 404);
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/oauth/jwks']) {
    const response = await fetch(f.t.url + path);
    assert.equal(response.status, 404, `console host ${path}`);
  }
  // The console host still serves its own API, so the 404 above is about the host.
  assert.equal((await fetch(f.t.url + '/healthz')).status, 200);
});

test('an unknown host: a browser gets a styled page saying no API lives there; a protocol path gets OAuth JSON; a known host its portal', async () => {
  const host = `no-such-api-here.localhost:${f.t.port}`;
  const page = await get(`http://${host}/`);
  assert.equal(page.status, 404);
  assert.match(page.headers.get('content-type')!, /^text\/html/);
  assert.equal(page.headers.get('cache-control'), 'no-store');
  assert.match(page.headers.get('content-security-policy')!, /default-src 'none'/, 'the pages\' strict CSP');
  const html = await page.text();
  assert.match(html, /<h1>No API lives here<\/h1>/);
  assert.ok(html.includes(`No API is served at <code>${host}</code>`), html);
  assert.ok(html.includes(`the console at <a href="${f.t.url}">`), 'the console address, for whoever runs this Gatehouse');
  assert.match(html, /<style/, 'styled like the portal');

  const protocol = await get(`http://${host}/.well-known/openid-configuration`);
  assert.equal(protocol.status, 404);
  assert.deepEqual(await protocol.json(), { error: 'invalid_request', error_description: `No API lives at ${host}` });

  // The API's own host is not that page.
  const known = await get(`${f.issuer}/`);
  assert.notEqual(known.status, 404);
  assert.doesNotMatch(await known.text(), /No API lives here/);
});

test('JWKS: RSA signing keys for RS256 with a kid (their RFC 7638 thumbprint) and no private parts', async () => {
  const response = await get(f.issuer + '/oauth/jwks');
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type')!, /^application\/jwk-set\+json/);
  assert.match(response.headers.get('cache-control')!, /^public, max-age=\d+$/);
  const text = await response.text();
  const { keys } = JSON.parse(text) as { keys: JWK[] };
  assert.deepEqual(Object.keys(JSON.parse(text)), ['keys']);
  assert.equal(keys.length, 1);
  for (const key of keys) {
    assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    assert.equal(key.kty, 'RSA');
    assert.equal(key.alg, 'RS256');
    assert.equal(key.use, 'sig');
    assert.equal(key.kid, await calculateJwkThumbprint(key));
    assert.ok(Buffer.from(key.n!, 'base64url').length >= 256, 'at least 2048 bits');
  }
  for (const secret of ['"d"', '"p"', '"q"', '"dp"', '"dq"', '"qi"', '"oth"', '"k"', 'PRIVATE']) assert.ok(!text.includes(secret), `no ${secret}`);

  // After a rotation both keys are published, still public parts only.
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/signin/signing-keys/rotate`)).status, 200);
  const rotated = (await (await get(f.issuer + '/oauth/jwks')).json()) as { keys: JWK[] };
  assert.equal(rotated.keys.length, 2);
  assert.equal(new Set(rotated.keys.map((key) => key.kid)).size, 2);
  for (const key of rotated.keys) assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
});
