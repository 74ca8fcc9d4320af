// Gatehouse stopped for a minute while traffic goes on, then started again (issue 4: "the server
// stopped for a minute while traffic continues, then started, receives every request once").
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail } from '../../server/test/support/money.js';
import { outage, type Outage } from '../../server/test/support/restart.js';
import { Meters, patchApi, serve } from './support/gatehouse.js';

let t: TestApp;
let down: Outage;
const meters = new Meters();
before(async () => {
  t = await startTestApp();
  down = await outage(t);
});
after(async () => {
  await meters.closeAll();
  await down.close();
});

test('while Gatehouse is down the snapshot keeps admitting and usage stays queued; after the restart every request is delivered once', async () => {
  const api = await createApi(t, { name: 'Outage' });
  await patchApi(api, { rps: 0 });
  const alice = await createCustomer(t, api, 'Alice');
  const bob = await createCustomer(t, api, 'Bob');
  const aliceKey = await createKey(api, alice.id);
  const bobKey = await createKey(api, bob.id);
  // Snapshots only: a following meter would learn of the late key below from its change before the
  // outage (meter-follow.test.ts covers that); here the key must be one the meter has never seen.
  const meter = meters.make(t, api, { followChanges: false });
  const served = new Map([[alice.id, { requests: 0, billed: 0 }], [bob.id, { requests: 0, billed: 0 }]]);
  const traffic = async (rounds: number) => {
    for (let i = 0; i < rounds; i++) {
      const [customer, key] = i % 2 ? [alice, aliceKey] : [bob, bobKey];
      const status = [200, 404, 201, 500][i % 4]!;
      await serve(meter, key.key, status);
      const tally = served.get(customer.id)!;
      tally.requests += 1;
      if (status === 200 || status === 201) tally.billed += 1;
    }
  };
  await traffic(10);
  await meter.flush();
  // A key made after the meter's snapshot: only Gatehouse can vouch for it.
  const lateKey = await createKey(api, alice.id, 'late');

  await down.stop();
  // A minute of traffic, ten seconds at a time, all decided from the snapshot.
  for (let second = 0; second < 60; second += 10) {
    t.clock.advance(10_000);
    await traffic(10);
  }
  const unverifiable = await meter.admit({ key: lateKey.key });
  assert.deepEqual(unverifiable.ok ? 'admitted' : [unverifiable.status, unverifiable.reason], [503, 'unavailable'], 'a key not in the snapshot cannot be checked');
  await assert.rejects(meter.flush(), /ECONNREFUSED|fetch failed/);
  let metrics = meter.metrics();
  assert.equal(metrics.queueDepth, 60, 'the minute of usage is queued');
  assert.ok(metrics.reportFailures >= 1);
  assert.ok(metrics.snapshotAgeMs! >= 60_000);

  await down.start();
  await meter.flush();
  metrics = meter.metrics();
  assert.equal(metrics.queueDepth, 0);
  assert.equal(metrics.deadLetters, 0);
  for (const [customer, tally] of [[alice, served.get(alice.id)!], [bob, served.get(bob.id)!]] as const) {
    const detail = await customerDetail(api, customer.id);
    assert.equal(detail.month_requests, tally.requests, `${customer.id} month_requests`);
    assert.equal(detail.balance_micro, customer.balance_micro - tally.billed * 1_000, `${customer.id} balance`);
  }
  assert.equal(served.get(alice.id)!.requests + served.get(bob.id)!.requests, 70);
  // The late key works again, and a fresh snapshot brings the age back down.
  await meter.sync();
  await serve(meter, lateKey.key, 404);
  assert.ok(meter.metrics().snapshotAgeMs! < 60_000);
  await meter.flush();
  assert.equal((await customerDetail(api, alice.id)).month_requests, served.get(alice.id)!.requests + 1);
});
