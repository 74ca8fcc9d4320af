// Password login (spec 2.4 LoginInBody/LoginBody, 5.1; DESIGN 6): the session cookie, one answer
// for every wrong pair, field bounds, and 10 attempts per address per 15 minutes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertInvalid, assertProblem, assertRateLimited, assertSessionCookie, sessionCookieLine } from '../support/assertions.js';
import { PASSWORD, signUpOverHttp, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const login = (email: string, password: string) => t.client().post('/auth/login', { email, password });

test('login: the right password answers the person and sets the session cookie', async () => {
  const owner = await signUpOverHttp(t, { name: 'Katherine' });
  const client = t.client();
  const answer = await client.post('/auth/login', { email: owner.email, password: PASSWORD });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.two_factor_required, false);
  assert.equal(answer.body.challenge, undefined);
  assert.deepEqual([answer.body.user.id, answer.body.user.email, answer.body.user.name], [owner.userId, owner.email, 'Katherine']);
  assert.equal(answer.body.workspace_id, owner.workspaceId);
  assertSessionCookie(answer);

  const me = await client.get('/me');
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.user.id, owner.userId);
});

test('login: the address is matched without regard to case', async () => {
  const owner = await signUpOverHttp(t);
  const answer = await login(owner.email.toUpperCase(), PASSWORD);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.user.id, owner.userId);
});

test('login: a wrong password and an unknown address answer the same 401', async () => {
  const owner = await signUpOverHttp(t);
  const wrongPassword = await login(owner.email, `${PASSWORD}!`);
  const unknownAddress = await login(uniqueEmail('nobody'), PASSWORD);
  assertProblem(wrongPassword, 401, 'invalid_credentials');
  assertProblem(unknownAddress, 401, 'invalid_credentials');
  assert.deepEqual(unknownAddress.body, wrongPassword.body);
  assert.equal(sessionCookieLine(wrongPassword), undefined);
  assert.equal(sessionCookieLine(unknownAddress), undefined);
});

test('login: email up to 254 and password up to 200 characters, nothing undeclared', async () => {
  const email = `${'a'.repeat(242)}@example.com`;
  assert.equal(email.length, 254);
  // At the bound the body is accepted and judged: a wrong pair, not a malformed one.
  assertProblem(await login(email, 'p'.repeat(200)), 401, 'invalid_credentials');
  assertInvalid(await login(`a${email}`, PASSWORD), 'body.email');
  assertInvalid(await login(uniqueEmail(), 'p'.repeat(201)), 'body.password');
  assertInvalid(await t.client().post('/auth/login', { email: uniqueEmail() }), 'body.password');
  assertInvalid(await t.client().post('/auth/login', { email: uniqueEmail(), password: PASSWORD, remember: true }), 'body.remember');
});

test('login: 10 attempts per address, then 429 with Retry-After even for the right password', async () => {
  const owner = await signUpOverHttp(t);
  for (let i = 1; i <= 10; i++) assertProblem(await login(owner.email, `wrong-${i}-password`), 401, 'invalid_credentials');
  const eleventh = await login(owner.email, PASSWORD);
  assertRateLimited(eleventh, 15 * 60);
  assert.equal(sessionCookieLine(eleventh), undefined);
  // The limit is per address: another person still signs in.
  const other = await signUpOverHttp(t);
  assert.equal((await login(other.email, PASSWORD)).status, 200);
});

test('login: unknown addresses are limited the same way', async () => {
  const email = uniqueEmail('nobody');
  for (let i = 1; i <= 10; i++) assertProblem(await login(email, PASSWORD), 401, 'invalid_credentials');
  assertRateLimited(await login(email, PASSWORD), 15 * 60);
});

test('login: a successful login resets the count of its address', async () => {
  const owner = await signUpOverHttp(t);
  for (let i = 1; i <= 9; i++) assertProblem(await login(owner.email, `wrong-${i}-password`), 401, 'invalid_credentials');
  assert.equal((await login(owner.email, PASSWORD)).status, 200, 'the 10th attempt is allowed');
  // Without the reset the next attempt would be the 11th; with it, 10 more are allowed.
  for (let i = 1; i <= 9; i++) assertProblem(await login(owner.email, `wrong-${i}-again`), 401, 'invalid_credentials');
  assert.equal((await login(owner.email, PASSWORD)).status, 200);
});
