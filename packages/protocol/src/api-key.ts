import { crc32 } from './crc32.js';

// Spec 4.4: key = <prefix>_<40 random characters><6 character checksum>.
export const KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_RANDOM_LENGTH = 40;
export const KEY_CHECKSUM_LENGTH = 6;
export const KEY_PREFIX_PATTERN = /^[a-z][a-z0-9]{1,9}$/;
export const API_KEY_PATTERN = /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/;

// The SDK checks every request's key before hashing it (issue 4 asks admit + finish <= 2x a bare
// SHA-256), so the check below reads tables instead of running API_KEY_PATTERN and building the
// checksum's text; a test holds it equal to the pattern and keyChecksum.
const LOWER = 1;
const DIGIT = 2;
const UPPER = 4;
/** The class of each ASCII character: LOWER, DIGIT, UPPER or 0. */
const CHAR_CLASS = new Uint8Array(128);
/** The value of each alphabet character as a base-62 digit. */
const DIGIT_VALUE = new Uint8Array(128);
for (let i = 0; i < KEY_ALPHABET.length; i++) {
  const code = KEY_ALPHABET.charCodeAt(i);
  CHAR_CLASS[code] = i < 10 ? DIGIT : i < 36 ? UPPER : LOWER;
  DIGIT_VALUE[code] = i;
}

function allIn(value: string, from: number, to: number, classes: number): boolean {
  for (let i = from; i < to; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128 || (CHAR_CLASS[code]! & classes) === 0) return false;
  }
  return true;
}

/** Whether `value` matches API_KEY_PATTERN. */
function hasKeyShape(value: string): boolean {
  const length = value.length;
  if (length < 49 || length > 57) return false;
  // '_' is in no class, so the last 46 characters are the random part and the checksum.
  const underscore = length - 47;
  return (
    allIn(value, 0, 1, LOWER) &&
    allIn(value, 1, underscore, LOWER | DIGIT) &&
    value.charCodeAt(underscore) === 0x5f &&
    allIn(value, underscore + 1, length, LOWER | DIGIT | UPPER)
  );
}

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
  if (!hasKeyShape(value)) return false;
  // keyChecksum(body) === suffix, compared as numbers: six base-62 digits write each 32-bit
  // value one way only.
  const end = value.length - KEY_CHECKSUM_LENGTH;
  let written = 0;
  for (let i = end; i < value.length; i++) written = written * 62 + DIGIT_VALUE[value.charCodeAt(i)]!;
  return crc32(value, end) === written;
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
