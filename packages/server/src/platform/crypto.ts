import { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

export function sha256Hex(value: string): string {
  // One call, no Hash object: every introspection hashes the caller's secret and often a token
  // (issue 28's profile: the Hash object's construction alone was 1.3 % of an introspection).
  return hash('sha256', value, 'hex');
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** A URL-safe token of 256 bits for sessions, tickets, invitations and challenges. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

// argon2id with the parameters OWASP lists first (19 MiB, 2 passes, 1 lane).
const argon2Options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, argon2Options);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(stored, password);
  } catch {
    return false;
  }
}

// A real hash to verify against when the account does not exist, so a login for an unknown
// address takes as long as one for a known address.
let decoyHash: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword(randomToken());
  await verifyPassword(await decoyHash, password);
  return false;
}

/** AES-256-GCM sealing for secrets that must be shown again (SDK secret, TOTP seed, signing keys). */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError('SecretBox needs a 32-byte key');
  }
  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }
  open(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('sealed value has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
