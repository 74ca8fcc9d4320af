// The Authorization reader every verified request goes through (issue 28 read the usual header by
// hand): it must accept and refuse exactly what RFC 6750's `Bearer <token>` expression does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bearerToken } from '../src/signin/protected-resource.js';

const byExpression = (authorization: string | null | undefined) => (authorization ? /^Bearer +(\S+) *$/i.exec(authorization)?.[1] : undefined);

test('bearerToken reads the same token as the Bearer expression, for usual and unusual headers', () => {
  const key = 'wx_0123456789ABCDEFGHIJabcdefghij0123456789ABCDEF';
  const headers = [
    undefined, null, '', 'Bearer', 'Bearer ', 'Bearer  ', `Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`, `bEaReR ${key}`,
    `Bearer  ${key}`, `Bearer ${key} `, `Bearer ${key}  `, `Bearer ${key} x`, `Bearer\t${key}`, `Bearer ${key}\t`, `Bearer\u00a0${key}`,
    `Bearer ${key}\u00a0`, `Bearer ${key}\n`, `Bearerx${key}`, `Basic ${key}`, ` Bearer ${key}`, `Bearer a.b.c`, 'Bearer ~!', 'Bearer é',
    `Bearer ${key}\u2028`, `Bearer \ufeff${key}`, 'Bearer x', 'Bearex x', 'Cearer x', 'Bearer\u0000x',
  ];
  for (const header of headers) assert.equal(bearerToken(header), byExpression(header), JSON.stringify(header));
  // Every character a header byte can be, alone and inside a token.
  for (let c = 0; c < 0x3000; c++) {
    const ch = String.fromCharCode(c);
    for (const header of [`Bearer ${ch}`, `Bearer a${ch}b`, `Bearer ab${ch}`, `${ch}earer ab`, `Bearer${ch}ab`]) {
      assert.equal(bearerToken(header), byExpression(header), JSON.stringify(header));
    }
  }
});
