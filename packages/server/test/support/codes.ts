import { sql } from 'kysely';
import assert from 'node:assert/strict';
import type { TestClient } from './client.js';
import { totpNow } from './flows.js';
import type { TestApp } from './harness.js';
import { codeIn, type ReceivedMail } from './mailbox.js';

/** The two flows that start with an e-mailed code (spec 5.1): sign-up and password reset. */
export type CodeFlow = 'signup' | 'reset';

const flowPaths: Record<CodeFlow, { send: string; verify: string; subject: RegExp }> = {
  signup: { send: '/auth/signup', verify: '/auth/signup/verify', subject: /sign-up code/ },
  reset: { send: '/auth/password/forgot', verify: '/auth/password/verify', subject: /password reset code/ },
};

/**
 * Asks for a code and returns the one the mail carries. Earlier mails to the address are taken
 * out of the box first, so a second request returns the newer code, not the old mail.
 */
export async function requestCode(t: TestApp, client: TestClient, flow: CodeFlow, email: string): Promise<string> {
  t.mail.take(email);
  const sent = await client.post(flowPaths[flow].send, { email });
  assert.equal(sent.status, 200, sent.text);
  return codeIn(await t.mail.waitFor(email, flowPaths[flow].subject));
}

/** Trades a code for a ticket and returns the verify step's answer. */
export function verifyCode(client: TestClient, flow: CodeFlow, email: string, code: string) {
  return client.post(flowPaths[flow].verify, { email, code });
}

/** Code by mail, then the verify step: a fresh one-time ticket. */
export async function ticketFor(t: TestApp, client: TestClient, flow: CodeFlow, email: string): Promise<{ ticket: string; expires_at: string }> {
  const code = await requestCode(t, client, flow, email);
  const verified = await verifyCode(client, flow, email, code);
  assert.equal(verified.status, 200, verified.text);
  return verified.body;
}

/** A six-digit code that is none of `codes` (a wrong guess that cannot be right by chance). */
export function otherCode(...codes: string[]): string {
  for (let n = 0; ; n++) {
    const candidate = String((Number(codes[0] ?? '0') + 1 + n) % 1_000_000).padStart(6, '0');
    if (!codes.includes(candidate)) return candidate;
  }
}

/** An authenticator code that is wrong at the app clock's time, even allowing for drift. */
export function wrongTotp(t: TestApp, secret: string): string {
  return otherCode(...[-2, -1, 0, 1, 2].map((offset) => totpNow(t, secret, offset)));
}

/**
 * Waits until every mail the app queued for `to` was delivered, then returns what the test's SMTP
 * server holds for that address. Mail is queued in the transaction of the request that causes it,
 * so once that request has answered, the outbox table holds every mail there will be; each one
 * marked sent has been accepted by the SMTP server. This is how a test shows that a mail was not
 * sent, without waiting for a while and hoping.
 */
export async function settledMail(t: TestApp, to: string, timeoutMs = 10_000): Promise<ReceivedMail[]> {
  const address = to.toLowerCase();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await t.services.db
      .selectFrom('mail_outbox')
      .select('id')
      .where(sql`lower(to_address)`, '=', address)
      .where('sent_at', 'is', null)
      .execute();
    if (pending.length === 0) return t.mail.received.filter((mail) => mail.to === address);
    if (Date.now() > deadline) throw new Error(`${pending.length} mails to ${to} still unsent after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
