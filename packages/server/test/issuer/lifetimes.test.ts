// Every lifetime of the sign-in service on both sides of its end, crossed by moving the app's
// clock (DESIGN 10): code 60 s, pushed request 60 s, access token (setting), refresh token
// (setting), session (setting), max_age, and a rotated signing key's time in JWKS.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { atInstant, authorizeRaw, exchangeCode, introspect, patchSettings, refresh, setPassword, signInOnPage, webAuth, webCode, webTokens } from '../support/issuer-flows.js';
import { sha256Hex } from '../../src/platform/crypto.js';
import { postForm, rememberConsent, signedInPerson, startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Lifetimes API');
});
after(() => f.t.close());

const SECOND = 1000;
// Boundaries are checked with the clock held at an exact instant (atInstant), so a slow machine
// between two requests cannot move a check across the boundary it is about.
const at = <T>(ms: number, check: () => Promise<T>) => atInstant(f.t, ms, check);
const codeExpiry = async (code: string) =>
  (await f.t.services.db.selectFrom('authorization_codes').select('expires_at').where('code_hash', '=', sha256Hex(code)).executeTakeFirstOrThrow()).expires_at.getTime();
const userinfo = (token: string) => tenantFetch(f.issuer + '/oauth/userinfo', { headers: { authorization: `Bearer ${token}` } });
const jwks = async () => (await (await tenantFetch(f.issuer + '/oauth/jwks')).json()) as JSONWebKeySet;

test('an authorization code works at 59 seconds and is invalid_grant at 61', async () => {
  const { person, cookie } = await signedInPerson(f);
  const young = await webCode(f, cookie, person.id);
  const old = await webCode(f, cookie, person.id);
  const row = await f.t.services.db.selectFrom('authorization_codes').innerJoin('token_grants', 'token_grants.id', 'authorization_codes.grant_id')
    .select(['authorization_codes.expires_at', 'token_grants.created_at']).where('code_hash', '=', sha256Hex(young.code)).executeTakeFirstOrThrow();
  assert.equal(row.expires_at.getTime() - row.created_at.getTime(), 60 * SECOND, 'a code lives 60 seconds from its issue');
  const ok = await at((await codeExpiry(young.code)) - SECOND, () => exchangeCode(f, young.code, young.verifier));
  assert.equal(ok.status, 200, ok.text);
  const late = await at((await codeExpiry(old.code)) + SECOND, () => exchangeCode(f, old.code, old.verifier));
  assert.equal(late.status, 400);
  assert.equal(late.body.error, 'invalid_grant');
});

test('a pushed request_uri works once, at 59 seconds, and is an error page at 61 or when used again', async () => {
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const push = async () => {
    const { params, pkce } = webRequest(f);
    const pushed = await postForm(f, '/oauth/par', params, webAuth(f));
    assert.equal(pushed.status, 201, pushed.text);
    assert.equal(pushed.body.expires_in, 60);
    assert.match(pushed.body.request_uri, /^urn:ietf:params:oauth:request_uri:/);
    const row = await f.t.services.db.selectFrom('pushed_authorizations').select('expires_at').where('request_uri_hash', '=', sha256Hex(pushed.body.request_uri)).executeTakeFirstOrThrow();
    return { requestUri: pushed.body.request_uri as string, state: params.state!, verifier: pkce.verifier, expiresAt: row.expires_at.getTime() };
  };
  const unauthenticated = await postForm(f, '/oauth/par', { ...webRequest(f).params });
  assert.equal(unauthenticated.status, 401, 'PAR is client-authenticated');

  const first = await push();
  const late = await push();
  const used = await at(first.expiresAt - SECOND, () => authorizeRaw(f, { client_id: f.web.clientId, request_uri: first.requestUri }, cookie));
  assert.equal(used.status, 303, used.html.slice(0, 200));
  assert.equal(used.location!.searchParams.get('state'), first.state);
  assert.equal((await exchangeCode(f, used.location!.searchParams.get('code')!, first.verifier)).status, 200);
  const again = await authorizeRaw(f, { client_id: f.web.clientId, request_uri: first.requestUri }, cookie);
  assert.equal(again.status, 400);
  assert.equal(again.location, null, 'single use: an error page, no redirect');

  const expired = await at(late.expiresAt + SECOND, () => authorizeRaw(f, { client_id: f.web.clientId, request_uri: late.requestUri }, cookie));
  assert.equal(expired.status, 400);
  assert.equal(expired.location, null);
  // Another client cannot use a pushed request either.
  const mine = await push();
  const stolen = await authorizeRaw(f, { client_id: f.spa.clientId, request_uri: mine.requestUri }, cookie);
  assert.equal(stolen.status, 400);
  assert.equal(stolen.location, null);
});

test('an access token of the service lifetime (60 s) is active just before exp and inactive just after', async () => {
  await patchSettings(f, { access_token_ttl_s: 60 });
  try {
    const { person, cookie } = await signedInPerson(f);
    const tokens = await webTokens(f, cookie, person.id);
    assert.equal(tokens.expires_in, 60);
    const { iat, exp } = decodeJwt(tokens.access_token) as { iat: number; exp: number };
    assert.equal(exp - iat, 60);
    assert.equal(decodeJwt(tokens.id_token!).exp! - iat, 60);
    await at(exp * SECOND - 1, async () => {
      const before = await introspect(f, tokens.access_token);
      assert.equal(before.body.active, true, before.text);
      assert.equal((await userinfo(tokens.access_token)).status, 200);
    });
    // RFC 7519 4.1.4: not accepted on or after exp.
    await at(exp * SECOND, async () => {
      assert.deepEqual((await introspect(f, tokens.access_token)).body, { active: false });
      assert.equal((await introspect(f, tokens.access_token, webAuth(f))).text, '{"active":false}');
      assert.equal((await userinfo(tokens.access_token)).status, 401);
    });
  } finally {
    await patchSettings(f, { access_token_ttl_s: 3600 });
  }
});

test('a refresh token of the service lifetime (3600 s) works at 3599 s and is invalid_grant after 3601 s', async () => {
  await patchSettings(f, { refresh_token_ttl_s: 3600 });
  try {
    const { person, cookie } = await signedInPerson(f);
    const early = await webTokens(f, cookie, person.id);
    const late = await webTokens(f, cookie, person.id);
    const expiry = async (token: string) =>
      (await f.t.services.db.selectFrom('refresh_tokens').select(['created_at', 'expires_at']).where('token_hash', '=', sha256Hex(token)).executeTakeFirstOrThrow());
    const earlyRow = await expiry(early.refresh_token!);
    const lateRow = await expiry(late.refresh_token!);
    assert.equal(earlyRow.expires_at.getTime() - earlyRow.created_at.getTime(), 3600 * SECOND);
    const used = await at(earlyRow.created_at.getTime() + 3599 * SECOND, async () => {
      assert.equal((await introspect(f, late.refresh_token!, webAuth(f))).body.active, true);
      return refresh(f, early.refresh_token!);
    });
    assert.equal(used.status, 200, used.text);
    const expired = await at(lateRow.created_at.getTime() + 3601 * SECOND, async () => {
      assert.equal((await introspect(f, late.refresh_token!, webAuth(f))).text, '{"active":false}');
      return refresh(f, late.refresh_token!);
    });
    assert.equal(expired.status, 400);
    assert.equal(expired.body.error, 'invalid_grant');
    // The rotated one lives its own 3600 s from its rotation.
    const { iat, exp } = (await introspect(f, used.body.refresh_token, webAuth(f))).body;
    assert.equal(exp - iat, 3600);
    assert.equal((await refresh(f, used.body.refresh_token)).status, 200);
  } finally {
    await patchSettings(f, { refresh_token_ttl_s: 2592000 });
  }
});

test('a session lasts session_ttl_s: before its end authorize answers a code, after it asks for sign-in again', async () => {
  await patchSettings(f, { session_ttl_s: 300 });
  try {
    const { person } = await signedInPerson(f, { roles: [] });
    await setPassword(f.t, person.id, 'session password 1');
    await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
    const start = await authorizeRaw(f, webRequest(f).params);
    const signedIn = await signInOnPage(f, start.location!, start.cookies, person.email, 'session password 1');
    assert.ok(signedIn.location!.searchParams.get('code'), 'signed in on the page');
    const cookie = signedIn.cookies.find((pair) => pair.startsWith('gh_ps='))!;
    const session = await f.t.services.db.selectFrom('person_sessions').selectAll().where('person_id', '=', person.id).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    assert.equal(session.expires_at.getTime() - session.auth_time.getTime(), 300 * SECOND, 'the page started a session of session_ttl_s');

    const live = await at(session.expires_at.getTime() - SECOND, () => authorizeRaw(f, webRequest(f).params, cookie));
    assert.ok(live.location!.searchParams.get('code'), `still signed in: ${live.location}`);
    await at(session.expires_at.getTime() + SECOND, async () => {
      const gone = await authorizeRaw(f, webRequest(f).params, cookie);
      assert.equal(gone.status, 303);
      assert.match(gone.location!.pathname, /^\/interaction\//, 'asks for sign-in again');
      const none = await authorizeRaw(f, webRequest(f, { prompt: 'none' }).params, cookie);
      assert.equal(none.location!.searchParams.get('error'), 'login_required');
    });
  } finally {
    await patchSettings(f, { session_ttl_s: 1209600 });
  }
});

test('max_age: a sign-in older than max_age asks for a fresh one (which then suffices); a younger one gets a code', async () => {
  const { person, cookie, session } = await signedInPerson(f);
  await setPassword(f.t, person.id, 'max age password');
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const started = await f.t.services.db.selectFrom('person_sessions').select('auth_time').where('id', '=', session.id).executeTakeFirstOrThrow();
  await at(started.auth_time.getTime() + 120 * SECOND, async () => {
  const younger = await authorizeRaw(f, webRequest(f, { max_age: '121' }).params, cookie);
  assert.ok(younger.location!.searchParams.get('code'), `max_age 121 after 120 s: ${younger.location}`);
  const older = await authorizeRaw(f, webRequest(f, { max_age: '119' }).params, cookie);
  assert.match(older.location!.pathname, /^\/interaction\//, 'max_age 119 after 120 s: sign in again');
  const none = await authorizeRaw(f, webRequest(f, { max_age: '119', prompt: 'none' }).params, cookie);
  assert.equal(none.location!.searchParams.get('error'), 'login_required');

  const fresh = await signInOnPage(f, older.location!, [cookie, ...older.cookies], person.email, 'max age password');
  assert.ok(fresh.location!.searchParams.get('code'), `a fresh sign-in satisfies max_age: ${fresh.location}`);
  });
});

test('a rotated-out signing key stays in JWKS for the access-token lifetime plus 24 hours; its tokens stay good until they expire; new tokens use the new kid', async () => {
  await patchSettings(f, { access_token_ttl_s: 600 });
  try {
    const { person, cookie } = await signedInPerson(f);
    const old = await webTokens(f, cookie, person.id);
    const oldKid = decodeProtectedHeader(old.access_token).kid!;
    const rotated = await f.owner.client.post(`/apis/${f.apiId}/signin/signing-keys/rotate`);
    assert.equal(rotated.status, 200, rotated.text);
    const retired = rotated.body.keys.find((key: { kid: string }) => key.kid === oldKid);
    assert.equal(Date.parse(retired.published_until) - Date.parse(retired.retired_at), 600 * SECOND + 24 * 3600 * SECOND);

    const fresh = await webTokens(f, cookie, person.id);
    const newKid = decodeProtectedHeader(fresh.access_token).kid!;
    assert.notEqual(newKid, oldKid);
    assert.equal(decodeProtectedHeader(fresh.id_token!).kid, newKid);
    const set = await jwks();
    assert.deepEqual(set.keys.map((key) => key.kid).sort(), [oldKid, newKid].sort());
    const verifyAt = (token: string, keys: JSONWebKeySet) => jwtVerify(token, createLocalJWKSet(keys), { issuer: f.issuer, audience: f.server.resource, typ: 'at+jwt', currentDate: f.t.clock.now() });
    await verifyAt(old.access_token, set);
    await verifyAt(fresh.access_token, set);

    const { exp } = decodeJwt(old.access_token) as { exp: number };
    await at(exp * SECOND - 1, async () => assert.equal((await introspect(f, old.access_token)).body.active, true, 'the old key still checks its tokens'));
    await at(exp * SECOND, async () => assert.deepEqual((await introspect(f, old.access_token)).body, { active: false }, 'expired'));

    // A node reads the key set when it has none or it is a minute old; forget() stands for a node
    // reading afresh, so the window is seen exactly.
    const publishedUntil = Date.parse(retired.published_until);
    await at(publishedUntil - 1, async () => {
      f.t.services.signingKeys.forget(f.apiId);
      assert.ok((await jwks()).keys.some((key) => key.kid === oldKid), 'published until the end of the window');
    });
    await at(publishedUntil, async () => {
      f.t.services.signingKeys.forget(f.apiId);
      const after = await jwks();
      assert.deepEqual(after.keys.map((key) => key.kid), [newKid], 'gone after it');
      await assert.rejects(verifyAt(old.access_token, after), { code: 'ERR_JWKS_NO_MATCHING_KEY' }, 'the old kid no longer resolves');
    });
  } finally {
    await patchSettings(f, { access_token_ttl_s: 3600 });
  }
});
