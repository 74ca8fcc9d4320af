// Spec 4.3 and 7 at /oauth/introspect, /oauth/revoke and /oauth/userinfo: who may ask, what an
// inactive answer looks like (exactly {"active": false}), whose tokens an app may see or revoke.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { introspect, refresh, serverAuth, webAuth, webTokens } from '../support/issuer-flows.js';
import { basic, postForm, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let web2: { clientId: string; secret: string };
let tides: { clientId: string; secret: string };
before(async () => {
  f = await startIssuer('Introspection API');
  const app = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Other Web', kind: 'web', redirect_uris: ['https://other.example/cb'], refresh_tokens: true });
  assert.equal(app.status, 200, app.text);
  web2 = { clientId: app.body.id, secret: app.body.client_secret };
  const server = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Tides', resource_url: 'https://api.tides.example/', permissions: [{ name: 'read:tides', description: 'Read tides' }] });
  assert.equal(server.status, 200, server.text);
  tides = { clientId: server.body.client_id, secret: server.body.client_secret };
});
after(() => f.t.close());

const INACTIVE = { active: false };
const asWeb2 = () => ({ authorization: basic(web2.clientId, web2.secret) });

function assertInactive(answer: Awaited<ReturnType<typeof introspect>>, what: string) {
  assert.equal(answer.status, 200, `${what}: ${answer.text}`);
  assert.equal(answer.text, '{"active":false}', `${what}: exactly {"active": false}`);
  assert.equal(answer.headers.get('cache-control'), 'max-age=30');
}

test('introspection: 401 invalid_client for wrong, missing or public credentials; 400 invalid_request without a token', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  const refused = [
    ['wrong server secret (Basic)', { authorization: basic(f.server.clientId, 'wrong') }],
    ['unknown server', { authorization: basic('rs_unknown', f.server.secret) }],
    ['no credentials', {}],
    ['a single-page app by client_id', { form: { client_id: f.spa.clientId } }],
    ['a single-page app with a made-up secret', { authorization: basic(f.spa.clientId, 'anything') }],
    ['a web app with a wrong secret', { form: { client_id: f.web.clientId, client_secret: 'wrong' } }],
    ['a server by client_id alone', { form: { client_id: f.server.clientId } }],
  ] as const;
  for (const [what, how] of refused) {
    const headers: Record<string, string> = 'authorization' in how ? { authorization: how.authorization } : {};
    const answer = await postForm(f, '/oauth/introspect', { token: tokens.access_token, ...('form' in how ? how.form : {}) }, headers);
    assert.equal(answer.status, 401, what);
    assert.equal(answer.body.error, 'invalid_client', what);
    if ('authorization' in how) assert.match(answer.headers.get('www-authenticate') ?? '', /^Basic/, `${what}: challenge`);
  }
  const noToken = await postForm(f, '/oauth/introspect', {}, serverAuth(f));
  assert.equal(noToken.status, 400);
  assert.equal(noToken.body.error, 'invalid_request');
  // The same token with good credentials, by Basic or in the form, is active.
  assert.equal((await introspect(f, tokens.access_token)).body.active, true);
  const posted = await postForm(f, '/oauth/introspect', { token: tokens.access_token, client_id: f.server.clientId, client_secret: f.server.secret });
  assert.equal(posted.body.active, true);
});

test('introspection answers exactly {"active": false} for garbage, another server, a refresh token asked by a server, a revoked grant, an ended session, a suspended person', async () => {
  const { person, cookie, session } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  const active = await introspect(f, tokens.access_token);
  assert.equal(active.status, 200);
  assert.equal(active.headers.get('cache-control'), 'max-age=30');
  assert.deepEqual(Object.keys(active.body), ['active', 'token_use', 'client_id', 'sub', 'scope', 'aud', 'iss', 'iat', 'exp']);
  assert.deepEqual(active.body.aud, [f.server.resource, f.issuer]);
  assert.equal(active.body.exp - active.body.iat, 3600);

  assertInactive(await introspect(f, 'garbage'), 'garbage');
  assertInactive(await introspect(f, 'a.b.c'), 'three dotted parts');
  assertInactive(await introspect(f, tokens.access_token.slice(0, -4) + 'AAAA'), 'bad signature');
  assertInactive(await introspect(f, tokens.access_token, { authorization: basic(tides.clientId, tides.secret) }), 'another server');
  assertInactive(await introspect(f, tokens.refresh_token!), 'a refresh token asked by a server');
  assertInactive(await introspect(f, tokens.id_token!), 'an ID token');

  const revoked = await webTokens(f, cookie, person.id);
  assert.equal((await postForm(f, '/oauth/revoke', { token: revoked.refresh_token! }, webAuth(f))).status, 200);
  assertInactive(await introspect(f, revoked.access_token), 'revoked grant');

  // Spec 3: tokens alive when their session ends turn inactive, offline or not; tokens an offline
  // grant mints by refresh afterwards are good.
  const online = await webTokens(f, cookie, person.id, { scope: 'openid read:weather' });
  const offline = await webTokens(f, cookie, person.id);
  f.t.clock.advance(1000);
  await f.t.services.personSessions.end(f.apiId, session.id);
  assertInactive(await introspect(f, online.access_token), 'session ended');
  assertInactive(await introspect(f, offline.access_token), 'session ended, offline grant');
  f.t.clock.advance(1000);
  const later = await refresh(f, offline.refresh_token!);
  assert.equal(later.status, 200, later.text);
  assert.equal((await introspect(f, later.body.access_token)).body.active, true, 'refreshed after the session ended');

  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'suspended' })).status, 200);
  assertInactive(await introspect(f, later.body.access_token), 'suspended person');
  assertInactive(await introspect(f, later.body.refresh_token, webAuth(f)), 'suspended person, refresh token');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'active' })).status, 200);
  assert.equal((await introspect(f, later.body.access_token)).body.active, true, 'active again once the suspension is lifted');
});

test("a web app sees its own tokens (a refresh token as token_use refresh_token, without aud) and never another app's", async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  const ownRefresh = await introspect(f, tokens.refresh_token!, webAuth(f));
  assert.equal(ownRefresh.headers.get('cache-control'), 'max-age=30');
  assert.deepEqual(Object.keys(ownRefresh.body), ['active', 'token_use', 'client_id', 'sub', 'scope', 'iss', 'iat', 'exp']);
  assert.equal(ownRefresh.body.token_use, 'refresh_token');
  assert.equal(ownRefresh.body.client_id, f.web.clientId);
  assert.equal(ownRefresh.body.sub, person.id);
  assert.equal(ownRefresh.body.scope, 'openid profile offline_access read:weather');
  const ownAccess = await introspect(f, tokens.access_token, webAuth(f));
  assert.equal(ownAccess.body.active, true);
  assert.equal(ownAccess.body.token_use, 'access_token');

  assertInactive(await introspect(f, tokens.refresh_token!, asWeb2()), "another app's refresh token");
  assertInactive(await introspect(f, tokens.access_token, asWeb2()), "another app's access token");
  // A used refresh token is no longer active, even to its own app.
  const rotated = await refresh(f, tokens.refresh_token!);
  assertInactive(await introspect(f, tokens.refresh_token!, webAuth(f)), 'a used refresh token');
  assert.equal((await introspect(f, rotated.body.refresh_token, webAuth(f))).body.active, true);
});

test('revocation: always 200; only the app that holds a refresh token ends its chain; an access token changes nothing', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  for (const token of ['unknown', 'ghr_' + 'x'.repeat(43), 'a.b.c']) {
    const answer = await postForm(f, '/oauth/revoke', { token, token_type_hint: 'refresh_token' }, webAuth(f));
    assert.equal(answer.status, 200, token);
    assert.equal(answer.text, '');
  }
  const wrongSecret = await postForm(f, '/oauth/revoke', { token: tokens.refresh_token! }, { authorization: basic(f.web.clientId, 'wrong') });
  assert.equal(wrongSecret.status, 401);
  assert.equal(wrongSecret.body.error, 'invalid_client');

  assert.equal((await postForm(f, '/oauth/revoke', { token: tokens.refresh_token! }, asWeb2())).status, 200);
  assert.equal((await postForm(f, '/oauth/revoke', { token: tokens.access_token, token_type_hint: 'access_token' }, webAuth(f))).status, 200);
  assert.equal((await introspect(f, tokens.access_token)).body.active, true, 'an access token cannot be revoked');
  const rotated = await refresh(f, tokens.refresh_token!);
  assert.equal(rotated.status, 200, "another app's revocation changed nothing");

  const revoked = await postForm(f, '/oauth/revoke', { token: rotated.body.refresh_token, token_type_hint: 'access_token' }, webAuth(f));
  assert.equal(revoked.status, 200);
  assert.equal((await postForm(f, '/oauth/revoke', { token: rotated.body.refresh_token }, webAuth(f))).status, 200, 'again: still 200');
  assert.equal((await refresh(f, rotated.body.refresh_token)).body.error, 'invalid_grant');
  assertInactive(await introspect(f, rotated.body.access_token), 'an access token of the ended chain');
  assertInactive(await introspect(f, tokens.access_token), 'the first access token of the chain');
});

test('userinfo: 401 without a token or with a bad one, 403 insufficient_scope without openid, with WWW-Authenticate', async () => {
  const get = (authorization?: string) => tenantFetch(f.issuer + '/oauth/userinfo', { headers: authorization ? { authorization } : {} });
  const none = await get();
  assert.equal(none.status, 401);
  // RFC 6750 3.1: a request without credentials gets the challenge without an error code.
  assert.match(none.headers.get('www-authenticate')!, /^Bearer/);

  for (const bad of ['Bearer garbage', 'Bearer a.b.c', 'Basic abc', 'Bearer']) {
    const answer = await get(bad);
    assert.equal(answer.status, 401, bad);
    assert.match(answer.headers.get('www-authenticate')!, /^Bearer/, bad);
    if (bad.startsWith('Bearer ')) assert.match(answer.headers.get('www-authenticate')!, /error="invalid_token"/, bad);
  }
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  const refreshToken = await get(`Bearer ${tokens.refresh_token}`);
  assert.equal(refreshToken.status, 401);
  assert.match(refreshToken.headers.get('www-authenticate')!, /error="invalid_token"/);

  // A token for the issuer (no resource) without openid: the right audience, the wrong scope.
  const profileOnly = await webTokens(f, cookie, person.id, { scope: 'profile', resource: '' });
  const insufficient = await get(`Bearer ${profileOnly.access_token}`);
  assert.equal(insufficient.status, 403);
  assert.match(insufficient.headers.get('www-authenticate')!, /^Bearer error="insufficient_scope"/);
  assert.equal(((await insufficient.json()) as { error: string }).error, 'insufficient_scope');
  // A token for a server only (no openid, so its audience lacks the issuer) is not for userinfo.
  const serverOnly = await webTokens(f, cookie, person.id, { scope: 'read:weather' });
  const elsewhere = await get(`Bearer ${serverOnly.access_token}`);
  assert.equal(elsewhere.status, 401);
  assert.match(elsewhere.headers.get('www-authenticate')!, /error="invalid_token"/);

  const ok = await get(`Bearer ${tokens.access_token}`);
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as { sub: string }).sub, person.id);
});
