// Snapshot streams per node (issue 27; sdk-sync/stream-slots.ts): a streamed snapshot holds a
// pooled connection until its last byte, so streams take one of a few slots (two fifths of the
// pool: 2 of a test app's 5) and the rest of the pool stays for everything else. A request finding
// every slot held waits its turn for up to 2 s, then gets 429 with Retry-After (the wire
// protocol's rule for retrying later). The streams are held here by a lock on the table their
// transaction reads first, so nothing depends on socket buffers or timing. PostgreSQL only: on
// PGlite a snapshot never waits on its client, and takes no slot.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { StreamSlots } from '../../src/sdk-sync/stream-slots.js';
import { testDatabaseKind, startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, sdkRequest, type ApiFixture } from '../support/money.js';

const onPostgres = testDatabaseKind === 'postgres' ? false : 'streams take slots only where they hold a connection (PostgreSQL)';

let t: TestApp;
let f: ApiFixture;
before(async () => {
  t = await startTestApp();
  f = await createApi(t, { name: 'Slots API' });
  const customer = await createCustomer(t, f, 'Slotted');
  await createKey(f, customer.id);
});
after(() => t?.close());

const slots = () => t.services.snapshots.streamSlots;

async function until(what: string, holds: () => boolean) {
  for (let i = 0; !holds(); i++) {
    if (i > 600) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Locks the table a snapshot's transaction reads first, from another connection, until `release`. */
async function holdSnapshots() {
  const other = await t.reopenDatabase();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const held = other.db.transaction().execute(async (trx) => {
    await sql`lock table sdk_change_counters in access exclusive mode`.execute(trx);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await held;
    await other.close();
  };
}

const snapshot = () => sdkRequest(t, f.secret, 'GET', '/sdk/v1/snapshot');

test('slots: at most the capacity at once, each given back once, waiters served in turn or turned away after their wait', async () => {
  const s = new StreamSlots(2);
  assert.equal(StreamSlots.forPool(10).capacity, 4, 'two fifths of a server pool of 10');
  assert.equal(StreamSlots.forPool(1).capacity, 1, 'at least one');
  const a = (await s.take(0))!;
  const b = (await s.take(0))!;
  assert.equal(s.inUse, 2);
  assert.equal(await s.take(20), null, 'the third, with none free within its wait');
  assert.equal(s.waiting, 0, 'a waiter that gave up leaves the queue');
  const order: string[] = [];
  const c = s.take(10_000).then((release) => (order.push('c'), release!));
  const d = s.take(10_000).then((release) => (order.push('d'), release!));
  assert.equal(s.waiting, 2);
  a();
  a();
  const releaseC = await c;
  assert.deepEqual(order, ['c'], 'a slot given back twice serves one waiter');
  assert.equal(s.inUse, 2);
  b();
  const releaseD = await d;
  assert.deepEqual(order, ['c', 'd']);
  releaseC();
  releaseD();
  assert.equal(s.inUse, 0);
});

test('with every slot held by a stream, the next snapshot waits 2 s and gets 429 with Retry-After; the console still answers', { skip: onPostgres }, async () => {
  const capacity = slots().capacity;
  assert.equal(capacity, 2, "a test app's pool of 5");
  const release = await holdSnapshots();
  const held = Array.from({ length: capacity }, () => snapshot());
  await until('every slot held', () => slots().inUse === capacity);
  const turnedAway = await snapshot();
  assert.equal(turnedAway.status, 429, turnedAway.text);
  assert.equal(turnedAway.headers.get('retry-after'), '5');
  assert.equal(turnedAway.body.error, 'snapshots_busy');
  // The pool's other connections serve the rest of the node meanwhile.
  const me = await f.owner.client.get('/me');
  assert.equal(me.status, 200, me.text);
  await release();
  for (const answer of await Promise.all(held)) {
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.customers.length, 1);
  }
  await until('the slots given back', () => slots().inUse === 0);
  assert.equal((await snapshot()).status, 200);
});

test('a snapshot waiting for a slot gets the first one given back, and the whole snapshot', { skip: onPostgres }, async () => {
  const capacity = slots().capacity;
  const release = await holdSnapshots();
  const held = Array.from({ length: capacity }, () => snapshot());
  await until('every slot held', () => slots().inUse === capacity);
  const waiting = snapshot();
  await until('one waiting', () => slots().waiting === 1);
  await release();
  for (const answer of [...(await Promise.all(held)), await waiting]) {
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.keys.length, 1);
  }
  await until('the slots given back', () => slots().inUse === 0);
});
