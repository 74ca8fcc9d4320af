// The console session (DESIGN 6 and 9): who /me is, logout, the CSRF rule for cookie-carried
// changes, JSON-only bodies, problem+json errors, and the profile name's bounds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertInvalid, assertProblem, sessionCookieLine } from '../support/assertions.js';
import type { TestClient } from '../support/client.js';
import { PASSWORD, signUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

const FOREIGN_ORIGIN = 'https://attacker.example';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

/** A client carrying a copy of another's session cookie, to try it after that session ended. */
function copyOf(client: TestClient): TestClient {
  const copy = t.client();
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

async function nameOf(client: TestClient): Promise<string> {
  const me = await client.get('/me');
  assert.equal(me.status, 200, me.text);
  return me.body.user.name;
}

test('/me without a session answers 401', async () => {
  assertProblem(await t.client().get('/me'), 401, 'not_signed_in');
  const forged = t.client();
  forged.cookies.set('gh_session', 'not-a-session');
  assertProblem(await forged.get('/me'), 401, 'not_signed_in');
  assertProblem(await t.client().patch('/me', { name: 'Nobody' }), 401, 'not_signed_in');
});

test('/me answers the person and their workspaces', async () => {
  const owner = await signUp(t, { name: 'Mary' });
  const me = await owner.client.get('/me');
  assert.equal(me.status, 200, me.text);
  assert.deepEqual(Object.keys(me.body).sort(), ['user', 'workspaces']);
  assert.deepEqual(me.body.user, { id: owner.userId, email: owner.email, name: 'Mary', two_factor: false, created_at: me.body.user.created_at });
  assert.ok(!Number.isNaN(Date.parse(me.body.user.created_at)));
  assert.equal(me.body.workspaces[0].id, owner.workspaceId);
});

test('logout ends the session and clears the cookie', async () => {
  const owner = await signUp(t);
  const other = t.client();
  assert.equal((await other.post('/auth/login', { email: owner.email, password: PASSWORD })).status, 200);
  const oldCookie = copyOf(owner.client);

  const out = await owner.client.post('/auth/logout');
  assert.equal(out.status, 200, out.text);
  assert.deepEqual(out.body, { ok: true });
  assert.ok(sessionCookieLine(out), 'the answer clears the cookie');
  assert.equal(owner.client.cookies.has('gh_session'), false);

  assertProblem(await owner.client.get('/me'), 401, 'not_signed_in');
  assertProblem(await oldCookie.get('/me'), 401, 'not_signed_in');
  assert.equal((await other.get('/me')).status, 200, 'only this session ended');
  // Logging out without a session is harmless.
  assert.deepEqual((await t.client().post('/auth/logout')).body, { ok: true });
});

test('CSRF: a cookie-carried change without X-Requested-With is refused unless it comes from the console origin', async () => {
  const owner = await signUp(t, { name: 'Before' });

  const bare = await owner.client.patch('/me', { name: 'Forged' }, { noCsrfHeader: true });
  assertProblem(bare, 403, 'csrf');
  assert.equal(await nameOf(owner.client), 'Before');
  assertProblem(await owner.client.post('/auth/logout', undefined, { noCsrfHeader: true }), 403, 'csrf');
  assert.equal((await owner.client.get('/me')).status, 200, 'the refused logout left the session');

  const sameOrigin = await owner.client.patch('/me', { name: 'From Console' }, { noCsrfHeader: true, headers: { origin: t.url } });
  assert.equal(sameOrigin.status, 200, sameOrigin.text);
  assert.equal(await nameOf(owner.client), 'From Console');

  const foreign = await owner.client.patch('/me', { name: 'Forged' }, { noCsrfHeader: true, headers: { origin: FOREIGN_ORIGIN } });
  assertProblem(foreign, 403, 'csrf');
  const nullOrigin = await owner.client.patch('/me', { name: 'Forged' }, { noCsrfHeader: true, headers: { origin: 'null' } });
  assertProblem(nullOrigin, 403, 'csrf');
  assert.equal(await nameOf(owner.client), 'From Console');

  const loggedOut = await owner.client.post('/auth/logout', undefined, { noCsrfHeader: true, headers: { origin: t.url } });
  assert.equal(loggedOut.status, 200, loggedOut.text);
});

test('CSRF: a foreign Origin is refused even with X-Requested-With', async () => {
  const owner = await signUp(t, { name: 'Steady' });
  assertProblem(await owner.client.patch('/me', { name: 'Forged' }, { headers: { origin: FOREIGN_ORIGIN } }), 403, 'csrf');
  assertProblem(await owner.client.post('/me/password', { current_password: PASSWORD, password: 'forged password' }, { headers: { origin: FOREIGN_ORIGIN } }), 403, 'csrf');
  assert.equal(await nameOf(owner.client), 'Steady');
  // The console's own origin with the header is fine.
  const ok = await owner.client.patch('/me', { name: 'Still Me' }, { headers: { origin: t.url } });
  assert.equal(ok.status, 200, ok.text);
});

test('CSRF: reads and cookie-less requests need no header', async () => {
  const owner = await signUp(t);
  assert.equal((await owner.client.get('/me', { noCsrfHeader: true })).status, 200);
  const login = await t.client().post('/auth/login', { email: owner.email, password: PASSWORD }, { noCsrfHeader: true });
  assert.equal(login.status, 200, login.text);
});

test('bodies are JSON: text/plain answers 415, malformed JSON 400, both problem+json', async () => {
  const owner = await signUp(t);
  const json = JSON.stringify({ email: owner.email, password: PASSWORD });
  assertProblem(await t.client().post('/auth/login', undefined, { raw: json, headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
  assertProblem(await owner.client.patch('/me', undefined, { raw: JSON.stringify({ name: 'Plain' }), headers: { 'content-type': 'text/plain;charset=UTF-8' } }), 415, 'unsupported_media_type');
  assertProblem(await t.client().post('/auth/login', undefined, { raw: '{"email":', headers: { 'content-type': 'application/json' } }), 400, 'malformed_json');
  assertProblem(await owner.client.patch('/me', undefined, { raw: '{name: "x"}', headers: { 'content-type': 'application/json' } }), 400, 'malformed_json');
  assertProblem(await t.client().post('/auth/login', undefined, { raw: new URLSearchParams({ email: owner.email, password: PASSWORD }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  // The same body as JSON is fine.
  assert.equal((await t.client().post('/auth/login', undefined, { raw: json, headers: { 'content-type': 'application/json' } })).status, 200);
});

test('errors are problem+json: unknown route, wrong method, validation', async () => {
  const notFound = await t.client().get('/no-such-route');
  assertProblem(notFound, 404, 'not_found');
  assert.equal(notFound.body.instance, '/api/no-such-route');
  assertProblem(await t.client().request('DELETE', '/me'), 404, 'not_found');
  const invalid = await t.client().post('/auth/login', { email: 'x@example.com', password: 'p'.repeat(201), extra: 1 });
  assertInvalid(invalid, 'body.password');
  assertInvalid(invalid, 'body.extra');
  for (const error of invalid.body.errors) assert.equal(typeof error.message, 'string');
});

test('PATCH /me: name 1..100', async () => {
  const owner = await signUp(t, { name: 'Original' });
  assertInvalid(await owner.client.patch('/me', { name: '' }), 'body.name');
  assertInvalid(await owner.client.patch('/me', { name: 'n'.repeat(101) }), 'body.name');
  // Names are stored trimmed: spaces alone would make an empty name (fixed; it was accepted).
  assertInvalid(await owner.client.patch('/me', { name: ' \t ' }), 'body.name');
  assertInvalid(await owner.client.patch('/me', {}), 'body.name');
  assertInvalid(await owner.client.patch('/me', { name: 'Ok', email: 'other@example.com' }), 'body.email');
  assert.equal(await nameOf(owner.client), 'Original');

  const shortest = await owner.client.patch('/me', { name: 'N' });
  assert.equal(shortest.status, 200, shortest.text);
  assert.equal(shortest.body.name, 'N');
  assert.equal(shortest.body.id, owner.userId);
  const longest = await owner.client.patch('/me', { name: 'n'.repeat(100) });
  assert.equal(longest.status, 200, longest.text);
  assert.equal(await nameOf(owner.client), 'n'.repeat(100));
});

// Last in this file: it moves the clock 30 days, past every session made above.
test('a session lasts 30 days', async () => {
  const owner = await signUp(t);
  t.clock.advance(30 * 24 * 60 * 60_000 - 60_000);
  assert.equal((await owner.client.get('/me')).status, 200, 'a minute before');
  t.clock.advance(60_000);
  assertProblem(await owner.client.get('/me'), 401, 'not_signed_in');
  assertProblem(await owner.client.patch('/me', { name: 'Expired' }), 401, 'not_signed_in');
});
