// Spec 4.3 and 7 at POST /oauth/token: invalid_client, invalid_request, unsupported_grant_type,
// invalid_grant, invalid_target, unauthorized_client and invalid_scope, each beside the request
// that differs in only that respect and works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exchangeCode, refresh, webAuth, webCode, webTokens } from '../support/issuer-flows.js';
import { authorize, basic, pkcePair, postForm, rememberConsent, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

let f: IssuerFixture;
let person: Awaited<ReturnType<typeof signedInPerson>>;
before(async () => {
  f = await startIssuer('Token Errors API');
  person = await signedInPerson(f);
});
after(() => f.t.close());

const TIDES = 'https://api.tides.example/';

function assertOAuthError(answer: { status: number; body: any; text: string; headers: Headers }, status: number, error: string) {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.body.error, error, answer.text);
  assert.equal(typeof answer.body.error_description, 'string');
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.match(answer.headers.get('content-type')!, /^application\/json/);
}

async function spaCode() {
  const pkce = pkcePair();
  await rememberConsent(f, person.person.id, f.spa.clientId, null, ['openid']);
  const answer = await authorize(f, person.cookie, {
    response_type: 'code', client_id: f.spa.clientId, redirect_uri: f.spa.redirectUri, scope: 'openid', state: 'spa', code_challenge: pkce.challenge, code_challenge_method: 'S256',
  });
  return { code: answer.get('code')!, verifier: pkce.verifier };
}

const codeFields = (code: string, verifier: string, redirectUri = f.web.redirectUri) => ({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });

test('invalid_client (401): wrong secret, unknown client, no authentication, a web app without its secret, a single-page app sending a secret', async () => {
  const { code, verifier } = await webCode(f, person.cookie, person.person.id);
  const fields = codeFields(code, verifier);
  const basicWrong = await postForm(f, '/oauth/token', fields, { authorization: basic(f.web.clientId, 'wrong-secret') });
  assertOAuthError(basicWrong, 401, 'invalid_client');
  assert.match(basicWrong.headers.get('www-authenticate')!, /^Basic/, 'RFC 6749 5.2: Basic attempt answered with a challenge');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_id: f.web.clientId, client_secret: 'wrong-secret' }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_id: 'app_unknown', client_secret: 'whatever' }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_id: 'app_unknown' }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', fields, { authorization: basic('app_unknown', 'x') }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', fields), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_id: f.web.clientId }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', fields, { authorization: `Bearer ${f.web.secret}` }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_id: f.server.clientId, client_secret: f.server.secret }), 401, 'invalid_client');
  // None of those used the code: with the right secret, in the form this time, it still works.
  const ok = await postForm(f, '/oauth/token', { ...fields, client_id: f.web.clientId, client_secret: f.web.secret });
  assert.equal(ok.status, 200, ok.text);

  const spa = await spaCode();
  const spaFields = codeFields(spa.code, spa.verifier, f.spa.redirectUri);
  assertOAuthError(await postForm(f, '/oauth/token', { ...spaFields, client_id: f.spa.clientId, client_secret: 'anything' }), 401, 'invalid_client');
  assertOAuthError(await postForm(f, '/oauth/token', spaFields, { authorization: basic(f.spa.clientId, 'anything') }), 401, 'invalid_client');
  const spaOk = await postForm(f, '/oauth/token', { ...spaFields, client_id: f.spa.clientId });
  assert.equal(spaOk.status, 200, spaOk.text);
  assert.equal(spaOk.headers.get('access-control-allow-origin'), '*');
});

test('invalid_request: a missing grant_type, code, code_verifier or redirect_uri, a repeated parameter, a JSON body, Basic plus client_secret', async () => {
  const { code, verifier } = await webCode(f, person.cookie, person.person.id);
  const fields = codeFields(code, verifier);
  for (const name of ['grant_type', 'code', 'code_verifier', 'redirect_uri'] as const) {
    const { [name]: _, ...rest } = fields;
    assertOAuthError(await postForm(f, '/oauth/token', rest, webAuth(f)), 400, 'invalid_request');
  }
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, code: [code, code] }, webAuth(f)), 400, 'invalid_request');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, grant_type: ['authorization_code', 'authorization_code'] }, webAuth(f)), 400, 'invalid_request');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_secret: f.web.secret }, webAuth(f)), 400, 'invalid_request');
  assertOAuthError(await postForm(f, '/oauth/token', { ...fields, client_id: f.spa.clientId }, webAuth(f)), 400, 'invalid_request');
  const json = await tenantFetch(f.issuer + '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json', ...webAuth(f) }, body: JSON.stringify(fields) });
  assert.equal(json.status, 400);
  assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
  // Nothing above spent the code.
  const ok = await exchangeCode(f, code, verifier);
  assert.equal(ok.status, 200, ok.text);
});

test('unsupported_grant_type for client_credentials, password and anything else', async () => {
  for (const grant of ['client_credentials', 'password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code']) {
    assertOAuthError(await postForm(f, '/oauth/token', { grant_type: grant, username: 'a', password: 'b', scope: 'openid' }, webAuth(f)), 400, 'unsupported_grant_type');
  }
});

test('invalid_grant: wrong verifier, wrong redirect_uri, a code of another client, an unknown code, a reused refresh token', async () => {
  const wrongVerifier = await webCode(f, person.cookie, person.person.id);
  assertOAuthError(await exchangeCode(f, wrongVerifier.code, pkcePair().verifier), 400, 'invalid_grant');
  const shortVerifier = await webCode(f, person.cookie, person.person.id);
  assertOAuthError(await exchangeCode(f, shortVerifier.code, 'short'), 400, 'invalid_grant');
  const wrongRedirect = await webCode(f, person.cookie, person.person.id);
  assertOAuthError(await exchangeCode(f, wrongRedirect.code, wrongRedirect.verifier, { redirect_uri: 'https://web.example/other' }), 400, 'invalid_grant');
  const others = await webCode(f, person.cookie, person.person.id);
  assertOAuthError(await postForm(f, '/oauth/token', { ...codeFields(others.code, others.verifier), client_id: f.spa.clientId }), 400, 'invalid_grant');
  assertOAuthError(await exchangeCode(f, 'c'.repeat(43), pkcePair().verifier), 400, 'invalid_grant');
  // The spa's own code is for the spa only, and the web app cannot use it either.
  const spa = await spaCode();
  assertOAuthError(await exchangeCode(f, spa.code, spa.verifier, { redirect_uri: f.spa.redirectUri }), 400, 'invalid_grant');

  const tokens = await webTokens(f, person.cookie, person.person.id);
  const rotated = await refresh(f, tokens.refresh_token!);
  assert.equal(rotated.status, 200, rotated.text);
  assertOAuthError(await refresh(f, tokens.refresh_token!), 400, 'invalid_grant');
  assertOAuthError(await refresh(f, 'ghr_' + 'x'.repeat(43)), 400, 'invalid_grant');
});

test('invalid_target: a token request naming another resource than the sign-in did, or more than one', async () => {
  const signedInFor = await webCode(f, person.cookie, person.person.id, { scope: 'openid read:weather', resource: f.server.resource });
  assertOAuthError(await exchangeCode(f, signedInFor.code, signedInFor.verifier, { resource: TIDES }), 400, 'invalid_target');
  const none = await webCode(f, person.cookie, person.person.id, { scope: 'openid' });
  assertOAuthError(await exchangeCode(f, none.code, none.verifier, { resource: f.server.resource }), 400, 'invalid_target');
  const two = await webCode(f, person.cookie, person.person.id, { scope: 'openid read:weather', resource: f.server.resource });
  const twice = await postForm(f, '/oauth/token', { ...codeFields(two.code, two.verifier), resource: [f.server.resource, TIDES] }, webAuth(f));
  assertOAuthError(twice, 400, 'invalid_target');
  // The same resource, or none at all, is fine.
  const same = await webCode(f, person.cookie, person.person.id, { scope: 'openid read:weather', resource: f.server.resource });
  const ok = await exchangeCode(f, same.code, same.verifier, { resource: f.server.resource });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.scope, 'openid read:weather');

  const tokens = await webTokens(f, person.cookie, person.person.id);
  assertOAuthError(await refresh(f, tokens.refresh_token!, { resource: TIDES }), 400, 'invalid_target');
  const refreshed = await refresh(f, tokens.refresh_token!, { resource: f.server.resource });
  assert.equal(refreshed.status, 200, 'a refused request does not spend the refresh token');
});

test('unauthorized_client: a refresh after the app lost refresh tokens, and a blocked app; invalid_scope: a refresh asking wider scope', async () => {
  const tokens = await webTokens(f, person.cookie, person.person.id, { scope: 'openid profile offline_access read:weather' });
  const appPath = `/apis/${f.apiId}/signin/apps/${f.web.clientId}`;
  assert.equal((await f.owner.client.patch(appPath, { refresh_tokens: false })).status, 200);
  try {
    assertOAuthError(await refresh(f, tokens.refresh_token!), 400, 'unauthorized_client');
  } finally {
    assert.equal((await f.owner.client.patch(appPath, { refresh_tokens: true })).status, 200);
  }
  // Refused before it was looked at: the refresh token still works once the app may refresh again.
  const again = await refresh(f, tokens.refresh_token!);
  assert.equal(again.status, 200, again.text);

  assertOAuthError(await refresh(f, again.body.refresh_token, { scope: 'openid profile offline_access read:weather write:weather' }), 400, 'invalid_scope');
  assertOAuthError(await refresh(f, again.body.refresh_token, { scope: 'openid email' }), 400, 'invalid_scope');
  const narrower = await refresh(f, again.body.refresh_token, { scope: 'openid offline_access' });
  assert.equal(narrower.status, 200, narrower.text);
  assert.equal(narrower.body.scope, 'openid offline_access');
  const same = await refresh(f, narrower.body.refresh_token, { scope: 'openid profile offline_access read:weather' });
  assert.equal(same.status, 200, 'narrowing once does not shrink the grant');

  const made = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Blocked Later', kind: 'web', redirect_uris: ['https://blocked.example/cb'] });
  await f.t.services.db.updateTable('oauth_apps').set({ blocked: true }).where('id', '=', made.body.id).execute();
  await notifyChange(f.t.services.db, [changed.client(f.apiId, made.body.id)]);
  assertOAuthError(await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'ghr_x' }, { authorization: basic(made.body.id, made.body.client_secret) }), 400, 'unauthorized_client');
});
