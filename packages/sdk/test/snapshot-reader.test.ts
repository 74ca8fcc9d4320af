// The snapshot read as it arrives (snapshot-reader.ts): whatever the pieces the text comes in, the
// streamed arrays' elements and the other top fields are exactly what JSON.parse reads from the
// whole text, and a text that is not a whole JSON object is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SnapshotParser, type StreamedField } from '../src/snapshot-reader.js';

const body = {
  generated_at: '2026-11-27T14:00:00.000Z',
  tenant_name: 'Quotes " and \\ backslashes \\" and ] } [ { , : inside strings, and \u00e9\u4e2d\ud83d\ude00',
  billable_status_codes: [200, 201],
  platform_monthly_limit: 1000,
  platform_hard_cap: false,
  nothing: null,
  customers: [
    { id: 'c1', status: 'active', effective: { rps: 0, monthly_quota: null }, note: 'a } b ] c' },
    { id: 'c2\\"', status: 'suspended', effective: { rps: 2.5, monthly_quota: 0 } },
  ],
  keys: [{ id: 'k1', customer_id: 'c1', key_hash: 'ab'.repeat(32) }],
  signin: { issuer: 'https://x', servers: [{ id: 's', permissions: ['a', 'b'] }] },
  members: [],
  sync_cursor: '42',
};

function read(pieces: string[]) {
  const got: Record<StreamedField, unknown[]> = { customers: [], keys: [], members: [] };
  const parser = new SnapshotParser({ element: (field, value) => got[field].push(value) });
  for (const piece of pieces) parser.write(piece);
  return { top: parser.end(), got };
}

test('every way of cutting the text gives what JSON.parse gives', () => {
  const text = JSON.stringify(body, null, 1);
  for (let size = 1; size <= text.length; size += size < 20 ? 1 : 37) {
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
    const { top, got } = read(pieces);
    const { customers, keys, members, ...rest } = body;
    assert.deepEqual(got, { customers, keys, members }, `pieces of ${size}`);
    assert.deepEqual(top, { ...rest, customers: true, keys: true, members: true }, `pieces of ${size}`);
  }
});

test('a text cut short or not an object is refused', () => {
  const text = JSON.stringify(body);
  assert.throws(() => read([text.slice(0, text.length - 1)]), SyntaxError);
  assert.throws(() => read([text.slice(0, 200)]), SyntaxError);
  assert.throws(() => read(['[1,2]']), SyntaxError);
  assert.throws(() => read([text + '{}']), SyntaxError);
});
