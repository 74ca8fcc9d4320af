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
