// Hardening item 3 on the sign-in service: the text rule (no NUL, well-formed Unicode) for form
// and query parameters, Basic credentials and cookies, answered in OAuth's shape; a `%00` inside a
// value is not a second value; a malformed URL is invalid_request, not Fastify's own 400.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { pkcePair, postForm, signedInPerson, startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => (f = await startIssuer('Hostile Input API')));
after(() => f.t.close());

function assertOAuthError(answer: { status: number; body: any; text: string }, status: number, error: string, description?: RegExp) {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.body?.error, error, answer.text);
  if (description) assert.match(answer.body.error_description, description);
}

const nulBasic = `Basic ${Buffer.from('%00:%00').toString('base64')}`; // "JTAwOiUwMA==", found by the fuzz

test('Basic credentials that decode to NUL are invalid_client at token, introspection and revocation', async () => {
  for (const path of ['/oauth/token', '/oauth/introspect', '/oauth/revoke', '/oauth/par']) {
    const answer = await postForm(f, path, { grant_type: 'refresh_token', refresh_token: 'x', token: 'x' }, { authorization: nulBasic });
    assertOAuthError(answer, 401, 'invalid_client', /contains NUL/);
  }
  // A lone surrogate, percent-encoded as UTF-8 would not allow, cannot even be decoded.
  const surrogate = `Basic ${Buffer.from('%ED%A0%80:secret').toString('base64')}`;
  assertOAuthError(await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'x' }, { authorization: surrogate }), 401, 'invalid_client');
  // The same shape of header with a real client still works: the rule refuses only bad text.
  const good = `Basic ${Buffer.from(`${f.server.clientId}:${f.server.secret}`).toString('base64')}`;
  const introspected = await postForm(f, '/oauth/introspect', { token: 'not-a-token' }, { authorization: good });
  assert.equal(introspected.status, 200, introspected.text);
  assert.deepEqual(introspected.body, { active: false });
});

test('a NUL in a form parameter is invalid_request naming it, never a 500', async () => {
  const { pkce, params } = webRequest(f);
  for (const name of ['scope', 'state', 'redirect_uri', 'nonce']) {
    const answer = await postForm(f, '/oauth/par', { ...params, [name]: `${params[name]}\u0000x`, client_secret: f.web.secret });
    assertOAuthError(answer, 400, 'invalid_request', new RegExp(`^${name} contains NUL`));
  }
  assertOAuthError(await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'a\u0000b', client_id: f.spa.clientId }), 400, 'invalid_request', /refresh_token contains NUL/);
  assertOAuthError(await postForm(f, '/oauth/introspect', { token: 'a\u0000b', client_id: f.server.clientId, client_secret: f.server.secret }), 400, 'invalid_request', /token contains NUL/);
  // A name with a NUL is refused too (percent-encoded surrogates cannot reach a form: they are not UTF-8).
  assertOAuthError(await postForm(f, '/oauth/token', { 'grant\u0000type': 'x', client_id: f.spa.clientId }), 400, 'invalid_request', /parameter name\) contains NUL/);
  // The well-formed request is accepted.
  const pushed = await postForm(f, '/oauth/par', { ...params, client_secret: f.web.secret });
  assert.equal(pushed.status, 201, pushed.text);
  void pkce;
});

test('a value with %00 is refused as bad text, not read as a repeated parameter', async () => {
  // Repeated values used to be joined with NUL internally, so one resource holding a NUL read as
  // two resources (invalid_target); it is one bad value.
  const { params } = webRequest(f, { resource: f.server.resource });
  const body = new URLSearchParams({ ...params, client_secret: f.web.secret }).toString().replace(encodeURIComponent(f.server.resource), `${encodeURIComponent(f.server.resource)}%00x`);
  const response = await tenantFetch(f.issuer + '/oauth/par', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const answer = { status: response.status, text: await response.text(), body: undefined as any };
  answer.body = JSON.parse(answer.text);
  assertOAuthError(answer, 400, 'invalid_request', /resource contains NUL/);
  // Two real resources are still "more than one" (spec 7, invalid_target).
  const two = await postForm(f, '/oauth/par', { ...params, resource: [f.server.resource, 'https://other.example/'], client_secret: f.web.secret });
  assertOAuthError(two, 400, 'invalid_target');
});

test('authorize: a NUL in a parameter is an error sent back to the app once client and redirect are good', async () => {
  const person = await signedInPerson(f);
  const { params } = webRequest(f);
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  url.searchParams.set('scope', 'openid\u0000email');
  const response = await tenantFetch(url, { headers: { cookie: person.cookie } });
  assert.equal(response.status, 303, await response.text());
  const back = new URL(response.headers.get('location')!);
  assert.equal(back.origin + back.pathname, f.web.redirectUri);
  assert.equal(back.searchParams.get('error'), 'invalid_request');
  assert.match(back.searchParams.get('error_description')!, /scope contains NUL/);
  // A NUL in client_id is an error page: nothing is known to redirect to.
  const page = new URL(f.issuer + '/oauth/authorize');
  page.searchParams.set('client_id', `${f.web.clientId}\u0000`);
  page.searchParams.set('redirect_uri', f.web.redirectUri);
  const pageAnswer = await tenantFetch(page);
  assert.equal(pageAnswer.status, 400);
  assert.match(pageAnswer.headers.get('content-type')!, /text\/html/);
  void pkcePair;
});

test('a person-session cookie with %00 counts as absent', async () => {
  const { params } = webRequest(f, { prompt: 'none' });
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await tenantFetch(url, { headers: { cookie: 'gh_ps=%00' } });
  assert.equal(response.status, 303);
  assert.equal(new URL(response.headers.get('location')!).searchParams.get('error'), 'login_required');
});

test('bad percent-encoding in a tenant path: a page for page paths, invalid_request elsewhere', async () => {
  const host = new URL(f.issuer).host;
  const get = (path: string) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: f.t.port, path, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      });
      req.on('error', reject).end();
    });
  const page = await get('/interaction/%E0%A4%A');
  assert.equal(page.status, 400, page.body);
  assert.match(page.type, /^text\/html/);
  assert.match(page.body, /The address is malformed/);
  const endpoint = await get('/oauth/%E0%A4%A');
  assert.equal(endpoint.status, 400, endpoint.body);
  assert.equal(JSON.parse(endpoint.body).error, 'invalid_request');
});

test('an unknown protocol path on a tenant host is a 404 in OAuth shape', async () => {
  const answer = await tenantFetch(f.issuer + '/oauth/no/such/endpoint');
  assert.equal(answer.status, 404);
  assert.equal(((await answer.json()) as { error: string }).error, 'invalid_request');
});
