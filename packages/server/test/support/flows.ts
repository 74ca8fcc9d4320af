import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { normalizeEmail } from '../../src/accounts/accounts.js';
import { insertUser } from '../../src/accounts/queries.js';
import { SESSION_COOKIE } from '../../src/console/http.js';
import { hashPassword } from '../../src/platform/crypto.js';
import { newId } from '../../src/platform/ids.js';
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

/**
 * An owner with a workspace and a signed-in client, written straight to the database: what a
 * sign-up leaves (the account, its workspace with the owner and its `workspace.create` event, a
 * session whose cookie the client holds) without the flow that makes it. The flow costs about
 * 100 ms of CPU (three requests, a mail over SMTP, a password hash), this about 11, and most tests
 * need an owner, not a sign-up; the tests of sign-up and login themselves use `signUpOverHttp`.
 */
export async function signUp(t: TestApp, options: { email?: string; name?: string; password?: string } = {}): Promise<SignedUp> {
  // A node in another process (test/two-nodes) has no services here: its owners sign up over HTTP.
  if (!t.services) return signUpOverHttp(t, options);
  const { db, accounts, workspaces, clock } = t.services;
  const email = options.email ?? uniqueEmail();
  const name = (options.name ?? 'Ada Owner').trim();
  const passwordHash = await passwordHashOf(options.password ?? PASSWORD);
  // As the sign-up route sees the test client: loopback, Node's fetch.
  const client = { ip: '127.0.0.1', userAgent: 'node' };
  const { userId, workspaceId, token } = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    const userId = newId('usr');
    await insertUser(trx, {
      id: userId, email: normalizeEmail(email), name, password_hash: passwordHash, totp_secret_sealed: null, totp_pending_sealed: null, totp_last_step: null,
      password_changed_at: now, created_at: now, updated_at: now,
    });
    const workspace = await workspaces.createWorkspace(trx, { type: 'user', id: userId, name, ip: client.ip }, userId, name);
    const session = await accounts.startSession(trx, userId, workspace.id, client);
    return { userId, workspaceId: workspace.id, token: session.token };
  });
  const signedIn = t.client();
  signedIn.cookies.set(SESSION_COOKIE, token);
  return { client: signedIn, email, userId, workspaceId };
}

// argon2id salts each hash, so one hash of a password verifies for every account that uses it:
// hashed once per test process instead of once per account (about 36 ms of CPU each).
const hashes = new Map<string, Promise<string>>();
export function passwordHashOf(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) hashes.set(password, (hash = hashPassword(password)));
  return hash;
}

/** The whole sign-up over HTTP: code by mail, ticket, account. Returns a signed-in client. */
export async function signUpOverHttp(t: TestApp, options: { email?: string; name?: string; password?: string } = {}): Promise<SignedUp> {
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
