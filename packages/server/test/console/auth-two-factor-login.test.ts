// Signing in with a second factor (spec 2.4 LoginBody, TwoFactorInBody; 5.1): the challenge, an
// authenticator code accepted once (RFC 6238 5.2), recovery codes accepted once, and a challenge
// that dies after 5 wrong tries or 5 minutes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertInvalid, assertProblem, assertSessionCookie, sessionCookieLine } from '../support/assertions.js';
import { wrongTotp } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

const SECOND = 1000;
/** One authenticator step: the next code is a new one, not a replay of the one that enabled it. */
const STEP = 30 * SECOND;
const CHALLENGE_TTL = 5 * 60 * SECOND;
/** The app clock runs in real time too: "just before" leaves this much for the requests. */
const MARGIN = 5 * SECOND;

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

/** A person with two-factor on, the clock moved past the step that turned it on. */
async function ownerWithTwoFactor() {
  const owner = await signUp(t);
  const { secret, recoveryCodes } = await enableTwoFactor(t, owner.client);
  t.clock.advance(STEP);
  return { ...owner, secret, recoveryCodes };
}

/** Password step of the login: a new client and the challenge it was given. */
async function passwordStep(email: string) {
  const client = t.client();
  const answer = await client.post('/auth/login', { email, password: PASSWORD });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.two_factor_required, true);
  return { client, answer, challenge: answer.body.challenge as string };
}

test('login with two-factor on answers a challenge and no session; the authenticator code signs in', async () => {
  const owner = await ownerWithTwoFactor();
  const { client, answer, challenge } = await passwordStep(owner.email);
  assert.equal(typeof challenge, 'string');
  assert.equal(answer.body.user, undefined, 'nobody is signed in yet');
  assert.equal(sessionCookieLine(answer), undefined);
  assertProblem(await client.get('/me'), 401, 'not_signed_in');

  const signedIn = await client.post('/auth/login/2fa', { challenge, code: totpNow(t, owner.secret) });
  assert.equal(signedIn.status, 200, signedIn.text);
  assertSessionCookie(signedIn);
  assert.equal(signedIn.body.user.id, owner.userId);
  assert.equal(signedIn.body.user.two_factor, true);
  assert.equal(signedIn.body.workspace_id, owner.workspaceId);
  const me = await client.get('/me');
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.user.id, owner.userId);
});

test('a challenge signs in once', async () => {
  const owner = await ownerWithTwoFactor();
  const { client, challenge } = await passwordStep(owner.email);
  assert.equal((await client.post('/auth/login/2fa', { challenge, code: owner.recoveryCodes[0] })).status, 200);
  assertProblem(await t.client().post('/auth/login/2fa', { challenge, code: owner.recoveryCodes[1] }), 401, 'invalid_challenge');
});

test('the same authenticator code does not sign in twice', async () => {
  const owner = await ownerWithTwoFactor();
  const code = totpNow(t, owner.secret);
  const first = await passwordStep(owner.email);
  assert.equal((await first.client.post('/auth/login/2fa', { challenge: first.challenge, code })).status, 200);

  const second = await passwordStep(owner.email);
  const replay = await second.client.post('/auth/login/2fa', { challenge: second.challenge, code });
  assertProblem(replay, 401, 'invalid_two_factor_code');
  assert.equal(sessionCookieLine(replay), undefined);
});

test('a recovery code signs in exactly once', async () => {
  const owner = await ownerWithTwoFactor();
  const [recovery, another] = owner.recoveryCodes;

  const first = await passwordStep(owner.email);
  const used = await first.client.post('/auth/login/2fa', { challenge: first.challenge, code: recovery });
  assert.equal(used.status, 200, used.text);
  assertSessionCookie(used);

  const second = await passwordStep(owner.email);
  assertProblem(await second.client.post('/auth/login/2fa', { challenge: second.challenge, code: recovery }), 401, 'invalid_two_factor_code');
  // The refusal is about that code: another unused one still works on the same challenge.
  const other = await second.client.post('/auth/login/2fa', { challenge: second.challenge, code: another });
  assert.equal(other.status, 200, other.text);
});

test('a challenge survives 4 wrong codes', async () => {
  const owner = await ownerWithTwoFactor();
  const { client, challenge } = await passwordStep(owner.email);
  for (let i = 0; i < 4; i++) {
    assertProblem(await client.post('/auth/login/2fa', { challenge, code: wrongTotp(t, owner.secret) }), 401, 'invalid_two_factor_code');
  }
  const signedIn = await client.post('/auth/login/2fa', { challenge, code: totpNow(t, owner.secret) });
  assert.equal(signedIn.status, 200, signedIn.text);
});

test('a challenge dies after 5 wrong codes: the right code then fails', async () => {
  const owner = await ownerWithTwoFactor();
  const { client, challenge } = await passwordStep(owner.email);
  for (let i = 0; i < 5; i++) {
    assertProblem(await client.post('/auth/login/2fa', { challenge, code: wrongTotp(t, owner.secret) }), 401, 'invalid_two_factor_code');
  }
  const refused = await client.post('/auth/login/2fa', { challenge, code: totpNow(t, owner.secret) });
  assertProblem(refused, 401, 'invalid_challenge');
  assert.equal(sessionCookieLine(refused), undefined);
});

test('a challenge works just before 5 minutes', async () => {
  const owner = await ownerWithTwoFactor();
  const { client, challenge } = await passwordStep(owner.email);
  t.clock.advance(CHALLENGE_TTL - MARGIN);
  const signedIn = await client.post('/auth/login/2fa', { challenge, code: totpNow(t, owner.secret) });
  assert.equal(signedIn.status, 200, signedIn.text);
});

test('a challenge fails at 5 minutes', async () => {
  const owner = await ownerWithTwoFactor();
  const { client, challenge } = await passwordStep(owner.email);
  t.clock.advance(CHALLENGE_TTL);
  assertProblem(await client.post('/auth/login/2fa', { challenge, code: totpNow(t, owner.secret) }), 401, 'invalid_challenge');
});

test('an unknown challenge is refused; the code is at most 20 characters', async () => {
  const owner = await ownerWithTwoFactor();
  assertProblem(await t.client().post('/auth/login/2fa', { challenge: 'not-a-challenge', code: totpNow(t, owner.secret) }), 401, 'invalid_challenge');
  const { client, challenge } = await passwordStep(owner.email);
  assertInvalid(await client.post('/auth/login/2fa', { challenge, code: '1'.repeat(21) }), 'body.code');
  assertInvalid(await client.post('/auth/login/2fa', { challenge }), 'body.code');
  // A recovery code written with spaces instead of the dash fits in 20 and is accepted.
  const spaced = ` ${owner.recoveryCodes[0]!.replace('-', ' ')} `;
  assert.ok(spaced.length <= 20);
  const signedIn = await client.post('/auth/login/2fa', { challenge, code: spaced });
  assert.equal(signedIn.status, 200, signedIn.text);
});
