// Exact money through the SDK (issue 4, "to the micro unit"): random traffic of several customers
// through two meters, and what Gatehouse's console shows afterwards; the meter's metrics.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Decision, Meter } from '../src/index.js';
import { signUp, type SignedUp } from '../../server/test/support/flows.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, usageEntries } from '../../server/test/support/money.js';
import { Meters, patchApi, seeded, serve, unknownKey, wireTap } from './support/gatehouse.js';

let t: TestApp;
let owner: SignedUp;
const meters = new Meters();
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Billing Owner' });
});
after(async () => {
  await meters.closeAll();
  await t.close();
});

const BILLABLE = new Set([200, 201, 202, 204]); // the payg preset's billable_status_codes
const STATUSES = [200, 200, 201, 204, 404, 500, 429, 302];

test('several customers, random statuses, two meters: every balance is exact to the micro unit', async () => {
  const api = await createApi(t, { name: 'Exact Money' }, owner);
  await patchApi(api, { rps: 0 });
  const customers = [];
  for (const name of ['Ada', 'Brook', 'Cyd', 'Dale']) {
    const customer = await createCustomer(t, api, name);
    // Two keys each: a customer's usage adds up over its keys.
    const keys = [await createKey(api, customer.id, 'a'), await createKey(api, customer.id, 'b')];
    customers.push({ customer, keys, served: 0, chargedMicro: 0 });
  }
  const processes = [meters.make(t, api, { batchItems: 5 }), meters.make(t, api, { batchItems: 5 })];
  const random = seeded(4);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  // The price changes halfway: requests are billed at the price of the policy that admitted them.
  let price = 1_000;
  for (let i = 0; i < 400; i++) {
    if (i === 200) {
      await patchApi(api, { price_per_request_micro: 1_500 });
      await Promise.all(processes.map((m) => m.sync()));
      price = 1_500;
    }
    const who = pick(customers);
    const meter = pick(processes);
    const status = pick(STATUSES);
    const d = await meter.admit({ key: pick(who.keys).key });
    assert.ok(d.ok, d.ok ? '' : `request ${i}: ${d.status} ${d.reason}`);
    assert.equal(d.customer.pricePerRequestMicro, price);
    d.finish(status);
    who.served += 1;
    if (BILLABLE.has(status)) who.chargedMicro += price;
    if (random() < 0.05) await meter.flush();
  }
  await Promise.all(processes.map((m) => m.flush()));
  for (const m of processes) assert.equal(m.metrics().queueDepth, 0);
  for (const { customer, served, chargedMicro } of customers) {
    const detail = await customerDetail(api, customer.id);
    assert.equal(detail.balance_micro, customer.balance_micro - chargedMicro, `${detail.name}'s balance`);
    assert.equal(detail.month_requests, served, `${detail.name}'s month_requests`);
    const entries = await usageEntries(api, customer.id);
    assert.equal(entries.reduce((sum, e) => sum + e.requests, 0), served, `${detail.name}'s usage entries: requests`);
    assert.equal(entries.reduce((sum, e) => sum + e.amount_micro, 0), -chargedMicro, `${detail.name}'s usage entries: amount`);
  }
  assert.equal(customers.reduce((sum, c) => sum + c.served, 0), 400);
  // Delivered once: flushing again, and a later snapshot, change nothing.
  await Promise.all(processes.map((m) => m.flush()));
  const again = await customerDetail(api, customers[0]!.customer.id);
  assert.equal(again.balance_micro, customers[0]!.customer.balance_micro - customers[0]!.chargedMicro);
});

test('metrics: admissions by outcome, onDecision, queue depth back to 0 after flush, Prometheus text', async () => {
  const api = await createApi(t, { name: 'Metrics' }, owner);
  await patchApi(api, { rps: 0 });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const decisions: Decision[] = [];
  const meter = meters.make(t, api, { onDecision: (d) => decisions.push(d) });
  for (const status of [200, 404, 500]) await serve(meter, key.key, status);
  await meter.admit({ key: undefined });
  await meter.admit({ key: unknownKey() });
  await meter.admit({ key: unknownKey() });
  const before = meter.metrics();
  assert.deepEqual(before.admissions, { admitted: 3, missing_key: 1, invalid_key: 2 });
  assert.equal(before.queueDepth, 3);
  assert.equal(before.verifyLookups, 2);
  assert.equal(before.deadLetters, 0);
  assert.equal(before.reportFailures, 0);
  assert.ok(before.snapshotAgeMs !== null && before.snapshotAgeMs >= 0);
  assert.deepEqual(decisions.map((d) => [d.outcome, d.status, d.customerId]), [
    ['admitted', 200, customer.id], ['admitted', 200, customer.id], ['admitted', 200, customer.id],
    ['missing_key', 401, null], ['invalid_key', 401, null], ['invalid_key', 401, null],
  ]);
  await meter.flush();
  assert.equal(meter.metrics().queueDepth, 0);
  const text = meter.prometheus();
  for (const line of [
    'gatehouse_sdk_admissions_total{outcome="admitted"} 3',
    'gatehouse_sdk_admissions_total{outcome="missing_key"} 1',
    'gatehouse_sdk_admissions_total{outcome="invalid_key"} 2',
    'gatehouse_sdk_usage_queue_requests 0',
    'gatehouse_sdk_dead_letters_total 0',
    'gatehouse_sdk_report_failures_total 0',
    'gatehouse_sdk_verify_lookups_total 2',
  ]) assert.ok(text.split('\n').includes(line), `${line} in\n${text}`);
  assert.match(text, /^# TYPE gatehouse_sdk_admissions_total counter$/m);
  assert.match(text, /^gatehouse_sdk_snapshot_age_seconds \d+\.\d{3}$/m);
  assert.ok(text.endsWith('\n'));
});

/** A wire tap that can stop the next usage POST until the test lets it go. */
function holdingTap() {
  let next: { reached: () => void; released: Promise<void> } | null = null;
  const tap = wireTap(async (call) => {
    if (call.method !== 'POST' || !next) return;
    const hold = next;
    next = null;
    hold.reached();
    await hold.released;
  });
  return {
    tap,
    holdNextPost() {
      let reached!: () => void;
      let release!: () => void;
      const isReached = new Promise<void>((resolve) => (reached = resolve));
      next = { reached, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached: isReached, release };
    },
  };
}

test('a flush asked for while a delivery is under way also delivers what was finished since', async () => {
  const api = await createApi(t, { name: 'Flush Under Way' }, owner);
  await patchApi(api, { rps: 0 });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const { tap, holdNextPost } = holdingTap();
  // No journal: what is not delivered before close() is gone, so close() must deliver it all.
  const meter: Meter = meters.make(t, api, { fetch: tap.fetch, journalDir: null });
  await serve(meter, key.key, 200);
  let hold = holdNextPost();
  const first = meter.flush();
  await hold.reached; // the first delivery has sealed its request and is on the wire
  await serve(meter, key.key, 201);
  const second = meter.flush();
  hold.release();
  await Promise.all([first, second]);
  assert.equal(meter.metrics().queueDepth, 0, 'the second request went out with the second flush');
  // close() during a delivery (a timer's, say) leaves nothing behind either.
  await serve(meter, key.key, 200);
  hold = holdNextPost();
  const background = meter.flush();
  await hold.reached;
  await serve(meter, key.key, 404);
  const closing = meter.close();
  hold.release();
  await Promise.all([background, closing]);
  assert.equal(meter.metrics().queueDepth, 0);
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, 4);
  assert.equal(detail.balance_micro, customer.balance_micro - 3 * 1_000);
});
