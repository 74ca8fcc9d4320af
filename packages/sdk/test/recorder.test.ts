// How finished requests merge into usage buckets (wire protocol section 4, "live merging"), with
// and without the hint the meter keeps per key. Pure logic: no server, no file.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_LIVE_COUNT, Recorder, type Bucket, type BucketHint } from '../src/usage/recorder.js';

const KEY_ID = '7d9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7';
const POLICY = '5b0e8c9a-3f4d-4c2b-8a77-1d2e3f405162';
const AT = Date.parse('2026-08-04T00:10:00Z');
const NEXT_HOUR = Date.parse('2026-08-04T01:00:00Z');

const summary = (buckets: Bucket[]) => buckets.map((b) => `${b.status} ${b.hour} ${b.count} ${b.chargeMicro}`).sort();
const newHint = (): BucketHint => ({ bucket: undefined, generation: 0 });

test('requests of one key, policy, status and hour share a bucket, with or without a hint; any difference opens another', () => {
  const hinted = new Recorder(() => {});
  const plain = new Recorder(() => {});
  const hint = newHint();
  const requests: [number, number, number][] = [
    [200, AT, 1_000],
    [200, AT, 1_000],
    [404, AT, 0],
    [200, AT, 1_000],
    [200, NEXT_HOUR, 1_000],
    [404, AT, 0],
  ];
  for (const [status, at, charge] of requests) {
    hinted.record(KEY_ID, POLICY, status, at, charge, 'cus_1', hint);
    plain.record(KEY_ID, POLICY, status, at, charge, 'cus_1');
  }
  const expected = ['200 2026-08-04T00:00:00Z 3 3000', '200 2026-08-04T01:00:00Z 1 1000', '404 2026-08-04T00:00:00Z 2 0'];
  assert.deepEqual(summary(hinted.seal()), expected);
  assert.deepEqual(summary(plain.seal()), expected);
  assert.equal(hinted.pendingRequests, 6);
  // Another policy of the same key (terms changed) is a bucket of its own.
  hinted.record(KEY_ID, null, 200, AT, 1_000, 'cus_1', hint);
  assert.equal(hinted.openBuckets, 1);
});

test('a hint never adds to a bucket once it is sealed: the next request opens a new bucket under a new key', () => {
  const recorder = new Recorder(() => {});
  const hint = newHint();
  recorder.record(KEY_ID, POLICY, 200, AT, 1_000, 'cus_1', hint);
  recorder.record(KEY_ID, POLICY, 200, AT, 1_000, 'cus_1', hint);
  const [sent] = recorder.seal();
  assert.equal(sent!.count, 2);
  recorder.record(KEY_ID, POLICY, 200, AT, 1_000, 'cus_1', hint);
  assert.equal(sent!.count, 2, 'the sealed bucket keeps the count it was sent with');
  const buckets = recorder.seal();
  assert.equal(buckets.length, 2);
  const fresh = buckets.find((b) => b !== sent)!;
  assert.equal(fresh.count, 1);
  assert.notEqual(fresh.key, sent!.key);
});

test(`a bucket holds at most ${MAX_LIVE_COUNT} requests; the next one opens another, hint or not`, () => {
  for (const hint of [newHint(), undefined]) {
    const recorder = new Recorder(() => {});
    for (let i = 0; i < MAX_LIVE_COUNT; i++) recorder.record(KEY_ID, POLICY, 200, AT, 1, 'cus_1', hint);
    assert.equal(recorder.openBuckets, 1);
    assert.equal(recorder.sealed.size, 0);
    recorder.record(KEY_ID, POLICY, 200, AT, 1, 'cus_1', hint);
    assert.equal(recorder.sealed.size, 1, 'the full bucket is sealed');
    assert.deepEqual([...recorder.sealed.values()].map((b) => b.count), [MAX_LIVE_COUNT]);
    assert.deepEqual(summary(recorder.seal()), [`200 2026-08-04T00:00:00Z 1 1`, `200 2026-08-04T00:00:00Z ${MAX_LIVE_COUNT} ${MAX_LIVE_COUNT}`]);
  }
});

test('a hint goes stale when the usage is handed over: later requests land in buckets that are still this recorder\'s', () => {
  const recorder = new Recorder(() => {});
  const hint = newHint();
  recorder.record(KEY_ID, POLICY, 200, AT, 1_000, 'cus_1', hint);
  for (const bucket of recorder.takeDirty()) {
    bucket.committedCount = bucket.count;
    bucket.committedMicro = bucket.chargeMicro;
  }
  const handed = recorder.handOver();
  assert.equal(handed.length, 1);
  recorder.record(KEY_ID, POLICY, 200, AT, 1_000, 'cus_1', hint);
  assert.equal(handed[0]!.count, 1, 'the handed-over bucket is not touched');
  assert.deepEqual(summary(recorder.seal()), ['200 2026-08-04T00:00:00Z 1 1000']);
  assert.equal(recorder.pendingRequests, 1);
});
