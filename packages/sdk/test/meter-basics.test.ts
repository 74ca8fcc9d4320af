import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createMeter, type Meter } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, type ApiFixture } from '../../server/test/support/money.js';

let t: TestApp;
let api: ApiFixture;
let meter: Meter;
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Metered API' });
});
after(async () => {
  await meter?.close();
  await t.close();
});

test('admits a known key, reports its usage, and Gatehouse charges exactly the price', async () => {
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  meter = createMeter({ secret: api.secret, baseUrl: t.url, journalDir: mkdtempSync(join(tmpdir(), 'gh-sdk-')), now: () => t.clock.now().getTime(), onError: () => {} });
  await meter.ready;
  const decision = await meter.admit({ key: key.key });
  assert.equal(decision.ok, true);
  if (!decision.ok) return;
  assert.equal(decision.customer.id, customer.id);
  decision.finish(200);
  const notFound = await meter.admit({ key: key.key });
  assert.ok(notFound.ok);
  notFound.finish(404);
  await meter.flush();
  const detail = (await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body;
  assert.equal(detail.balance_micro, 1_000_000 - 1_000);
  assert.equal(detail.month_requests, 2);
  const unknown = await meter.admit({ key: 'wthr_' + 'A'.repeat(46) });
  assert.equal(unknown.ok, false);
  const missing = await meter.admit({ key: undefined });
  assert.deepEqual(missing.ok ? null : [missing.status, missing.reason], [401, 'missing_key']);
  assert.equal(meter.metrics().admissions.admitted, 2);
  // The key was admitted twice (remembered by its raw value after the first); revoked, it is
  // refused as soon as a snapshot without it is applied.
  const revoked = await api.owner.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  await meter.sync();
  const afterRevocation = await meter.admit({ key: key.key });
  assert.deepEqual(afterRevocation.ok ? null : [afterRevocation.status, afterRevocation.reason], [401, 'invalid_key']);
});
