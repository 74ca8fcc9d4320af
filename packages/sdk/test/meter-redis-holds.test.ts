// Credit held by a process that dies mid-request (the `redis` option): its hold belongs to its
// usage queue's lease, so once another process adopts the dead one's queue, the credit is free
// again. Before holds had owners, a request in flight at a crash kept its price held for good and
// the customer could never spend it. Real Redis at REDIS_URL (skipped without it), real server,
// a real process killed with SIGKILL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Redis } from 'ioredis';
import type { Admitted, Meter } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { Meters, patchApi } from './support/gatehouse.js';
import { killAll, startMeteredProcess } from './support/processes.js';

const url = process.env.REDIS_URL ?? '';
const skip = url ? false : 'REDIS_URL is not set';
const PRICE = 200_000; // the welcome credit of 1,000,000 pays for exactly 5 requests
let t: TestApp;
let api: ApiFixture;
let redis: Redis;
const meters = new Meters();
const clients: Redis[] = [];
before(async () => {
  if (skip) return;
  t = await startTestApp();
  api = await createApi(t, { name: 'Held Credit' });
  await patchApi(api, { rps: 0, price_per_request_micro: PRICE });
  redis = new Redis(url);
});
after(async () => {
  killAll();
  await meters.closeAll();
  for (const client of [...clients, redis]) client?.disconnect();
  await t?.close();
});

async function eventually(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

test('a process killed mid-request: its credit hold goes with its lease, and exactly the balance is spent', { skip }, async () => {
  const customer = await createCustomer(t, api, 'Crash Co');
  assert.equal(customer.balance_micro, 5 * PRICE);
  const key = await createKey(api, customer.id);
  const inflight = `gh:{${api.apiId}}:inflight:${customer.id}`;
  const clockOffsetMs = t.clock.now().getTime() - Date.now();
  const child = await startMeteredProcess({ secret: api.secret, baseUrl: t.url, redisUrl: url, clockOffsetMs, options: { usageLeaseMs: 1_000 } });
  const hanging = fetch(`${child.url}/hang`, { headers: { 'x-api-key': key.key } }).catch((error: Error) => error);
  await eventually(async () => Object.keys(await redis.hgetall(inflight)).length === 1);

  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  clients.push(client);
  const survivor: Meter = meters.make(t, api, { redis: client, usageLeaseMs: 300 });
  await survivor.ready;
  // While the process lives, its request holds one price: 4 of 5 are left.
  const before = await Promise.all(Array.from({ length: 6 }, () => survivor.admit({ key: key.key })));
  assert.equal(before.filter((d) => d.ok).length, 4);
  assert.ok(before.every((d) => d.ok || d.reason === 'insufficient_credit'));
  for (const d of before) if (d.ok) d.finish(404); // not billed: their holds end

  await child.kill();
  assert.ok((await hanging) instanceof Error, 'the hung request never got an answer');
  // The survivor adopts the dead process's (empty) queue once its lease has run out; the next
  // reservation drops what the dead process held.
  await eventually(async () => (await redis.scard(`gh:{${api.apiId}}:usage:queues`)) === 1);
  const afterDeath = await Promise.all(Array.from({ length: 7 }, () => survivor.admit({ key: key.key })));
  const admitted = afterDeath.filter((d): d is Admitted => d.ok);
  assert.equal(admitted.length, 5, 'the whole balance can be spent again');
  assert.deepEqual(await redis.hkeys(inflight), [await redis.srandmember(`gh:{${api.apiId}}:usage:queues`)], 'only the survivor holds');
  for (const d of admitted) d.finish(200);
  await survivor.flush();
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.balance_micro, 0, 'exactly the balance, to the micro unit');
  assert.equal(detail.month_requests, 9, '4 unbilled and 5 billed by the survivor; the hung request was never served or reported');
});
