// Forgotten and changed passwords (spec 2.4 ResetInBody/ResetBody/PasswordInBody, 5.1; DESIGN 6):
// the forgot answer that does not tell whether an address has an account, reset ending every
// session, and a change that keeps only the session making it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertInvalid, assertProblem, assertSessionCookie, sessionCookieLine } from '../support/assertions.js';
import type { TestClient } from '../support/client.js';
import { otherCode, requestCode, settledMail, ticketFor, verifyCode } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

const NEW_PASSWORD = 'a brand new passphrase';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const login = (email: string, password: string) => t.client().post('/auth/login', { email, password });

/** A second browser of the same person, signed in with the password. */
async function secondSession(email: string): Promise<TestClient> {
  const client = t.client();
  assert.equal((await client.post('/auth/login', { email, password: PASSWORD })).status, 200);
  return client;
}

/** A client carrying a copy of another's session cookie, to try it after that session ended. */
function copyOf(client: TestClient): TestClient {
  const copy = t.client();
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

test('forgot: known and unknown addresses get the same answer; only the known one gets a code', async () => {
  const owner = await signUp(t);
  const unknownEmail = uniqueEmail('nobody');
  const unknown = await t.client().post('/auth/password/forgot', { email: unknownEmail });
  const known = await t.client().post('/auth/password/forgot', { email: owner.email });
  assert.equal(known.status, 200, known.text);
  assert.equal(unknown.status, known.status);
  assert.equal(unknown.headers.get('content-type'), known.headers.get('content-type'));
  assert.deepEqual(unknown.body, known.body);
  assert.deepEqual(known.body, { sent: true });

  await t.mail.waitFor(owner.email, /password reset code/);
  assert.deepEqual(await settledMail(t, unknownEmail), []);
});

test('forgot: email bounds and undeclared properties', async () => {
  assertInvalid(await t.client().post('/auth/password/forgot', { email: `${'a'.repeat(243)}@example.com` }), 'body.email');
  assertInvalid(await t.client().post('/auth/password/forgot', { email: 'nobody' }), 'body.email');
  assertInvalid(await t.client().post('/auth/password/forgot', { email: uniqueEmail(), extra: 1 }), 'body.extra');
});

test('reset: a wrong code is refused; the ticket works once', async () => {
  const owner = await signUp(t);
  const client = t.client();
  const code = await requestCode(t, client, 'reset', owner.email);
  assertProblem(await verifyCode(client, 'reset', owner.email, otherCode(code)), 401, 'invalid_code');
  const verified = await verifyCode(client, 'reset', owner.email, code);
  assert.equal(verified.status, 200, verified.text);
  const ticket = verified.body.ticket;
  assert.equal((await client.post('/auth/password/reset', { ticket, password: NEW_PASSWORD })).status, 200);
  assertProblem(await t.client().post('/auth/password/reset', { ticket, password: `${NEW_PASSWORD}!` }), 401, 'invalid_ticket');
  assert.equal((await login(owner.email, NEW_PASSWORD)).status, 200);
});

test('reset without two-factor: every session ends, and the answer signs in with the new password', async () => {
  const owner = await signUp(t);
  const other = await secondSession(owner.email);
  const oldCookie = copyOf(owner.client);
  const { ticket } = await ticketFor(t, t.client(), 'reset', owner.email);

  const browser = t.client();
  const reset = await browser.post('/auth/password/reset', { ticket, password: NEW_PASSWORD });
  assert.equal(reset.status, 200, reset.text);
  assert.equal(reset.body.signed_in, true);
  assert.equal(reset.body.user.id, owner.userId);
  assertSessionCookie(reset);
  assert.equal((await browser.get('/me')).status, 200);

  assertProblem(await oldCookie.get('/me'), 401, 'not_signed_in');
  assertProblem(await other.get('/me'), 401, 'not_signed_in');
  assertProblem(await login(owner.email, PASSWORD), 401, 'invalid_credentials');
  assert.equal((await login(owner.email, NEW_PASSWORD)).status, 200);
});

test('reset with two-factor on: every session ends and the answer does not sign in', async () => {
  const owner = await signUp(t);
  const { secret } = await enableTwoFactor(t, owner.client);
  const { ticket } = await ticketFor(t, t.client(), 'reset', owner.email);

  const reset = await owner.client.post('/auth/password/reset', { ticket, password: NEW_PASSWORD });
  assert.equal(reset.status, 200, reset.text);
  assert.deepEqual(reset.body, { signed_in: false });
  assert.equal(sessionCookieLine(reset), undefined);
  assertProblem(await owner.client.get('/me'), 401, 'not_signed_in');

  // The new password leads to the second step as before.
  t.clock.advance(30_000);
  const client = t.client();
  const first = await client.post('/auth/login', { email: owner.email, password: NEW_PASSWORD });
  assert.equal(first.body.two_factor_required, true);
  assert.equal((await client.post('/auth/login/2fa', { challenge: first.body.challenge, code: totpNow(t, secret) })).status, 200);
});

test('reset: password 10..72, ticket up to 1000', async () => {
  const owner = await signUp(t);
  const { ticket } = await ticketFor(t, t.client(), 'reset', owner.email);
  const reset = (body: Record<string, unknown>) => t.client().post('/auth/password/reset', body);
  assertInvalid(await reset({ ticket, password: 'p'.repeat(9) }), 'body.password');
  assertInvalid(await reset({ ticket, password: 'p'.repeat(73) }), 'body.password');
  assertInvalid(await reset({ ticket: 't'.repeat(1001), password: NEW_PASSWORD }), 'body.ticket');
  assertInvalid(await reset({ ticket, password: NEW_PASSWORD, extra: 1 }), 'body.extra');
  const accepted = await reset({ ticket, password: 'p'.repeat(10) });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal((await login(owner.email, 'p'.repeat(10))).status, 200);
});

test('change: needs the current password; signs out the other sessions and keeps this one', async () => {
  const owner = await signUp(t);
  const other = await secondSession(owner.email);

  const wrong = await owner.client.post('/me/password', { current_password: `${PASSWORD}!`, password: NEW_PASSWORD });
  assertProblem(wrong, 403, 'wrong_password');
  assert.equal((await other.get('/me')).status, 200, 'a refused change signs nobody out');

  const changed = await owner.client.post('/me/password', { current_password: PASSWORD, password: NEW_PASSWORD });
  assert.equal(changed.status, 200, changed.text);
  assert.deepEqual(changed.body, { ok: true });
  assert.equal((await owner.client.get('/me')).status, 200, 'this session stays');
  assertProblem(await other.get('/me'), 401, 'not_signed_in');
  assertProblem(await login(owner.email, PASSWORD), 401, 'invalid_credentials');
  assert.equal((await login(owner.email, NEW_PASSWORD)).status, 200);
});

test('change: the new password is 10..72 characters', async () => {
  const owner = await signUp(t);
  const change = (password: string, current = PASSWORD) => owner.client.post('/me/password', { current_password: current, password });
  assertInvalid(await change('p'.repeat(9)), 'body.password');
  assertInvalid(await change('p'.repeat(73)), 'body.password');
  assertInvalid(await change(NEW_PASSWORD, 'c'.repeat(201)), 'body.current_password');
  assertInvalid(await owner.client.post('/me/password', { current_password: PASSWORD, password: NEW_PASSWORD, extra: 1 }), 'body.extra');
  assert.equal((await change('p'.repeat(72))).status, 200);
  assert.equal((await change('q'.repeat(10), 'p'.repeat(72))).status, 200);
  assert.equal((await login(owner.email, 'q'.repeat(10))).status, 200);
});

test('change: needs a session', async () => {
  assertProblem(await t.client().post('/me/password', { current_password: PASSWORD, password: NEW_PASSWORD }), 401, 'not_signed_in');
});

// The reset ticket lives 30 minutes (docs/decisions.md, Console API: "Tickets last 30 minutes"),
// crossed by moving the app's clock on both sides of the bound.
const MINUTE = 60_000;

test('reset ticket: 29 minutes after it was made it still resets the password', async () => {
  const owner = await signUp(t);
  const { ticket, expires_at } = await ticketFor(t, t.client(), 'reset', owner.email);
  assert.ok(Math.abs(new Date(expires_at).getTime() - (t.clock.now().getTime() + 30 * MINUTE)) < MINUTE, `expires_at ${expires_at} is 30 minutes on`);
  t.clock.advance(29 * MINUTE);
  const reset = await t.client().post('/auth/password/reset', { ticket, password: NEW_PASSWORD });
  assert.equal(reset.status, 200, reset.text);
  assert.equal((await login(owner.email, NEW_PASSWORD)).status, 200);
});

test('reset ticket: 31 minutes after it was made it is refused, and nothing changes', async () => {
  const owner = await signUp(t);
  const { ticket } = await ticketFor(t, t.client(), 'reset', owner.email);
  t.clock.advance(31 * MINUTE);
  const reset = await t.client().post('/auth/password/reset', { ticket, password: NEW_PASSWORD });
  assertProblem(reset, 401, 'invalid_ticket');
  assert.equal(sessionCookieLine(reset), undefined, 'no session');
  assertProblem(await login(owner.email, NEW_PASSWORD), 401, 'invalid_credentials');
  assert.equal((await login(owner.email, PASSWORD)).status, 200, 'the old password still works');
  assert.equal((await owner.client.get('/me')).status, 200, 'no session was ended');
});
