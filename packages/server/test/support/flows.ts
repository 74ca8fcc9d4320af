import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import type { TestClient } from './client.js';
import type { TestApp } from './harness.js';
import { codeIn } from './mailbox.js';

let counter = 0;
/** A unique address for this test process. */
export function uniqueEmail(label = 'owner'): string {
  counter++;
  return `${label}-${process.pid}-${counter}-${Date.now()}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export interface SignedUp {
  client: TestClient;
  email: string;
  userId: string;
  workspaceId: string;
}

/** The whole sign-up: code by mail, ticket, account. Returns a signed-in client. */
export async function signUp(t: TestApp, options: { email?: string; name?: string; password?: string } = {}): Promise<SignedUp> {
  const email = options.email ?? uniqueEmail();
  const client = t.client();
  assert.equal((await client.post('/auth/signup', { email })).status, 200);
  const code = codeIn(await t.mail.waitFor(email, /sign-up code/));
  const verified = await client.post('/auth/signup/verify', { email, code });
  assert.equal(verified.status, 200, verified.text);
  const done = await client.post('/auth/signup/complete', { ticket: verified.body.ticket, name: options.name ?? 'Ada Owner', password: options.password ?? PASSWORD });
  assert.equal(done.status, 200, done.text);
  return { client, email, userId: done.body.user.id, workspaceId: done.body.workspace_id };
}

/** The authenticator code at the app clock's time, as a phone would show it. */
export function totpNow(t: TestApp, secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: t.clock.now().getTime() + offsetSteps * 30_000 });
}

/** Turns two-factor on for a signed-in client; returns the seed and recovery codes. */
export async function enableTwoFactor(t: TestApp, client: TestClient): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.post('/me/2fa/setup');
  assert.equal(setup.status, 200, setup.text);
  const enabled = await client.post('/me/2fa/enable', { code: totpNow(t, setup.body.secret) });
  assert.equal(enabled.status, 200, enabled.text);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recovery_codes };
}
