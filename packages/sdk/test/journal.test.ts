// The usage journal on its own: what a crash would leave on disk (issue 4, "durable before
// delivery"). No server: the journal is a file and its rules.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Journal } from '../src/usage/journal.js';
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
