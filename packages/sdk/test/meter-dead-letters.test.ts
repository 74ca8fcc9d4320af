// Usage Gatehouse refuses is set aside, not lost and not blocking the rest (wire protocol section
// 4: per-item `rejected`, and bisection of a terminal 400/402/409/422), and can be sent again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UsageItem } from '@gatehouse/protocol';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { journalDir, Meters, patchApi, serve, wireTap } from './support/gatehouse.js';

let t: TestApp;
let api: ApiFixture;
const meters = new Meters();
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Dead Letters' });
  await patchApi(api, { rps: 0 });
});
after(async () => {
  await meters.closeAll();
  await t.close();
});

interface Letter {
  item: UsageItem;
  customerId: string;
  chargeMicro: number;
  detail: string;
  at: string;
}

function lettersIn(dir: string): Letter[] {
  return readFileSync(join(dir, 'dead-letters.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Letter);
}

test('an item Gatehouse rejects is dead-lettered with its detail, the rest of the batch is delivered, and a replay sends it again', async () => {
  const customer = await createCustomer(t, api);
  const good = await createKey(api, customer.id, 'good');
  const other = await createKey(api, customer.id, 'other');
  // On the wire, the other key's items name a key Gatehouse never issued: it rejects them alone.
  let poisoned = true;
  const tap = wireTap((call) => {
    if (!poisoned || call.method !== 'POST') return;
    return { items: call.items.map((item) => (item.api_key_id === other.id ? { ...item, api_key_id: randomUUID() } : item)) };
  });
  const dir = journalDir();
  const meter = meters.make(t, api, { fetch: tap.fetch, journalDir: dir });
  for (const status of [200, 200, 404]) await serve(meter, good.key, status);
  await serve(meter, other.key, 201);
  await serve(meter, other.key, 201);
  await meter.flush();
  assert.equal(tap.count('/sdk/v1/usage'), 1, 'one report: a per-item rejection needs no retry');
  const metrics = meter.metrics();
  assert.equal(metrics.queueDepth, 0);
  assert.equal(metrics.deadLetters, 1);
  const [letter, ...more] = lettersIn(dir);
  assert.equal(more.length, 0);
  assert.equal(letter!.detail, 'unknown api_key_id');
  assert.equal(letter!.customerId, customer.id);
  assert.equal(letter!.chargeMicro, 2 * 1_000);
  // The letter keeps what the meter recorded, not what the wire was made to say.
  assert.deepEqual({ ...letter!.item, idempotency_key: '' }, { ...letter!.item, idempotency_key: '', api_key_id: other.id, status_code: 201, count: 2 });
  let detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, 3);
  assert.equal(detail.balance_micro, customer.balance_micro - 2 * 1_000);

  poisoned = false;
  assert.deepEqual(await meter.replayDeadLetters(), { delivered: 1, remaining: 0 });
  assert.deepEqual(lettersIn(dir), []);
  detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, 5);
  assert.equal(detail.balance_micro, customer.balance_micro - 4 * 1_000);
  assert.deepEqual(await meter.replayDeadLetters(), { delivered: 0, remaining: 0 });
});

test('a terminal 422 for a whole batch is split until the one poisoned item is found; the others are delivered', async () => {
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  // Gatehouse (as the test plays it) refuses any report that carries a 418.
  let poisoned = true;
  const tap = wireTap((call) => {
    if (poisoned && call.method === 'POST' && call.items.some((item) => item.status_code === 418)) {
      return { answer: new Response('{"error":"poisoned batch"}', { status: 422, headers: { 'content-type': 'application/json' } }) };
    }
  });
  const dir = journalDir();
  const meter = meters.make(t, api, { fetch: tap.fetch, journalDir: dir });
  // Nine buckets (one per status), the 418 among them.
  const statuses = [200, 201, 202, 204, 400, 404, 418, 500, 503];
  for (const status of statuses) await serve(meter, key.key, status);
  await serve(meter, key.key, 200);
  await meter.flush();
  const posts = tap.calls.filter((c) => c.method === 'POST');
  assert.ok(posts.length > 1 && posts.length <= 2 * Math.ceil(Math.log2(statuses.length)) + 1, `bisected in ${posts.length} reports`);
  assert.deepEqual(tap.delivered.map((i) => i.status_code).sort(), statuses.filter((s) => s !== 418).sort(), 'each good bucket delivered once');
  const [letter, ...more] = lettersIn(dir);
  assert.equal(more.length, 0);
  assert.equal(letter!.item.status_code, 418);
  assert.equal(letter!.detail, 'HTTP 422: {"error":"poisoned batch"}');
  assert.equal(meter.metrics().deadLetters, 1);
  assert.equal(meter.metrics().queueDepth, 0);
  let detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, statuses.length);
  assert.equal(detail.balance_micro, customer.balance_micro - 5 * 1_000, 'five billable requests: 200 twice, 201, 202, 204');
  await meter.close();

  // The dead letters outlive the process: another meter on the same folder replays them.
  poisoned = false;
  const later = meters.make(t, api, { fetch: tap.fetch, journalDir: dir });
  assert.deepEqual(await later.replayDeadLetters(), { delivered: 1, remaining: 0 });
  detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, statuses.length + 1);
  assert.equal(detail.balance_micro, customer.balance_micro - 5 * 1_000, '418 is not billable');
});

test('a replay Gatehouse refuses again keeps the letter, with the new reason', async () => {
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const tap = wireTap((call) => {
    if (call.method === 'POST') return { answer: new Response('{"error":"no"}', { status: 400 }) };
  });
  const dir = journalDir();
  const meter = meters.make(t, api, { fetch: tap.fetch, journalDir: dir });
  await serve(meter, key.key, 200);
  await meter.flush();
  assert.equal(lettersIn(dir).length, 1);
  const result = await meter.replayDeadLetters();
  assert.deepEqual(result, { delivered: 0, remaining: 1 });
  const [letter] = lettersIn(dir);
  assert.match(letter!.detail, /HTTP 400/);
  assert.equal((await customerDetail(api, customer.id)).month_requests, 0);
});
