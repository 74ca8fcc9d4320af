import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { receiptRetentionJob, RECEIPT_RETENTION_MS } from '../../src/jobs/retention.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, usageItem } from '../support/money.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

async function receiptCount(apiId: string): Promise<number> {
  const rows = await t.services.db.selectFrom('usage_receipts').select('idempotency_key').where('api_id', '=', apiId).execute();
  return rows.length;
}

test('usage receipts are kept 60 days, and a replay after that is refused by age, never billed twice', async () => {
  const api = await createApi(t);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const snapshot = await api.sdk.get('/sdk/v1/snapshot');
  const policy = snapshot.body.customers[0].usage_policy_id;
  const items = [usageItem(key.id, policy, 200, 5, t.clock.now())];
  assert.equal((await api.sdk.post('/sdk/v1/usage', { items })).body.results[0].status, 'accepted');
  const job = receiptRetentionJob(t.clock);

  t.clock.advance(RECEIPT_RETENTION_MS - DAY);
  assert.equal(await t.services.scheduler.runOnce(job), true);
  assert.equal(await receiptCount(api.apiId), 1, 'kept at 59 days');

  t.clock.advance(2 * DAY);
  assert.equal(await t.services.scheduler.runOnce(job), true);
  assert.equal(await receiptCount(api.apiId), 0, 'gone at 61 days');

  const before = (await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.balance_micro;
  const replay = await api.sdk.post('/sdk/v1/usage', { items });
  assert.equal(replay.body.results[0].status, 'rejected');
  assert.match(replay.body.results[0].detail, /older than 45 days/);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.balance_micro, before);
});
