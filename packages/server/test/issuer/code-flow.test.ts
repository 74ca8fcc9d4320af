// The authorization code flow over raw HTTP for a browser that is signed in and has consented:
// code exchange, refresh rotation, reuse detection, userinfo, introspection and revocation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeJwt, importJWK, jwtVerify } from 'jose';
import { authorize, basic, postForm, rememberConsent, signedInPerson, startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Code Flow API');
});
after(() => f.t.close());

async function codeFor(cookie: string, personId: string, extra: Record<string, string> = {}) {
  const { pkce, params } = webRequest(f, extra);
  await rememberConsent(f, personId, f.web.clientId, params.resource ?? null, params.scope!.split(' ').concat(['read:weather', 'write:weather']));
  const answer = await authorize(f, cookie, params);
  assert.equal(answer.get('error'), null, `authorize error ${answer.get('error')}: ${answer.get('error_description')}`);
  assert.equal(answer.get('iss'), f.issuer);
  assert.equal(answer.get('state'), params.state);
  return { code: answer.get('code')!, verifier: pkce.verifier, params };
}

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  postForm(f, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier, ...extra }, { authorization: basic(f.web.clientId, f.web.secret) });

test('a signed-in person with consent gets a code at once; the code buys tokens whose claims follow spec 4.3', async () => {
  const { person, session, cookie } = await signedInPerson(f);
  const { code, verifier, params } = await codeFor(cookie, person.id, { scope: 'openid profile email offline_access read:weather write:weather', resource: f.server.resource });
  const tokens = await exchange(code, verifier);
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal(tokens.headers.get('cache-control'), 'no-store');
  assert.equal(tokens.body.token_type, 'Bearer');
  assert.equal(tokens.body.expires_in, 3600);
  // write:weather is not held by the reader role: left out without error.
  assert.equal(tokens.body.scope, 'openid profile email offline_access read:weather');
  assert.match(tokens.body.refresh_token, /^ghr_/);

  const keys = await (await tenantFetch(f.issuer + '/oauth/jwks')).json() as { keys: { kid: string }[] };
  const access = decodeJwt(tokens.body.access_token);
  const header = JSON.parse(Buffer.from(tokens.body.access_token.split('.')[0], 'base64url').toString());
  assert.equal(header.typ, 'at+jwt');
  assert.equal(header.alg, 'RS256');
  const key = await importJWK(keys.keys.find((k) => k.kid === header.kid)! as never, 'RS256');
  const verified = await jwtVerify(tokens.body.access_token, key, { issuer: f.issuer, audience: f.server.resource, typ: 'at+jwt', algorithms: ['RS256'] });
  assert.deepEqual(Object.keys(verified.payload).sort(), ['aud', 'auth_time', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sid', 'sub'].sort());
  assert.deepEqual(access.aud, [f.server.resource, f.issuer]);
  assert.equal(access.sub, person.id);
  assert.equal(access.sid, session.id);
  assert.equal(access.client_id, f.web.clientId);

  const id = await jwtVerify(tokens.body.id_token, key, { issuer: f.issuer, audience: f.web.clientId });
  assert.equal(id.payload.nonce, params.nonce);
  assert.equal(id.payload.sid, session.id);
  assert.deepEqual(id.payload.amr, ['pwd']);
  assert.equal(typeof id.payload.at_hash, 'string');
  assert.equal(id.payload.email, person.email);
  assert.equal(id.payload.name, person.name);

  const userinfo = await tenantFetch(f.issuer + '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
  assert.equal(userinfo.status, 200);
  const claims = (await userinfo.json()) as Record<string, unknown>;
  assert.equal(claims.sub, person.id);
  assert.equal(claims.email, person.email);

  const introspected = await postForm(f, '/oauth/introspect', { token: tokens.body.access_token }, { authorization: basic(f.server.clientId, f.server.secret), accept: 'application/json' });
  assert.equal(introspected.status, 200, introspected.text);
  assert.equal(introspected.headers.get('cache-control'), 'max-age=30');
  assert.deepEqual(Object.keys(introspected.body), ['active', 'token_use', 'client_id', 'sub', 'scope', 'aud', 'iss', 'iat', 'exp']);
  assert.equal(introspected.body.active, true);
  assert.equal(introspected.body.token_use, 'access_token');

  // Refresh: a new refresh token every time; the old one, presented again, ends the chain.
  const refreshed = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { authorization: basic(f.web.clientId, f.web.secret) });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.notEqual(refreshed.body.refresh_token, tokens.body.refresh_token);
  const reused = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { authorization: basic(f.web.clientId, f.web.secret) });
  assert.equal(reused.status, 400);
  assert.equal(reused.body.error, 'invalid_grant');
  const afterReuse = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, { authorization: basic(f.web.clientId, f.web.secret) });
  assert.equal(afterReuse.body.error, 'invalid_grant', 'the whole chain ended');
  const inactive = await postForm(f, '/oauth/introspect', { token: refreshed.body.access_token }, { authorization: basic(f.server.clientId, f.server.secret) });
  assert.deepEqual(inactive.body, { active: false });
});

test('a code works once: the replay is invalid_grant and revokes the tokens it issued', async () => {
  const { person, cookie } = await signedInPerson(f);
  const { code, verifier } = await codeFor(cookie, person.id);
  const first = await exchange(code, verifier);
  assert.equal(first.status, 200, first.text);
  const again = await exchange(code, verifier);
  assert.equal(again.status, 400);
  assert.equal(again.body.error, 'invalid_grant');
  const userinfo = await tenantFetch(f.issuer + '/oauth/userinfo', { headers: { authorization: `Bearer ${first.body.access_token}` } });
  assert.equal(userinfo.status, 401);
  assert.match(userinfo.headers.get('www-authenticate')!, /error="invalid_token"/);
});

test('ending the session makes its access tokens inactive; an offline grant refreshes into new active ones', async () => {
  const { person, session, cookie } = await signedInPerson(f);
  void cookie;
  const { code, verifier } = await codeFor(cookie, person.id, { scope: 'openid offline_access read:weather', resource: f.server.resource });
  const tokens = await exchange(code, verifier);
  assert.equal(tokens.status, 200, tokens.text);
  const introspect = (token: string) => postForm(f, '/oauth/introspect', { token }, { authorization: basic(f.server.clientId, f.server.secret) });
  assert.equal((await introspect(tokens.body.access_token)).body.active, true);
  await f.t.services.personSessions.end(f.apiId, session.id);
  assert.deepEqual((await introspect(tokens.body.access_token)).body, { active: false });
  // A token minted in a later second than the session's end.
  f.t.clock.advance(2000);
  const refreshed = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { authorization: basic(f.web.clientId, f.web.secret) });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.equal((await introspect(refreshed.body.access_token)).body.active, true);
});

test("another client presenting a code or refresh token neither spends it nor revokes the grant", async () => {
  const { person, cookie } = await signedInPerson(f);
  const { code, verifier } = await codeFor(cookie, person.id, { scope: 'openid offline_access' });
  const stolen = await postForm(f, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier, client_id: f.spa.clientId });
  assert.equal(stolen.status, 400);
  assert.equal(stolen.body.error, 'invalid_grant');
  const tokens = await exchange(code, verifier);
  assert.equal(tokens.status, 200, 'the app it was issued to still exchanges it');
  await f.t.services.db.updateTable('oauth_apps').set({ refresh_tokens: true }).where('id', '=', f.spa.clientId).execute();
  await notifyChange(f.t.services.db, [changed.client(f.apiId, f.spa.clientId)]);
  const stolenRefresh = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: f.spa.clientId });
  assert.equal(stolenRefresh.body.error, 'invalid_grant');
  await f.t.services.db.updateTable('oauth_apps').set({ refresh_tokens: false }).where('id', '=', f.spa.clientId).execute();
  await notifyChange(f.t.services.db, [changed.client(f.apiId, f.spa.clientId)]);
  const refreshed = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { authorization: basic(f.web.clientId, f.web.secret) });
  assert.equal(refreshed.status, 200, refreshed.text);
});

test('a suspended API answers temporarily_unavailable at the token endpoint, and works again once resumed', async () => {
  const { person, cookie } = await signedInPerson(f);
  const { code, verifier } = await codeFor(cookie, person.id);
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/suspend`, {})).status, 200);
  const refused = await exchange(code, verifier);
  assert.equal(refused.status, 503);
  assert.equal(refused.body.error, 'temporarily_unavailable');
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/resume`)).status, 200);
  assert.equal((await exchange(code, verifier)).status, 200, 'the refused request spent nothing');
});

test("form_post to a native app's private-use scheme: the page's CSP allows that scheme as a form action", async () => {
  const created = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Weather Phone', kind: 'native', redirect_uris: ['com.example.weather:/callback'] });
  assert.equal(created.status, 200, created.text);
  const { params } = webRequest(f, { client_id: created.body.id, redirect_uri: 'com.example.weather:/callback', response_mode: 'form_post' });
  delete params.scope;
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const page = await tenantFetch(url);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /name="error" value="invalid_request"/);
  assert.match(page.headers.get('content-security-policy')!, /form-action 'self' com\.example\.weather:;/);
});
