// Hardening item 4: wrong second-factor codes and login challenges are bounded per account,
// whatever the addresses they come from, with a mail to the account's owner; and per-address
// limits count an IPv6 /64 as one network.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertProblem } from '../support/assertions.js';
import { settledMail, wrongTotp } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/** How many wrong codes an account gets per 15 minutes, and challenges (docs/decisions.md). */
const FAILURES_PER_ACCOUNT = 10;
const CHALLENGES_PER_ACCOUNT = 10;

let t: TestApp;
// Behind a trusted proxy the client address comes from X-Forwarded-For, so one test can speak
// from many addresses, as an attacker with a botnet would.
before(async () => (t = await startTestApp({ TRUST_PROXY: 'true' })));
after(() => t.close());

let nextAddress = 1;
const fromAddress = () => ({ 'x-forwarded-for': `198.51.100.${nextAddress++ % 250}` });

async function ownerWithTwoFactor() {
  const owner = await signUp(t);
  const { secret } = await enableTwoFactor(t, owner.client);
  t.clock.advance(30_000);
  return { ...owner, secret };
}

async function challengeFor(email: string) {
  const answer = await t.client().post('/auth/login', { email, password: PASSWORD }, { headers: fromAddress() });
  return answer;
}

test('wrong codes are bounded per account across addresses; the owner gets one mail', async () => {
  const owner = await ownerWithTwoFactor();
  const wrong = wrongTotp(t, owner.secret);
  // Five wrong codes spend a challenge, so two challenges carry the ten, each code from its own address.
  let challenge = '';
  for (let attempt = 1; attempt <= FAILURES_PER_ACCOUNT; attempt++) {
    if (attempt % 5 === 1) challenge = (await challengeFor(owner.email)).body.challenge;
    const answer = await t.client().post('/auth/login/2fa', { challenge, code: wrong }, { headers: fromAddress() });
    assertProblem(answer, 401, 'invalid_two_factor_code');
  }
  // The allowance is used up: a new challenge is refused, and so is the right code on an old one.
  const refusedLogin = await challengeFor(owner.email);
  assertProblem(refusedLogin, 429, 'rate_limited');
  const retryAfter = Number(refusedLogin.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 900, `Retry-After ${retryAfter}`);

  const mails = await settledMail(t, owner.email);
  const paused = mails.filter((mail) => /paused/.test(mail.subject));
  assert.equal(paused.length, 1, 'one mail, when the last failure was spent');
  assert.match(paused[0]!.text, /10 wrong two-factor codes/);

  // Turning two-factor off or making recovery codes shares the same allowance.
  assertProblem(await owner.client.post('/me/2fa/disable', { password: PASSWORD, code: totpNow(t, owner.secret) }), 429, 'rate_limited');
  assertProblem(await owner.client.post('/me/2fa/recovery-codes', { code: totpNow(t, owner.secret) }), 429, 'rate_limited');
});

test('one failure short of the bound, the right code still signs in', async () => {
  const owner = await ownerWithTwoFactor();
  const wrong = wrongTotp(t, owner.secret);
  let challenge = '';
  for (let attempt = 1; attempt < FAILURES_PER_ACCOUNT; attempt++) {
    if (attempt % 5 === 1) challenge = (await challengeFor(owner.email)).body.challenge;
    assertProblem(await t.client().post('/auth/login/2fa', { challenge, code: wrong }, { headers: fromAddress() }), 401, 'invalid_two_factor_code');
  }
  const fresh = (await challengeFor(owner.email)).body.challenge;
  const signedIn = await t.client().post('/auth/login/2fa', { challenge: fresh, code: totpNow(t, owner.secret) }, { headers: fromAddress() });
  assert.equal(signedIn.status, 200, signedIn.text);
  assert.equal((await settledMail(t, owner.email)).filter((mail) => /paused/.test(mail.subject)).length, 0);
});

test('login challenges are bounded per account, even with the right password', async () => {
  const owner = await ownerWithTwoFactor();
  for (let n = 1; n <= CHALLENGES_PER_ACCOUNT; n++) {
    const answer = await challengeFor(owner.email);
    assert.equal(answer.status, 200, `challenge ${n}: ${answer.text}`);
    assert.equal(answer.body.two_factor_required, true);
  }
  assertProblem(await challengeFor(owner.email), 429, 'rate_limited');
  // An account without two-factor mints no challenges and is not bounded this way.
  const plain = await signUp(t);
  for (let n = 1; n <= CHALLENGES_PER_ACCOUNT + 1; n++) assert.equal((await challengeFor(plain.email)).status, 200);
});

test('per-address limits count an IPv6 /64 as one network', async () => {
  // 30 code checks per network per 10 minutes (docs/decisions.md): 30 addresses of one /64 spend
  // them, the 31st address of that /64 is refused, and an address of another /64 is not.
  const verify = (address: string) => t.client().post('/auth/signup/verify', { email: uniqueEmail('v6'), code: '123456' }, { headers: { 'x-forwarded-for': address } });
  for (let n = 1; n <= 30; n++) assertProblem(await verify(`2001:db8:1:2::${n.toString(16)}`), 401, 'invalid_code');
  assertProblem(await verify('2001:db8:1:2:ffff:ffff:ffff:ffff'), 429, 'rate_limited');
  assertProblem(await verify('2001:db8:1:3::1'), 401, 'invalid_code');
});
