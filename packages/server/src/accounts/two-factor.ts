import { Secret, TOTP } from 'otpauth';
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';

import type { Trx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { RECOVERY_CODE_COUNT } from './limits.js';
import * as q from './queries.js';

const ISSUER = 'Gatehouse';
const STEP_S = 30;

function totpFor(base32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: STEP_S, secret: Secret.fromBase32(base32) });
}

export function newTotpSecret(label: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpFor(secret, label).toString() };
}

/**
 * Checks an authenticator code at the clock's time, one step either side for drift, and returns
 * its time step. A step at or below `lastStep` was used already: RFC 6238 section 5.2 asks that a
 * code be accepted once.
 */
export function verifyTotp(base32: string, code: string, clock: Clock, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = clock.now().getTime();
  const delta = totpFor(base32, 'check').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now / 1000 / STEP_S) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

// Recovery codes: 10 characters of an unambiguous alphabet, shown as xxxxx-xxxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');
}

export async function issueRecoveryCodes(trx: Trx, userId: string): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < RECOVERY_CODE_COUNT; i++) {
    const bytes = randomBytes(10);
    const raw = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    codes.push(`${raw.slice(0, 5)}-${raw.slice(5)}`);
  }
  await q.replaceRecoveryCodes(trx, userId, codes.map((code) => ({ id: newId('rcv'), code_hash: hashRecoveryCode(code) })));
  return codes;
}

/**
 * Accepts an authenticator code or a recovery code for a person with two-factor on, recording
 * what it spends (the TOTP step, or the recovery code) in the transaction.
 */
export async function spendSecondFactor(
  trx: Trx,
  box: SecretBox,
  clock: Clock,
  user: { id: string; totp_secret_sealed: string | null; totp_last_step: number | null },
  code: string,
): Promise<boolean> {
  if (!user.totp_secret_sealed) return false;
  const step = verifyTotp(box.open(user.totp_secret_sealed), code.trim(), clock, user.totp_last_step);
  if (step !== null) {
    // A conditional claim, not a plain update: with a plain update two concurrent sign-ins with
    // the same code both passed the check above and both succeeded (a replay).
    return (await q.claimTotpStep(trx, user.id, step)) !== undefined;
  }
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length !== 10 || !/^[a-z0-9]+$/.test(normalized)) return false;
  return (await q.useRecoveryCode(trx, user.id, hashRecoveryCode(code), clock.now())) !== undefined;
}

