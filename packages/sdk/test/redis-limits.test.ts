import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import { queueRegistryKey, SharedLimits, type ReserveInput } from '../src/redis-limits.js';

// Two clients and two SharedLimits stand for two processes of one API sharing Redis. CI sets
// REDIS_URL; without one there is no Redis to test against.
const url = process.env.REDIS_URL ?? '';
const skip = url ? false : 'REDIS_URL is not set';
let a: Redis;
let b: Redis;
before(() => {
  if (skip) return;
  a = new Redis(url, { maxRetriesPerRequest: 1 });
  b = new Redis(url, { maxRetriesPerRequest: 1 });
});
after(() => {
  a?.disconnect();
  b?.disconnect();
});

const HOUR = 3_600_000;

/** Applies the moves as the usage queue's commit script does: from the holder's field to the committed counter. */
async function commitMoves(limits: SharedLimits) {
  const moves = limits.takeMoves();
  if (!moves) return;
  for (let m = 0; m < moves.count; m++) {
    await a.hincrby(moves.keys[2 * m]!, String(moves.args[2 * m]), -Number(moves.args[2 * m + 1]));
    await a.incrby(moves.keys[2 * m + 1]!, Number(moves.args[2 * m + 1]));
  }
}
function input(overrides: Partial<ReserveInput> = {}): ReserveInput {
  const now = Date.now();
  return {
    customerId: 'cus_1',
    now,
    rps: 0,
    quota: null,
    monthFloor: 0,
    platform: { limit: 1_000_000, floor: 0, hardCap: false },
    hold: 0,
    snapshot: { generatedAt: now - 1000, balance: 0, fetchStartedAt: now - 1100 },
    periodEnd: now + HOUR,
    ...overrides,
  };
}

/** A process's holder: an id in the API's set of usage queues, as a registered usage queue has. */
function holderIn(tenant: string) {
  const id = randomUUID();
  let registered: Promise<number> | null = null;
  return { id: async () => (await (registered ??= a.sadd(queueRegistryKey(tenant), id)), id), raw: id };
}

function pairIn(tenant: string) {
  const holders = [holderIn(tenant), holderIn(tenant)] as const;
  return { limits: [new SharedLimits(a, tenant, holders[0]), new SharedLimits(b, tenant, holders[1])] as const, holders };
}

function pair() {
  return pairIn(`t_${randomUUID()}`).limits;
}

test('100 concurrent reservations from two processes against a quota of 10 admit exactly 10', { skip }, async () => {
  const [one, two] = pair();
  const base = input({ quota: 10 });
  const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? one : two).reserve({ ...base, now: base.now + i })));
  assert.equal(outcomes.filter((o) => o.ok).length, 10);
  assert.ok(outcomes.filter((o) => !o.ok).every((o) => !o.ok && o.reason === 'quota_exceeded'));
});

test('the snapshot month count is a floor: 7 already used of 10 leaves 3', { skip }, async () => {
  const [one, two] = pair();
  const base = input({ quota: 10, monthFloor: 7 });
  const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).reserve(base)));
  assert.equal(outcomes.filter((o) => o.ok).length, 3);
});

test('credit: holds across processes never exceed the balance; a release frees one', { skip }, async () => {
  const [one, two] = pair();
  const base = input({ hold: 1000, snapshot: { generatedAt: Date.now(), balance: 5000, fetchStartedAt: Date.now() - 50 } });
  const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).reserve(base)));
  assert.equal(outcomes.filter((o) => o.ok).length, 5);
  assert.deepEqual((await one.reserve(base)), { ok: false, reason: 'insufficient_credit' });
  const admitted = outcomes.find((o) => o.ok);
  assert.ok(admitted?.ok);
  await one.finish('cus_1', admitted.holder, 1000, 0); // not billed: its whole hold ends (whichever process held it)
  assert.equal((await one.reserve(base)).ok, true);
});

test('what a process held in flight goes when it leaves the set of queues (it died and its queue was adopted)', { skip }, async () => {
  const tenant = `t_${randomUUID()}`;
  const { limits: [one, two], holders } = pairIn(tenant);
  const base = input({ hold: 1000, snapshot: { generatedAt: Date.now(), balance: 3000, fetchStartedAt: Date.now() - 50 } });
  for (let i = 0; i < 3; i++) assert.equal((await one.reserve(base)).ok, true);
  assert.deepEqual(await two.reserve(base), { ok: false, reason: 'insufficient_credit' });
  // The first process dies mid-request: while it is in the set, its holds stand.
  await a.srem(queueRegistryKey(tenant), holders[0].raw);
  const after = await Promise.all(Array.from({ length: 5 }, () => two.reserve(base)));
  assert.equal(after.filter((o) => o.ok).length, 3, 'the dead process holds nothing; the balance allows exactly 3 again');
  assert.equal(await a.hexists(`gh:{${tenant}}:inflight:cus_1`, holders[0].raw), 0, 'its field was dropped');
});

test('a finished charge stays held under its holder until a commit moves it; the move names both keys of each customer', { skip }, async () => {
  const [one, two] = pair();
  const base = input({ hold: 1000, snapshot: { generatedAt: Date.now(), balance: 2000, fetchStartedAt: Date.now() - 50 } });
  const first = await one.reserve(base);
  assert.ok(first.ok);
  await one.finish('cus_1', first.holder, 0, 1000); // billed: the hold becomes a charge awaiting commit
  await one.finish('cus_1', first.holder, 0, 0); // nothing to move or release
  assert.equal((await two.reserve(base)).ok, true);
  assert.equal((await two.reserve(base)).ok, false, 'the charge is still held');
  const moves = one.takeMoves();
  assert.ok(moves);
  assert.equal(moves.count, 1);
  assert.deepEqual(moves.args, [first.holder, 1000]);
  assert.equal(moves.keys.length, 2);
  assert.equal(one.takeMoves(), null, 'taken once');
  moves.undo();
  assert.deepEqual(one.takeMoves()?.args, [first.holder, 1000], 'an undone move waits for the next commit');
});

test('an acknowledged charge stays counted until a snapshot fetched after the acknowledgement brings the lower balance', { skip }, async () => {
  const [one, two] = pair();
  const t0 = Date.now();
  const snap = { generatedAt: t0, balance: 3000, fetchStartedAt: t0 - 10 };
  const holds = [];
  for (let i = 0; i < 3; i++) {
    const outcome = await one.reserve(input({ hold: 1000, snapshot: snap }));
    assert.ok(outcome.ok);
    holds.push(outcome.holder);
  }
  // Two of them billed and committed (what the usage queue's commit does with the moves).
  await one.finish('cus_1', holds[0]!, 0, 1000);
  await one.finish('cus_1', holds[1]!, 0, 1000);
  await commitMoves(one);
  // Gatehouse acknowledges 2000 of it: still unavailable, the old balance does not show the debit.
  await one.acknowledge('cus_1', 'bucket-1', 2000, t0 + 100);
  assert.equal((await two.reserve(input({ hold: 1000, snapshot: snap }))).ok, false);
  // A newer snapshot fetched after the acknowledgement: balance 1000 left, 1000 still held → nothing.
  const later = { generatedAt: t0 + 300, balance: 1000, fetchStartedAt: t0 + 200 };
  assert.equal((await two.reserve(input({ hold: 1000, snapshot: later }))).ok, false);
  await one.finish('cus_1', holds[2]!, 1000, 0);
  assert.equal((await two.reserve(input({ hold: 1000, snapshot: later }))).ok, true);
  // An older snapshot arriving late does not roll the balance back.
  assert.equal((await one.reserve(input({ hold: 1000, snapshot: snap }))).ok, false);
});

test('rate: a burst of one second, then exactly rps, shared by both processes', { skip }, async () => {
  const [one, two] = pair();
  const now = Date.now();
  const outcomes = [];
  for (let i = 0; i < 7; i++) outcomes.push(await (i % 2 ? one : two).reserve(input({ rps: 5, now })));
  assert.equal(outcomes.filter((o) => o.ok).length, 5);
  const refused = outcomes.find((o) => !o.ok);
  assert.ok(refused && !refused.ok && refused.reason === 'rate_limited' && refused.retryAfterMs > 0 && refused.retryAfterMs <= 200);
  assert.equal((await one.reserve(input({ rps: 5, now: now + 199 }))).ok, false);
  assert.equal((await one.reserve(input({ rps: 5, now: now + 200 }))).ok, true);
  assert.equal((await two.reserve(input({ rps: 5, now: now + 200 }))).ok, false);
});

test('the platform hard cap is shared; without a hard cap the count only grows', { skip }, async () => {
  const [one, two] = pair();
  const capped = input({ platform: { limit: 4, floor: 1, hardCap: true } });
  const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).reserve({ ...capped, customerId: `cus_${i}` })));
  assert.equal(outcomes.filter((o) => o.ok).length, 3);
  assert.ok(outcomes.some((o) => !o.ok && o.reason === 'platform_limit'));
});

test('when Redis cannot answer, a reservation fails (the meter answers 503)', { skip }, async () => {
  const down = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true, enableOfflineQueue: false });
  const limits = new SharedLimits(down, 't_down', { id: async () => 'holder' });
  await assert.rejects(limits.reserve(input()));
  down.disconnect();
});
