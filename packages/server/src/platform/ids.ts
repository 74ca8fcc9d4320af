import { randomBytes, randomInt } from 'node:crypto';
import { KEY_ALPHABET } from '@gatehouse/protocol';

/** Random text over 0-9A-Za-z, uniformly drawn (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 62 * 4 = 248: bytes at or above it would bias the low characters.
      if (byte < 248) out += KEY_ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdKind = 'usr' | 'ws' | 'inv' | 'wsk' | 'ses' | 'aud' | 'eml' | 'tkt' | 'chl' | 'rcv' | 'mail';

/** IDs with a type prefix (DESIGN section 9), 20 random characters: 119 bits. */
export function newId(kind: IdKind | (string & {})): string {
  return `${kind}_${randomBase62(20)}`;
}

/** A six-digit code for e-mail verification, every value equally likely. */
export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
