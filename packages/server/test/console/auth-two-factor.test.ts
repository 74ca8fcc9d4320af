// Turning authenticator two-factor on and off (spec 2.4 TotpSetupBody, RecoveryBody,
// TotpDisableInBody; 5.1): setup, enable, disable, new recovery codes. Signing in with a second
// factor is in auth-two-factor-login.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertInvalid, assertProblem, sessionCookieLine } from '../support/assertions.js';
import type { TestClient } from '../support/client.js';
import { wrongTotp } from '../support/codes.js';
import { enableTwoFactor, PASSWORD, signUp, totpNow } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/** One authenticator step: the next code is a new one, not a replay. */
const STEP = 30_000;

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

async function twoFactorIsOn(client: TestClient): Promise<boolean> {
  const me = await client.get('/me');
  assert.equal(me.status, 200, me.text);
  return me.body.user.two_factor;
}

/** Signs in with password and second factor; returns the 2fa step's answer. */
async function loginWithSecondFactor(email: string, code: string) {
  const client = t.client();
  const first = await client.post('/auth/login', { email, password: PASSWORD });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.two_factor_required, true);
  return client.post('/auth/login/2fa', { challenge: first.body.challenge, code });
}

test('setup answers a base32 secret and an otpauth URI carrying it', async () => {
  const owner = await signUp(t);
  const setup = await owner.client.post('/me/2fa/setup');
  assert.equal(setup.status, 200, setup.text);
  assert.match(setup.body.secret, /^[A-Z2-7]+=*$/);
  assert.ok(setup.body.secret.length >= 16, 'at least 80 bits');
  const uri = new URL(setup.body.uri);
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.host, 'totp');
  assert.equal(uri.searchParams.get('secret'), setup.body.secret);
  assert.equal(uri.searchParams.get('issuer'), 'Gatehouse');
  assert.ok(decodeURIComponent(uri.pathname).includes(owner.email), `the label names the account: ${uri.pathname}`);
  // Setup alone does not turn it on.
  assert.equal(await twoFactorIsOn(owner.client), false);
  const login = await t.client().post('/auth/login', { email: owner.email, password: PASSWORD });
  assert.equal(login.body.two_factor_required, false);
});

test('enable: a wrong code answers 401 and leaves it off; the right code answers 10 recovery codes', async () => {
  const owner = await signUp(t);
  const setup = await owner.client.post('/me/2fa/setup');
  assertProblem(await owner.client.post('/me/2fa/enable', { code: wrongTotp(t, setup.body.secret) }), 401, 'invalid_two_factor_code');
  assert.equal(await twoFactorIsOn(owner.client), false);

  const enabled = await owner.client.post('/me/2fa/enable', { code: totpNow(t, setup.body.secret) });
  assert.equal(enabled.status, 200, enabled.text);
  const codes: string[] = enabled.body.recovery_codes;
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10, 'the codes differ');
  for (const code of codes) assert.ok(code.length <= 20, 'a recovery code fits the 2fa step');
  assert.equal(await twoFactorIsOn(owner.client), true);
});

test('enable: before setup answers 409; a code longer than 20 characters is refused', async () => {
  const owner = await signUp(t);
  assertProblem(await owner.client.post('/me/2fa/enable', { code: '123456' }), 409, 'two_factor_not_set_up');
  assertInvalid(await owner.client.post('/me/2fa/enable', { code: '1'.repeat(21) }), 'body.code');
  assertInvalid(await owner.client.post('/me/2fa/enable', {}), 'body.code');
});

test('setup while two-factor is on answers 409 and keeps the authenticator', async () => {
  const owner = await signUp(t);
  const { secret } = await enableTwoFactor(t, owner.client);
  assertProblem(await owner.client.post('/me/2fa/setup'), 409, 'two_factor_already_on');
  t.clock.advance(STEP);
  const signedIn = await loginWithSecondFactor(owner.email, totpNow(t, secret));
  assert.equal(signedIn.status, 200, signedIn.text);
});

test('disable needs both the password and a code', async () => {
  const owner = await signUp(t);
  const { secret } = await enableTwoFactor(t, owner.client);
  t.clock.advance(STEP);

  assertProblem(await owner.client.post('/me/2fa/disable', { password: `${PASSWORD}!`, code: totpNow(t, secret) }), 403, 'wrong_password');
  assertProblem(await owner.client.post('/me/2fa/disable', { password: PASSWORD, code: wrongTotp(t, secret) }), 401, 'invalid_two_factor_code');
  assertInvalid(await owner.client.post('/me/2fa/disable', { password: PASSWORD }), 'body.code');
  assertInvalid(await owner.client.post('/me/2fa/disable', { code: totpNow(t, secret) }), 'body.password');
  assert.equal(await twoFactorIsOn(owner.client), true);

  const disabled = await owner.client.post('/me/2fa/disable', { password: PASSWORD, code: totpNow(t, secret) });
  assert.equal(disabled.status, 200, disabled.text);
  assert.deepEqual(disabled.body, { ok: true });
  assert.equal(await twoFactorIsOn(owner.client), false);

  const login = await t.client().post('/auth/login', { email: owner.email, password: PASSWORD });
  assert.equal(login.body.two_factor_required, false);
  assert.ok(sessionCookieLine(login));
  assertProblem(await owner.client.post('/me/2fa/disable', { password: PASSWORD, code: totpNow(t, secret) }), 409, 'two_factor_not_on');
});

test('new recovery codes replace the old ones', async () => {
  const owner = await signUp(t);
  const { secret, recoveryCodes: old } = await enableTwoFactor(t, owner.client);
  t.clock.advance(STEP);

  assertProblem(await owner.client.post('/me/2fa/recovery-codes', { code: wrongTotp(t, secret) }), 401, 'invalid_two_factor_code');
  // Only an authenticator code makes new ones, not a recovery code.
  assertProblem(await owner.client.post('/me/2fa/recovery-codes', { code: old[0] }), 401, 'invalid_two_factor_code');

  const renewed = await owner.client.post('/me/2fa/recovery-codes', { code: totpNow(t, secret) });
  assert.equal(renewed.status, 200, renewed.text);
  const fresh: string[] = renewed.body.recovery_codes;
  assert.equal(fresh.length, 10);
  assert.equal(fresh.filter((code) => old.includes(code)).length, 0, 'all codes are new');

  assertProblem(await loginWithSecondFactor(owner.email, old[1]!), 401, 'invalid_two_factor_code');
  const signedIn = await loginWithSecondFactor(owner.email, fresh[0]!);
  assert.equal(signedIn.status, 200, signedIn.text);
});

test('two-factor routes need a session', async () => {
  const anonymous = t.client();
  assertProblem(await anonymous.post('/me/2fa/setup'), 401, 'not_signed_in');
  assertProblem(await anonymous.post('/me/2fa/enable', { code: '123456' }), 401, 'not_signed_in');
  assertProblem(await anonymous.post('/me/2fa/disable', { password: PASSWORD, code: '123456' }), 401, 'not_signed_in');
  assertProblem(await anonymous.post('/me/2fa/recovery-codes', { code: '123456' }), 401, 'not_signed_in');
});
