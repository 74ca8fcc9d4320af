// The Redis usage queue (the `redis` option): usage is in Redis before it is delivered, under a
// lease per process; the queue of a process that died is adopted and delivered by another, under
// the same idempotency keys; a process that only paused and lost its lease hands over exactly what
// it had committed. Real Redis at REDIS_URL (skipped without it), real server, real processes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import type { Meter } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { Meters, patchApi, serve } from './support/gatehouse.js';
import { killAll, startMeteredProcess } from './support/processes.js';

const url = process.env.REDIS_URL ?? '';
const skip = url ? false : 'REDIS_URL is not set';
let t: TestApp;
let api: ApiFixture;
let redis: Redis;
const meters = new Meters();
const clients: Redis[] = [];
before(async () => {
  if (skip) return;
  t = await startTestApp();
  api = await createApi(t, { name: 'Usage Queue' });
  await patchApi(api, { rps: 0 }); // payg: 1,000 micro a request for 200, 201, 202 and 204
  redis = new Redis(url);
});
after(async () => {
  killAll();
  await meters.closeAll();
  for (const client of [...clients, redis]) client?.disconnect();
  await t?.close();
});

const registry = () => `gh:{${api.apiId}}:usage:queues`;
const queueKey = (id: string) => `gh:{${api.apiId}}:usage:queue:${id}`;
const leaseKey = (id: string) => `gh:{${api.apiId}}:usage:lease:${id}`;

/** The requests committed in every queue of the API, by process id. */
async function queued(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const id of await redis.smembers(registry())) {
    const values = Object.values(await redis.hgetall(queueKey(id)));
    counts.set(id, values.reduce((sum, value) => sum + (JSON.parse(value) as number[])[4]!, 0));
  }
  return counts;
}

function redisMeter(options: Parameters<Meters['make']>[2] = {}): Meter {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  clients.push(client);
  return meters.make(t, api, { redis: client, ...options });
}

/** Waits (without a deadline of its own: the test's timeout bounds it) until `check` holds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

const COUNT = 30;
const BILLED = 20; // every third answered 404

test('usage is in Redis before delivery; the queue of a process killed before delivering is adopted by another and delivered once', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Killed Co');
  const key = await createKey(api, customer.id);
  const clockOffsetMs = t.clock.now().getTime() - Date.now();
  const child = await startMeteredProcess({ secret: api.secret, baseUrl: t.url, redisUrl: url, clockOffsetMs, cutUsage: true, options: { usageLeaseMs: 1_000 } });
  for (let i = 0; i < COUNT; i++) {
    const res = await fetch(`${child.url}/status/${i % 3 === 2 ? 404 : 200}`, { headers: { 'x-api-key': key.key } });
    assert.equal(res.status, i % 3 === 2 ? 404 : 200);
  }
  // Group commits follow the answers by a few milliseconds: wait for all 30 to be in Redis.
  await eventually(async () => [...(await queued()).values()].includes(COUNT));
  await child.kill();
  assert.equal((await customerDetail(api, customer.id)).month_requests, 0, 'nothing reached Gatehouse before the kill');

  const adopter = redisMeter({ usageLeaseMs: 300 });
  await adopter.ready;
  // Once the dead process's lease has run out, the adopter takes its queue and delivers it.
  await eventually(async () => {
    await adopter.flush().catch(() => undefined);
    return (await customerDetail(api, customer.id)).month_requests > 0;
  });
  await adopter.flush();
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, COUNT);
  assert.equal(detail.balance_micro, customer.balance_micro - BILLED * 1_000);
  assert.equal(adopter.metrics().queueDepth, 0);
  assert.equal(adopter.metrics().deadLetters, 0);
  assert.equal([...(await queued()).values()].reduce((a, b) => a + b, 0), 0, 'acknowledged usage left Redis');
});

test('a process that paused past its lease hands over what it had committed, and keeps the rest under new keys: exact totals', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Paused Co');
  const key = await createKey(api, customer.id);
  // The paused process delivers only when told to; its lease is long, so only the test's removal
  // of the lease key makes it look dead.
  const paused = redisMeter({ usageLeaseMs: 60_000, reportIntervalMs: 3_600_000 });
  for (let i = 0; i < 10; i++) await serve(paused, key.key, 200);
  // Its group commit puts the open bucket (10 requests, one idempotency key) in Redis.
  await eventually(async () => [...(await queued()).values()].includes(10));
  const [pausedId] = [...(await queued()).entries()].find(([, count]) => count === 10)!;

  const adopter = redisMeter({ usageLeaseMs: 300 });
  await adopter.ready;
  await redis.del(leaseKey(pausedId)); // what a pause longer than the lease looks like from outside
  await eventually(async () => {
    await adopter.flush().catch(() => undefined);
    return (await customerDetail(api, customer.id)).month_requests === 10;
  });
  assert.equal(await redis.sismember(registry(), pausedId), 0, 'the paused process left the set of queues');

  // The paused process wakes up and adds to the same open bucket. Sent as it stands (11 to 15
  // requests under the key Gatehouse has pinned at 10), it would be refused and set aside.
  for (let i = 0; i < 5; i++) await serve(paused, key.key, 200);
  await paused.flush();
  await adopter.flush();
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, 15, 'the 10 adopted once, the 5 later ones once');
  assert.equal(detail.balance_micro, customer.balance_micro - 15 * 1_000);
  assert.equal(paused.metrics().deadLetters + adopter.metrics().deadLetters, 0, 'no key was ever sent with two counts');
  assert.equal(paused.metrics().queueDepth, 0);
  assert.equal(adopter.metrics().queueDepth, 0);
});
