// The SDK's hot path: `admit + finish` for a key in the snapshot, in ns per operation, beside a bare
// SHA-256 plus Map lookup (the least any local key check costs) measured in the same run.
// Goal (issue 4): admit + finish <= 2x that baseline. Run twice: usage kept in memory
// (journalDir: null), and with the journal on disk, which is the default.
//
// Keys are used in turn, in segments of 500 requests, two ways:
// - "new bucket each": after each segment, untimed, the meter delivers what was recorded; no key
//   repeats within a delivery, so every request opens a usage bucket of its own (a fresh
//   idempotency key): the worst case for merging.
// - "into open buckets": delivery only after each round, so requests add to open buckets, as
//   requests of keys used more than once per delivery do.
// Delivery itself is untimed (its cost shows in sdk-http.bench.ts). Each figure is the median over
// rounds of the process's CPU time per operation, wall time beside it: CPU time leaves out the
// moments a shared machine runs someone else.
import * as crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMeter, type Meter } from '@gatehouse/sdk';
import { buildSdk, fakeGatehouse, fmt, median } from './sdk-support.js';

const SEGMENT = 500;
const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP_ROUNDS = 2;

buildSdk();
const gatehouse = fakeGatehouse({ customers: 1_000, keysPerCustomer: 2 });
const keys = gatehouse.keys;
const table = new Map(gatehouse.keyHashes.map((hash, i) => [hash, { keyId: `key${i}`, customerId: `cus_bench${i >> 1}` }]));

interface Timing {
  cpuNs: number;
  wallNs: number;
}

/** Runs `segment(offset)` SEGMENTS times, timing only the segments; `between` runs untimed. */
async function timed(segment: (offset: number) => unknown, between?: () => Promise<unknown>): Promise<Timing> {
  let cpuUs = 0;
  let wallNs = 0n;
  for (let s = 0; s < SEGMENTS; s++) {
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    await segment(s * SEGMENT);
    wallNs += process.hrtime.bigint() - wall;
    const used = process.cpuUsage(cpu);
    cpuUs += used.user + used.system;
    if (between) await between();
  }
  const ops = SEGMENTS * SEGMENT;
  return { cpuNs: (cpuUs * 1000) / ops, wallNs: Number(wallNs) / ops };
}

let found = 0;
/** The goal's baseline: createHash('sha256').update(key).digest('hex') and a Map lookup. */
function createHashSegment(offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    const hash = crypto.createHash('sha256').update(keys[i % keys.length]!).digest('hex');
    if (table.get(hash) !== undefined) found++;
  }
}
/** A stricter baseline: the one-call crypto.hash (Node >= 20.12), which the meter uses. */
function oneShotSegment(offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    const hash = crypto.hash('sha256', keys[i % keys.length]!, 'hex');
    if (table.get(hash) !== undefined) found++;
  }
}
async function meterSegment(meter: Meter, offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    const decision = await meter.admit({ key: keys[i % keys.length], clientAddress: '127.0.0.1' });
    if (!decision.ok) throw new Error(`denied: ${decision.reason}`);
    decision.finish(200);
  }
}

const cpuOf = (values: Timing[]) => median(values.map((v) => v.cpuNs));
const wallOf = (values: Timing[]) => median(values.map((v) => v.wallNs));

async function run(label: string, journalDir: string | null) {
  const errors: Error[] = [];
  const meter = createMeter({ secret: 'mas_bench', baseUrl: 'http://gatehouse.invalid', fetch: gatehouse.fetch, journalDir, onError: (e) => errors.push(e) });
  await meter.ready;
  if (!meter.state.loaded) throw new Error(`no snapshot: ${errors.map((e) => e.message).join('; ')}`);
  const reportedBefore = gatehouse.reportedRequests();
  const names = ['createHash', 'oneShot', 'newBucket', 'openBucket'] as const;
  const results = Object.fromEntries(names.map((name) => [name, [] as Timing[]])) as Record<(typeof names)[number], Timing[]>;
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    // Interleaved, so drift in the machine's speed touches all alike.
    const createHashRound = await timed(createHashSegment);
    const oneShotRound = await timed(oneShotSegment);
    const newBucketRound = await timed((offset) => meterSegment(meter, offset), () => meter.flush());
    const openBucketRound = await timed((offset) => meterSegment(meter, offset));
    await meter.flush();
    await meter.sync(); // every 30 s in a server; it settles acknowledged charges
    if (round >= WARMUP_ROUNDS) {
      results.createHash.push(createHashRound);
      results.oneShot.push(oneShotRound);
      results.newBucket.push(newBucketRound);
      results.openBucket.push(openBucketRound);
    }
  }
  await meter.close();
  const admitted = (WARMUP_ROUNDS + ROUNDS) * 2 * SEGMENTS * SEGMENT;
  const reported = gatehouse.reportedRequests() - reportedBefore;
  if (errors.length) throw errors[0];
  if (reported !== admitted) throw new Error(`${admitted} admitted, ${reported} reported`);

  console.log(`\n${label}: median of ${ROUNDS} rounds of ${SEGMENTS * SEGMENT} operations each, over ${keys.length} keys of ${keys.length / 2} customers`);
  console.log(`  ${''.padEnd(42)}   CPU ns/op  wall ns/op  vs createHash  vs crypto.hash`);
  const row = (name: string, values: Timing[], compared: boolean) => {
    const ratios = compared ? `${fmt(cpuOf(values) / cpuOf(results.createHash), 2).padStart(12)}x ${fmt(cpuOf(values) / cpuOf(results.oneShot), 2).padStart(13)}x` : '';
    console.log(`  ${name.padEnd(42)} ${fmt(cpuOf(values), 0).padStart(11)} ${fmt(wallOf(values), 0).padStart(11)} ${ratios}`);
  };
  row('baseline: createHash + Map.get', results.createHash, false);
  row('stricter: crypto.hash + Map.get', results.oneShot, false);
  row('admit + finish, a new usage bucket each', results.newBucket, true);
  row('admit + finish, into open buckets', results.openBucket, true);
  console.log(`  goal: admit + finish <= 2x createHash + Map.get (CPU ratios; wall: ${fmt(wallOf(results.newBucket) / wallOf(results.createHash), 2)}x and ${fmt(wallOf(results.openBucket) / wallOf(results.createHash), 2)}x)`);
  console.log(`  usage check: ${admitted} admitted, ${reported} reported once each`);
}

await run('journalDir: null (usage in memory)', null);
const dir = mkdtempSync(join(tmpdir(), 'gh-bench-journal-'));
try {
  await run('journal on disk (the default)', dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (found === 0) throw new Error('the baselines found no key');
