import { formatApiKey, isWellFormedApiKey, KEY_RANDOM_LENGTH } from '@gatehouse/protocol';
import { constantTimeEqual, sha256Hex } from '../platform/crypto.js';
import { randomBase62 } from '../platform/ids.js';

/** How many random characters of a key its visible start shows (after the prefix). */
const START_CHARACTERS = 4;

export interface NewKeySecret {
  /** The whole key, shown once (spec 2.7). */
  secret: string;
  /** SHA-256 hex of the whole key: all that is stored. */
  hash: string;
  /** Prefix, underscore and the first random characters: what lists and audit events show. */
  start: string;
}

/** A new key in the spec 4.4 format: `<prefix>_<40 random><6 checksum>`, 238 random bits. */
export function newKeySecret(prefix: string): NewKeySecret {
  const random = randomBase62(KEY_RANDOM_LENGTH);
  const secret = formatApiKey(prefix, random);
  return { secret, hash: sha256Hex(secret), start: `${prefix}_${random.slice(0, START_CHARACTERS)}` };
}

/**
 * The hash to look a presented value up by, or null when it cannot be one of our keys: a value
 * with the wrong shape or checksum is refused without asking the database (spec 4.4).
 */
export function presentedKeyHash(value: string): string | null {
  return isWellFormedApiKey(value) ? sha256Hex(value) : null;
}

/** Which of a key's secrets a presented hash opens, compared in constant time. */
export function matchingSecret(
  hash: string,
  key: { secret_hash: string; previous_secret_hash: string | null; previous_secret_expires_at: Date | null },
  now: Date,
): 'current' | 'previous' | null {
  const current = constantTimeEqual(hash, key.secret_hash);
  const previous =
    key.previous_secret_hash !== null && key.previous_secret_expires_at !== null && key.previous_secret_expires_at > now && constantTimeEqual(hash, key.previous_secret_hash);
  return current ? 'current' : previous ? 'previous' : null;
}
