// The usage journal on its own: what a crash would leave on disk (issue 4, "durable before
// delivery"). No server: the journal is a file and its rules.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Journal, replay } from '../src/usage/journal.js';
import { Recorder } from '../src/usage/recorder.js';
import { journalDir } from './support/gatehouse.js';

const KEY_ID = '7d9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7';
const OTHER_KEY_ID = '0b9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7';
const AT = Date.parse('2026-08-04T00:10:00Z');

/** A recorder and its journal, as a meter wires them (group commits left to the test). */
async function opened(dir: string) {
  const recorder: Recorder = new Recorder(() => {});
  const journal = new Journal(dir, recorder, (error) => assert.fail(error));
  const recovered = await journal.open();
  return { recorder, journal, recovered };
}

/** What a process starting on `dir` would recover: requests and charge per status. */
async function recovered(dir: string): Promise<Record<number, [number, number]>> {
  const { journal, recovered } = await opened(dir);
  await journal.close();
  const totals: Record<number, [number, number]> = {};
  for (const b of recovered) {
    const [count, charge] = totals[b.status] ?? [0, 0];
    totals[b.status] = [count + b.count, charge + b.chargeMicro];
  }
  return totals;
}

test('committed usage is recovered with its totals and keys, acknowledged usage is not, across restarts', async () => {
  const dir = journalDir();
  const { recorder, journal } = await opened(dir);
  for (let i = 0; i < 3; i++) recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
  await journal.commit();
  for (let i = 0; i < 2; i++) recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
  recorder.record(KEY_ID, null, 404, AT, 0, 'cus_1');
  recorder.record(OTHER_KEY_ID, null, 201, AT, 1_000, 'cus_2');
  await journal.commit();
  // Delivered and acknowledged: the 201 bucket.
  const sealed = recorder.seal();
  const delivered = sealed.find((b) => b.status === 201)!;
  recorder.settle(delivered.key);
  journal.acknowledge([delivered]);
  recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1'); // a new bucket: 200 was sealed
  await journal.commit();
  // Read without closing: as a crash would leave it.
  assert.deepEqual(await recovered(dir), { 200: [6, 6_000], 404: [1, 0] });
  const text = readFileSync(join(dir, 'usage-journal.jsonl'), 'utf8');
  assert.ok(text.split('\n').length < 12, 'one record per bucket and commit, not one line per request');
  // A second restart recovers the same, under the same idempotency keys.
  const first = await opened(dir);
  const keys = first.recovered.map((b) => b.key).sort();
  await first.journal.close();
  const second = await opened(dir);
  assert.deepEqual(second.recovered.map((b) => b.key).sort(), keys);
  await second.journal.close();
  await journal.close();
});

test('usage recorded while the journal is rewritten survives the rewrite', async () => {
  const dir = journalDir();
  const { recorder, journal } = await opened(dir);
  recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
  await journal.commit();
  // A restart rewrites the file; meanwhile requests are recorded and committed.
  const restarted = await opened(dir);
  assert.equal(restarted.recovered.length, 1);
  restarted.recorder.record(KEY_ID, null, 500, AT, 0, 'cus_1');
  const committing = restarted.journal.commit();
  restarted.recorder.record(KEY_ID, null, 500, AT, 0, 'cus_1');
  await Promise.all([committing, restarted.journal.commit()]);
  assert.deepEqual(await recovered(dir), { 200: [1, 1_000], 500: [2, 0] });
  await restarted.journal.close();
  await journal.close();
});

test('a torn last line (a crash mid-write) is ignored; what was committed before it is recovered', async () => {
  const dir = journalDir();
  const { recorder, journal } = await opened(dir);
  recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
  await journal.commit();
  await journal.close();
  appendFileSync(join(dir, 'usage-journal.jsonl'), '{"t":"d","d":[1,5,50');
  assert.deepEqual(await recovered(dir), { 200: [1, 1_000] });
});

/**
 * Counts fsyncs (FileHandle#datasync) made while `body` runs. A spy on Node's file API, not a
 * stand-in: every call still goes to the real file. Tests of this file run one at a time.
 */
async function countingFsyncs<T>(body: (fsyncs: () => number) => Promise<T>): Promise<T> {
  const probe = await open(join(journalDir(), 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
  await probe.close();
  const datasync = proto.datasync;
  let calls = 0;
  proto.datasync = function (this: unknown) {
    calls++;
    return datasync.call(this);
  };
  try {
    return await body(() => calls);
  } finally {
    proto.datasync = datasync;
  }
}

/** A recorder whose requests the journal commits in groups, as a meter wires them. */
async function grouped(dir: string, fsyncIntervalMs: number) {
  let journal: Journal | undefined;
  const recorder = new Recorder(() => journal!.schedule());
  journal = new Journal(dir, recorder, (error) => assert.fail(error), 1, fsyncIntervalMs);
  await journal.open();
  return { recorder, journal };
}

/** Waits up to 5 s for `done()`; fails with `what` otherwise. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 500 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(done(), what);
}

/** Waits until the journal file holds `requests` requests (what a crash of the process would leave). */
function untilWritten(dir: string, requests: number): Promise<void> {
  const held = () => replay(readFileSync(join(dir, 'usage-journal.jsonl'), 'utf8')).reduce((sum, b) => sum + b.count, 0);
  return until(() => held() === requests, `the journal holds ${requests} requests`);
}

test('group commits write at once; fsync waits for fsyncIntervalMs, except before delivery (commit) and at close', async () => {
  await countingFsyncs(async (fsyncs) => {
    const dir = journalDir();
    const { recorder, journal } = await grouped(dir, 60_000);
    recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
    await untilWritten(dir, 1);
    recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
    recorder.record(OTHER_KEY_ID, null, 404, AT, 0, 'cus_2');
    await untilWritten(dir, 3);
    assert.equal(fsyncs(), 0, 'in the file, not yet fsynced: inside the interval');
    await journal.commit(); // what a delivery does first
    assert.equal(fsyncs(), 1);
    await journal.commit();
    assert.equal(fsyncs(), 1, 'nothing written since: no second fsync');
    recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
    await untilWritten(dir, 4);
    assert.equal(fsyncs(), 1);
    await journal.close();
    assert.equal(fsyncs(), 2, 'close fsyncs what was written');
    assert.deepEqual(await recovered(dir), { 200: [3, 3_000], 404: [1, 0] });
  });
});

test('fsyncIntervalMs: 0 fsyncs every group; a short interval fsyncs on its own once it has passed', async () => {
  await countingFsyncs(async (fsyncs) => {
    const everyGroup = journalDir();
    const each = await grouped(everyGroup, 0);
    each.recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
    await untilWritten(everyGroup, 1);
    await until(() => fsyncs() === 1, 'the group was fsynced');
    each.recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
    await untilWritten(everyGroup, 2);
    await until(() => fsyncs() === 2, 'the second group was fsynced');
    await each.journal.close();
    assert.equal(fsyncs(), 2, 'one per group, none left for close');

    const timed = journalDir();
    const short = await grouped(timed, 50);
    const before = fsyncs();
    short.recorder.record(KEY_ID, null, 200, AT, 1_000, 'cus_1');
    await untilWritten(timed, 1);
    // No further commit and no delivery: the interval's own timer fsyncs.
    await until(() => fsyncs() === before + 1, 'the interval fsynced what was written');
    await short.journal.close();
    assert.equal(fsyncs(), before + 1, 'nothing left to fsync at close');
  });
});
