import * as crypto from 'node:crypto';

/**
 * SHA-256 of a key as lowercase hex: the `key_hash` of the snapshot (wire protocol section 2).
 * `crypto.hash` (Node >= 20.12) hashes in one call, about twice as fast as a Hash object, and this
 * runs on every request; older Node 20 releases use createHash. Both read the string as UTF-8.
 */
export const keyHash: (key: string) => string =
  typeof crypto.hash === 'function'
    ? (key) => crypto.hash('sha256', key, 'hex')
    : (key) => crypto.createHash('sha256').update(key).digest('hex');
