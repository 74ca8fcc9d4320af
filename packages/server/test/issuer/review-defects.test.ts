// Defects found in review (issue 16, item 6), each pinned by a test that failed before its fix:
// a path parameter over 100 characters answered in each face's shape; a refresh refused because
// the person is suspended leaves the refresh token unspent; `%00` in a parameter value is a clean
// refusal (never a truncated value) in the query and form of authorize, PAR and token.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exchangeCode, introspect, refresh, webAuth, webCode, webTokens } from '../support/issuer-flows.js';
import { rememberConsent, signedInPerson, startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => (f = await startIssuer('Review Defects API')));
after(() => f.t.close());

const long = 'x'.repeat(101);

test('a path parameter over 100 characters is a problem+json 404 on the console, not Fastify 414', async () => {
  for (const client of [f.owner.client, f.t.client()]) {
    for (const path of [`/apis/${long}`, `/apis/${f.apiId}/customers/${long}`, `/apis/${f.apiId}/signin/people/${long}`]) {
      const answer = await client.get(path);
      assert.equal(answer.status, 404, `${path}: ${answer.text}`);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(answer.body.type, 'urn:gatehouse:problem:not_found');
      assert.equal(answer.body.status, 404);
    }
  }
  // One character less is an ordinary parameter, refused by the route's own bound.
  assert.equal((await f.owner.client.get(`/apis/${'x'.repeat(100)}`)).status, 422);
});

test('a path parameter over 100 characters on a tenant host: a page where a browser looks, OAuth JSON under /oauth and /api', async () => {
  for (const path of [`/interaction/${long}`, `/oauth/authorize/resume/${long}`, `/invites/${long}`, `/keys/${long}/revoke`]) {
    const answer = await tenantFetch(f.issuer + path);
    const body = await answer.text();
    assert.equal(answer.status, 404, `${path}: ${body.slice(0, 200)}`);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/, path);
    assert.match(body, /There is no page at this address/, path);
  }
  for (const path of [`/api/apis/${long}`, `/api/v1/me/api-keys/${long}`]) {
    const answer = await tenantFetch(f.issuer + path);
    const body = await answer.text();
    assert.equal(answer.status, 404, `${path}: ${body}`);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, path);
    assert.equal(JSON.parse(body).error, 'invalid_request', path);
  }
});

const setStatus = async (personId: string, status: 'active' | 'suspended') => {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${personId}`, { status });
  assert.equal(answer.status, 200, answer.text);
};

test('a refresh refused because the person is suspended leaves the token unspent: reactivated, the same token refreshes', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.ok(tokens.refresh_token, 'a refresh token');
  await setStatus(person.id, 'suspended');
  const refused = await refresh(f, tokens.refresh_token);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.error, 'invalid_grant');
  assert.match(refused.body.error_description, /suspended/);
  // Asking again while suspended is no replay either.
  assert.match((await refresh(f, tokens.refresh_token)).body.error_description, /suspended/);
  await setStatus(person.id, 'active');
  // Tokens count as minted after the session ended (the suspension ended it) from the next second on.
  f.t.clock.advance(2000);
  const renewed = await refresh(f, tokens.refresh_token);
  assert.equal(renewed.status, 200, `the app's retry after reactivation works: ${renewed.text}`);
  assert.ok(renewed.body.refresh_token);
  assert.equal((await introspect(f, renewed.body.access_token)).body.active, true, 'the grant was not revoked');
  // The token was spent by that refresh, and only then: a second use is a replay, as always.
  assert.match((await refresh(f, tokens.refresh_token)).body.error_description, /already used/);
});

test('a code refused because the person is suspended stays usable: reactivated, the app exchanges it', async () => {
  const { person, cookie } = await signedInPerson(f);
  const { code, verifier } = await webCode(f, cookie, person.id);
  await setStatus(person.id, 'suspended');
  const refused = await exchangeCode(f, code, verifier);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.error, 'invalid_grant');
  assert.match(refused.body.error_description, /suspended/);
  await setStatus(person.id, 'active');
  const exchanged = await exchangeCode(f, code, verifier);
  assert.equal(exchanged.status, 200, exchanged.text);
  assert.ok(exchanged.body.access_token);
});

/** A form POSTed as written, so `%00` reaches the server exactly as a client sent it. */
async function postRawForm(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await tenantFetch(f.issuer + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as { error?: string; error_description?: string; request_uri?: string } };
}

const formOf = (params: Record<string, string>) => new URLSearchParams(params).toString();

test('authorize: state=a%00b in the query is a clean invalid_request, never the value "a"; a%01b comes back whole', async () => {
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  for (const state of ['a%00b', 'a%00', '%00b', 'a%00b&state=a']) {
    const { params } = webRequest(f);
    delete params.state;
    const response = await tenantFetch(`${f.issuer}/oauth/authorize?${formOf(params)}&state=${state}`, { headers: { cookie } });
    assert.equal(response.status, 303, `state=${state}: ${await response.text()}`);
    const back = new URL(response.headers.get('location')!);
    assert.equal(back.origin + back.pathname, f.web.redirectUri);
    assert.equal(back.searchParams.get('code'), null, `state=${state} gets no code`);
    assert.equal(back.searchParams.get('error'), 'invalid_request', `state=${state}`);
    assert.match(back.searchParams.get('error_description')!, /^state (contains NUL|is repeated)/);
    // The first state was refused, so none goes back: never the value cut at the NUL, nor a later one.
    assert.equal(back.searchParams.get('state'), null, `state=${state}: ${back.search}`);
  }
  // Any other control character is a value like any other, returned exactly.
  const { params } = webRequest(f, { state: 'a\u0001b' });
  const response = await tenantFetch(`${f.issuer}/oauth/authorize?${formOf(params)}`, { headers: { cookie } });
  const back = new URL(response.headers.get('location')!);
  assert.ok(back.searchParams.get('code'), back.search);
  assert.equal(back.searchParams.get('state'), 'a\u0001b');
});

test('PAR: state=a%00b in the form is a clean invalid_request and pushes nothing; the same in the query of the authorize that follows changes nothing', async () => {
  const { params } = webRequest(f);
  delete params.state;
  for (const state of ['a%00b', 'a%00b&state=a']) {
    const answer = await postRawForm('/oauth/par', `${formOf({ ...params, client_secret: f.web.secret })}&state=${state}`);
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.body.error, 'invalid_request');
    assert.match(answer.body.error_description!, /^state (contains NUL|is repeated)/);
  }
  // A pushed request is the whole request (RFC 9126 4): a NUL in the query beside request_uri is not read.
  const pushed = await postRawForm('/oauth/par', `${formOf({ ...params, client_secret: f.web.secret })}&state=a%01b`);
  assert.equal(pushed.status, 201, pushed.text);
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const response = await tenantFetch(`${f.issuer}/oauth/authorize?${formOf({ client_id: f.web.clientId, request_uri: pushed.body.request_uri! })}&state=x%00y`, { headers: { cookie } });
  assert.equal(response.status, 303, await response.text());
  const back = new URL(response.headers.get('location')!);
  assert.ok(back.searchParams.get('code'), back.search);
  assert.equal(back.searchParams.get('state'), 'a\u0001b', 'the pushed state, whole');
});

test('token: %00 in a form value is a clean invalid_request naming it, never a shorter code or another grant type', async () => {
  const { person, cookie } = await signedInPerson(f);
  const { code, verifier } = await webCode(f, cookie, person.id);
  const good = { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier };
  const cases: [string, string][] = [
    ['code', `${formOf({ ...good, code: '' })}`.replace('code=&', '') + `&code=${code}%00b`],
    ['code_verifier', `${formOf({ ...good, code_verifier: '' })}`.replace('code_verifier=&', '').replace(/&code_verifier=$/, '') + `&code_verifier=${verifier}%00`],
    ['grant_type', `${formOf({ ...good, grant_type: '' })}`.replace(/^grant_type=&/, '') + '&grant_type=authorization_code%00refresh_token'],
    ['state', `${formOf(good)}&state=a%00b`],
  ];
  for (const [name, body] of cases) {
    const answer = await postRawForm('/oauth/token', body, webAuth(f));
    assert.equal(answer.status, 400, `${name}: ${answer.text}`);
    assert.equal(answer.body.error, 'invalid_request', `${name}: ${answer.text}`);
    assert.match(answer.body.error_description!, new RegExp(`^${name} contains NUL`), name);
  }
  // None of them spent the code: the well-formed request exchanges it.
  const exchanged = await postRawForm('/oauth/token', formOf(good), webAuth(f));
  assert.equal(exchanged.status, 200, exchanged.text);
});
