// Spec 4.3's `roles` scope (issue 26 item 8): roles and permissions, both always present when
// granted (empty lists for a person without roles), in the ID token and at userinfo; absent when
// not asked; and only for the owner's own applications: a third-party app asking for it is not
// granted it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { jwtClaims } from '../support/connected-apps.js';
import { webTokens } from '../support/issuer-flows.js';
import { authorize, basic, pkcePair, postForm, rememberConsent, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let writerRoleId: string;
before(async () => {
  f = await startIssuer('Roles Scope API');
  const writer = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, {
    name: 'writer', permissions: [{ server_id: f.server.id, permission: 'write:weather' }, { server_id: f.server.id, permission: 'read:weather' }],
  });
  assert.equal(writer.status, 200, writer.text);
  writerRoleId = writer.body.id;
});
after(() => f.t.close());

async function userinfo(accessToken: string) {
  const response = await tenantFetch(f.issuer + '/oauth/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as Record<string, unknown>;
}

test('roles granted: the ID token and userinfo carry the person\'s roles and their permissions (each once, sorted)', async () => {
  const { person, cookie } = await signedInPerson(f, { roles: [f.roleId, writerRoleId] });
  const tokens = await webTokens(f, cookie, person.id, { scope: 'openid roles' });
  assert.deepEqual(tokens.scope.split(' ').sort(), ['openid', 'roles']);
  const id = jwtClaims(tokens.id_token!);
  assert.deepEqual(id.roles, ['reader', 'writer']);
  assert.deepEqual(id.permissions, ['read:weather', 'write:weather']);
  const info = await userinfo(tokens.access_token);
  assert.deepEqual(info.roles, ['reader', 'writer']);
  assert.deepEqual(info.permissions, ['read:weather', 'write:weather']);
});

test('roles granted to a person without roles: both claims present and empty', async () => {
  const { person, cookie } = await signedInPerson(f, { roles: [] });
  const tokens = await webTokens(f, cookie, person.id, { scope: 'openid roles' });
  const id = jwtClaims(tokens.id_token!);
  assert.deepEqual(id.roles, []);
  assert.deepEqual(id.permissions, []);
  const info = await userinfo(tokens.access_token);
  assert.deepEqual(info.roles, []);
  assert.deepEqual(info.permissions, []);
});

test('roles not asked for: neither claim, though the person has roles', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id, { scope: 'openid profile' });
  const id = jwtClaims(tokens.id_token!);
  assert.equal('roles' in id, false);
  assert.equal('permissions' in id, false);
  const info = await userinfo(tokens.access_token);
  assert.equal('roles' in info, false);
  assert.equal('permissions' in info, false);
});

test('a third-party web app (own_app: false) asking for roles is not granted it: no claims, and the scope is not in the answer', async () => {
  const made = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Partner', kind: 'web', redirect_uris: ['https://partner.example/cb'], own_app: false });
  assert.equal(made.status, 200, made.text);
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, made.body.id, null, ['openid', 'roles']);
  const pkce = pkcePair();
  const answer = await authorize(f, cookie, {
    response_type: 'code', client_id: made.body.id, redirect_uri: 'https://partner.example/cb', scope: 'openid roles', state: 'p', nonce: 'n', code_challenge: pkce.challenge, code_challenge_method: 'S256',
  });
  assert.equal(answer.get('error'), null, answer.get('error_description') ?? '');
  const tokens = await postForm(f, '/oauth/token', { grant_type: 'authorization_code', code: answer.get('code')!, redirect_uri: 'https://partner.example/cb', code_verifier: pkce.verifier }, { authorization: basic(made.body.id, made.body.client_secret) });
  assert.equal(tokens.status, 200, tokens.text);
  assert.deepEqual(tokens.body.scope.split(' '), ['openid']);
  const id = jwtClaims(tokens.body.id_token);
  assert.equal('roles' in id, false);
  assert.equal('permissions' in id, false);
  const info = await userinfo(tokens.body.access_token);
  assert.equal('roles' in info, false);
});
