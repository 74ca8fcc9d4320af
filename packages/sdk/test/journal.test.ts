// The usage journal on its own: what a crash would leave on disk (issue 4, "durable before
// delivery"). No server: the journal is a file and its rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Journal, type JournalLine } from '../src/usage/journal.js';
import { journalDir } from './support/gatehouse.js';

const usage = (k: string): JournalLine => ({ t: 'e', k, a: '7d9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7', p: null, s: 200, h: '2026-08-04T00:00:00Z', n: 1, c: 1_000, u: 'cus_1' });
const acknowledged = (k: string): JournalLine => ({ t: 'a', k });

/** What a process starting on `dir` would recover: the usage lines not acknowledged. */
async function recovered(dir: string): Promise<string[]> {
  const journal = new Journal(dir, (error) => assert.fail(error));
  const lines = await journal.open();
  await journal.close();
  return lines.map((line) => line.k);
}

test('acknowledged usage is dropped and the rest recovered, across a restart', async () => {
  const dir = journalDir();
  const journal = new Journal(dir, (error) => assert.fail(error));
  await journal.open();
  for (const line of [usage('k1'), usage('k2'), usage('k1'), acknowledged('k1'), usage('k3')]) journal.append(line);
  await journal.flush();
  assert.deepEqual(await recovered(dir), ['k2', 'k3']);
  await journal.close();
});

test('usage recorded while the journal compacts survives the compaction', async () => {
  const dir = journalDir();
  const journal = new Journal(dir, (error) => assert.fail(error));
  await journal.open();
  // Everything so far was acknowledged: the reporter compacts.
  journal.append(usage('k1'));
  journal.append(acknowledged('k1'));
  const compacting = journal.compact();
  // Meanwhile a request is recorded, and the group commit flushes it.
  journal.append(usage('k2'));
  const flushing = journal.flush();
  await Promise.all([compacting, flushing]);
  await journal.flush();
  // Read without closing: as a crash would leave it.
  assert.deepEqual(await recovered(dir), ['k2']);
  await journal.close();
});
