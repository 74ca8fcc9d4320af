// RFC 6749 2.3.1 at the client-authenticated endpoints (issue 26 item 8). A web app may send its
// credentials with HTTP Basic or in the form; the form is honoured where Basic is also possible;
// both at once are refused as invalid_request (OAuth 2.1 2.4: a client MUST NOT use more than one
// authentication method in a request), even when both are right, and nothing is spent. Basic's
// user and password are form-urlencoded before base64, so a needlessly encoded one works too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { webCode } from '../support/issuer-flows.js';
import { basic, postForm, signedInPerson, startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let person: Awaited<ReturnType<typeof signedInPerson>>;
before(async () => {
  f = await startIssuer('Client Authentication API');
  person = await signedInPerson(f);
});
after(() => f.t.close());

const form = () => ({ client_id: f.web.clientId, client_secret: f.web.secret });
const both = () => ({ authorization: basic(f.web.clientId, f.web.secret) });
/** Every character percent-encoded: what a client form-urlencoding more than it needs sends. */
const overEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

function assertInvalidRequest(answer: Awaited<ReturnType<typeof postForm>>, what: string) {
  assert.equal(answer.status, 400, `${what}: ${answer.text}`);
  assert.equal(answer.body.error, 'invalid_request', what);
  assert.match(answer.body.error_description, /one client authentication method/, what);
}

test('token endpoint: Basic and the form\'s client_secret together are invalid_request and spend nothing; the form alone works', async () => {
  const { code, verifier } = await webCode(f, person.cookie, person.person.id);
  const fields = { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier };
  assertInvalidRequest(await postForm(f, '/oauth/token', { ...fields, ...form() }, both()), 'both, both right');
  assertInvalidRequest(await postForm(f, '/oauth/token', { ...fields, client_secret: f.web.secret }, both()), 'both, no client_id in the form');
  assertInvalidRequest(await postForm(f, '/oauth/token', { ...fields, ...form() }, { authorization: basic(f.web.clientId, 'wrong') }), 'both, Basic wrong');
  const formOnly = await postForm(f, '/oauth/token', { ...fields, ...form() });
  assert.equal(formOnly.status, 200, `the code was not spent, and the form alone works: ${formOnly.text}`);
  assert.ok(formOnly.body.access_token);
});

test('Basic alone works, with client_id repeated in the form or not, and with its parts form-urlencoded beyond need (RFC 6749 2.3.1)', async () => {
  for (const [what, extra, authorization] of [
    ['Basic', {}, basic(f.web.clientId, f.web.secret)],
    ['Basic and the same client_id in the form', { client_id: f.web.clientId }, basic(f.web.clientId, f.web.secret)],
    ['Basic of percent-encoded parts', {}, `Basic ${Buffer.from(`${overEncoded(f.web.clientId)}:${overEncoded(f.web.secret)}`).toString('base64')}`],
  ] as const) {
    const { code, verifier } = await webCode(f, person.cookie, person.person.id);
    const answer = await postForm(f, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier, ...extra }, { authorization });
    assert.equal(answer.status, 200, `${what}: ${answer.text}`);
  }
});

test('PAR, revocation and introspection: both methods at once are invalid_request; the form alone works', async () => {
  const { params } = webRequest(f);
  assertInvalidRequest(await postForm(f, '/oauth/par', { ...params, ...form() }, both()), 'PAR');
  const pushed = await postForm(f, '/oauth/par', { ...params, ...form() });
  assert.equal(pushed.status, 201, pushed.text);

  assertInvalidRequest(await postForm(f, '/oauth/revoke', { token: 'ghr_unknown', ...form() }, both()), 'revoke');
  const revoked = await postForm(f, '/oauth/revoke', { token: 'ghr_unknown', ...form() });
  assert.equal(revoked.status, 200);

  const server = { client_id: f.server.clientId, client_secret: f.server.secret };
  assertInvalidRequest(await postForm(f, '/oauth/introspect', { token: 'ghr_unknown', ...server }, { authorization: basic(f.server.clientId, f.server.secret) }), 'introspect');
  const introspected = await postForm(f, '/oauth/introspect', { token: 'ghr_unknown', ...server });
  assert.equal(introspected.status, 200, introspected.text);
  assert.deepEqual(introspected.body, { active: false });
});
