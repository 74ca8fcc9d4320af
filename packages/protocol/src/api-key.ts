import { crc32 } from './crc32.js';

// Spec 4.4: key = <prefix>_<40 random characters><6 character checksum>.
export const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_RANDOM_LENGTH = 40;
export const KEY_CHECKSUM_LENGTH = 6;
export const KEY_PREFIX_PATTERN = /^[a-z][a-z0-9]{1,9}$/;
export const API_KEY_PATTERN = /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/;

/** The checksum of spec 4.4: CRC-32 of everything before it, base 62, most significant first, padded to 6. */
export function keyChecksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    out = KEY_ALPHABET[value % 62]! + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/**
 * Whether `value` has the shape and checksum of an API key. A value with dots is a JWT, never a key.
 * @example isWellFormedApiKey('ghk_' + 'A'.repeat(40) + keyChecksum('ghk_' + 'A'.repeat(40)))
 */
export function isWellFormedApiKey(value: string): boolean {
  if (value.length > 57 || !API_KEY_PATTERN.test(value)) return false;
  const body = value.slice(0, value.length - KEY_CHECKSUM_LENGTH);
  return keyChecksum(body) === value.slice(value.length - KEY_CHECKSUM_LENGTH);
}

/**
 * Builds a key from a prefix and 40 random alphabet characters. Randomness is the caller's, so the
 * protocol package stays free of platform crypto and deterministic in tests.
 */
export function formatApiKey(prefix: string, random40: string): string {
  if (!KEY_PREFIX_PATTERN.test(prefix)) throw new RangeError(`invalid key prefix: ${prefix}`);
  if (random40.length !== KEY_RANDOM_LENGTH || !/^[0-9A-Za-z]+$/.test(random40)) {
    throw new RangeError('the random part must be 40 characters of 0-9A-Za-z');
  }
  const body = `${prefix}_${random40}`;
  return body + keyChecksum(body);
}
