// Cursors carry a time; one the service never made must answer 422 naming the query field, never
// 500 (a cursor dated year 0000 answered 500 on PGlite). Every list that takes a cursor is tried.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeCursor, encodeCursor } from '../../src/platform/cursor.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi } from '../support/money.js';

const forged = (time: string, id = 'cus_x') => Buffer.from(`${time}|${id}`).toString('base64url');

test('a cursor holds a time from 1970 to 9999: both sides of each end', () => {
  for (const time of ['1970-01-01T00:00:00.000Z', '2026-11-24T12:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
    assert.deepEqual(decodeCursor(forged(time)), { at: new Date(time), id: 'cus_x' }, time);
  }
  for (const time of ['1969-12-31T23:59:59.999Z', '0000-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z', '1000-06-15T00:00:00.000Z']) {
    assert.equal(decodeCursor(forged(time)), null, time);
  }
  const at = new Date('2030-01-02T03:04:05.006Z');
  assert.deepEqual(decodeCursor(encodeCursor(at, 'led_1')), { at, id: 'led_1' }, 'what encodeCursor writes is read back');
});

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('every list answers a cursor dated out of range with 422 naming the field, on both databases', async () => {
  const api = await createApi(t);
  const client = api.owner.client;
  const lists: [string, string][] = [
    [`/apis/${api.apiId}/customers?cursor=`, 'query.cursor'],
    [`/apis/${api.apiId}/ledger?cursor=`, 'query.cursor'],
    [`/apis/${api.apiId}/signin/people?cursor=`, 'query.cursor'],
    [`/workspaces/${api.owner.workspaceId}/audit?before=`, 'query.before'],
  ];
  for (const [path, field] of lists) {
    for (const time of ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z']) {
      const answer = await client.get(path + forged(time));
      assert.equal(answer.status, 422, `${path} ${time}: ${answer.text}`);
      assert.equal(answer.body.errors?.[0]?.location, field, `${path} ${time}`);
    }
    const earliest = await client.get(path + forged('1970-01-01T00:00:00.000Z'));
    assert.equal(earliest.status, 200, `${path}: ${earliest.text}`);
  }
});
