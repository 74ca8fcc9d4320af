// "Works once" under concurrency (spec 2.4 and 5.1; RFC 6238 5.2): two requests carrying the same
// code, ticket or address at the same moment, as a double-clicked button or an attacker replaying
// a captured code would send them. Each must succeed exactly once, and the loser gets the answer
// a later request would get, never a 500. PGlite runs transactions one at a time, so the races
// only really meet on PostgreSQL; there they caught the bugs noted in the tests below.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Answer } from '../support/client.js';
import { requestCode, ticketFor, verifyCode } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

/** Asserts one answer succeeded and the other got `loserStatus`. */
function assertOneWins(answers: Answer[], loserStatus: number): void {
  assert.deepEqual(
    answers.map((answer) => answer.status).sort(),
    [200, loserStatus].sort(),
    answers.map((answer) => answer.text).join('\n'),
  );
}

async function challengeFor(email: string) {
  const client = t.client();
  const answer = await client.post('/auth/login', { email, password: PASSWORD });
  assert.equal(answer.body.two_factor_required, true, answer.text);
  return { client, challenge: answer.body.challenge as string };
}

test('one e-mailed code verified twice at once buys one ticket', async () => {
  const email = uniqueEmail();
  const code = await requestCode(t, t.client(), 'signup', email);
  assertOneWins(await Promise.all([verifyCode(t.client(), 'signup', email, code), verifyCode(t.client(), 'signup', email, code)]), 401);
});

test('one ticket completed twice at once makes one account', async () => {
  const { ticket } = await ticketFor(t, t.client(), 'signup', uniqueEmail());
  const complete = () => t.client().post('/auth/signup/complete', { ticket, name: 'Racer', password: PASSWORD });
  assertOneWins(await Promise.all([complete(), complete()]), 401);
});

test('two tickets for one address: the second account is refused with 409, at once or later', async () => {
  // Fixed: the concurrent case answered 500, the unique index refusing the second insert.
  for (const atOnce of [false, true]) {
    const email = uniqueEmail();
    const first = await ticketFor(t, t.client(), 'signup', email);
    const second = await ticketFor(t, t.client(), 'signup', email);
    const complete = (ticket: string) => t.client().post('/auth/signup/complete', { ticket, name: 'Racer', password: PASSWORD });
    const answers = atOnce
      ? await Promise.all([complete(first.ticket), complete(second.ticket)])
      : [await complete(first.ticket), await complete(second.ticket)];
    assertOneWins(answers, 409);
    assert.equal(answers.find((answer) => answer.status === 409)!.body.type, 'urn:gatehouse:problem:email_taken');
  }
});

test('one authenticator code sent on two challenges at once signs in once', async () => {
  // Fixed: both sign-ins read the old last step, both passed, and the code was accepted twice.
  const owner = await signUp(t);
  const { secret } = await enableTwoFactor(t, owner.client);
  t.clock.advance(30_000);
  const code = totpNow(t, secret);
  const [a, b] = [await challengeFor(owner.email), await challengeFor(owner.email)];
  assertOneWins(await Promise.all([a, b].map(({ client, challenge }) => client.post('/auth/login/2fa', { challenge, code }))), 401);
});

test('one recovery code sent on two challenges at once signs in once', async () => {
  const owner = await signUp(t);
  const { recoveryCodes } = await enableTwoFactor(t, owner.client);
  const [a, b] = [await challengeFor(owner.email), await challengeFor(owner.email)];
  const code = recoveryCodes[0];
  assertOneWins(await Promise.all([a, b].map(({ client, challenge }) => client.post('/auth/login/2fa', { challenge, code }))), 401);
});

test('one authenticator code cannot make new recovery codes twice at once', async () => {
  // Fixed: both requests passed the step check, and the first answer's codes were silently replaced.
  const owner = await signUp(t);
  const { secret } = await enableTwoFactor(t, owner.client);
  t.clock.advance(30_000);
  const code = totpNow(t, secret);
  assertOneWins(await Promise.all([owner.client.post('/me/2fa/recovery-codes', { code }), owner.client.post('/me/2fa/recovery-codes', { code })]), 401);
});
