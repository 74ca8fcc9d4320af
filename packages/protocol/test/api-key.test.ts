import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API_KEY_PATTERN, crc32, formatApiKey, isWellFormedApiKey, KEY_ALPHABET, KEY_CHECKSUM_LENGTH, keyChecksum } from '../src/index.js';

test('crc32 matches the IEEE check value and zlib', async () => {
  assert.equal(crc32('123456789'), 0xcbf43926);
  const zlib = await import('node:zlib');
  if ('crc32' in zlib) assert.equal(crc32('ghk_hello'), (zlib as unknown as { crc32(s: string): number }).crc32('ghk_hello'));
});

test('the checksum is CRC-32 in base 62, most significant first, padded to 6', () => {
  assert.equal(keyChecksum(''), '000000');
  // CRC-32 of "123456789" is the check value 0xcbf43926 = 3421780262, which is 3jZRME in base 62.
  assert.equal(keyChecksum('123456789'), '3jZRME');
});

test('a formatted key is well formed; any change to it is not', () => {
  const key = formatApiKey('acme', 'A'.repeat(20) + 'b'.repeat(20));
  assert.match(key, /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/);
  assert.equal(isWellFormedApiKey(key), true);
  const flipped = key.slice(0, 10) + (key[10] === 'A' ? 'B' : 'A') + key.slice(11);
  assert.equal(isWellFormedApiKey(flipped), false, 'checksum catches a typo');
  assert.equal(isWellFormedApiKey(key + 'x'), false);
  assert.equal(isWellFormedApiKey('eyJhbGciOi.eyJzdWIiOi.sig'), false, 'a JWT is not a key');
});

test('prefix bounds: 2 to 10 lowercase letters or digits, starting with a letter', () => {
  const random = 'x'.repeat(40);
  assert.ok(formatApiKey('ab', random));
  assert.ok(formatApiKey('abcdefghij', random));
  assert.throws(() => formatApiKey('a', random));
  assert.throws(() => formatApiKey('abcdefghijk', random));
  assert.throws(() => formatApiKey('1ab', random));
  assert.throws(() => formatApiKey('Ab', random));
  assert.throws(() => formatApiKey('ab', 'x'.repeat(39)));
});

test('isWellFormedApiKey agrees with API_KEY_PATTERN and keyChecksum on near-miss keys', () => {
  const byDefinition = (v: string) => API_KEY_PATTERN.test(v) && keyChecksum(v.slice(0, -KEY_CHECKSUM_LENGTH)) === v.slice(-KEY_CHECKSUM_LENGTH);
  const characters = KEY_ALPHABET + '_-.~ /:=+é\u0100\ud83d';
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const randomText = (length: number) => Array.from({ length }, () => KEY_ALPHABET[random(62)]).join('');
  const prefixes = ['ab', 'k9', 'acme', 'ghk', 'abcdefghij', 'z0z0z0z0z0'];
  let wellFormed = 0;
  for (let round = 0; round < 20_000; round++) {
    let key = formatApiKey(prefixes[random(prefixes.length)]!, randomText(40));
    const at = random(key.length + 1);
    const character = characters[random(characters.length)]!;
    const edit = random(5);
    if (edit === 0) key = key.slice(0, at) + character + key.slice(at + 1);
    else if (edit === 1) key = key.slice(0, at) + key.slice(at + 1);
    else if (edit === 2) key = key.slice(0, at) + character + key.slice(at);
    if (edit !== 3 && random(2) === 0 && key.length > KEY_CHECKSUM_LENGTH) {
      // A valid checksum over the edited body, so only the shape can refuse it.
      const body = key.slice(0, -KEY_CHECKSUM_LENGTH);
      key = body + keyChecksum(body);
    }
    const expected = byDefinition(key);
    if (expected) wellFormed++;
    assert.equal(isWellFormedApiKey(key), expected, key);
  }
  assert.ok(wellFormed > 1_000 && wellFormed < 19_000, `a mix of good and bad keys (${wellFormed} good)`);
});
