// A top-up webhook applied while the same customer's SDK usage reports are being ingested (issue 13
// item 9): many reports in flight, several top-up events among them, one of them sent 20 times at
// once. Both write the customer's balance (usage under its row lock in id order, the top-up through
// ledger.post); the books must come out exact: balance = welcome + each top-up once - every charge,
// and balance = the sum of the ledger entries.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, test } from 'node:test';
import { devWebhookSecret } from '../../src/payments/dev-provider.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, hourStamp, postWireUsage, type ApiFixture } from '../support/money.js';
import { assertBalancesMatchLedger, eventJson, postEvent } from '../support/payments.js';

let t: TestApp;
let api: ApiFixture;
let account: string;
let secret: string;

before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Busy Pay API', preset: 'payg' });
  const connected = await api.owner.client.post(`/apis/${api.apiId}/payments/connect`);
  assert.equal(connected.status, 200, connected.text);
  account = (await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.account_id;
  secret = devWebhookSecret(t.services.config.secretKey);
});
afterEach(() => assertBalancesMatchLedger(t));
after(() => t.close());

/** A paid top-up checkout session as the provider reports it. */
function topUpEvent(sessionId: string, cents: number, customerId: string, eventId = `evt_${randomUUID().replaceAll('-', '')}`) {
  return eventJson('checkout.session.completed', {
    id: sessionId, object: 'checkout.session', mode: 'payment', payment_status: 'paid', status: 'complete', amount_total: cents, currency: 'usd', customer: 'cus_dev_busy',
    metadata: { gh_kind: 'topup', gh_api: api.apiId, gh_customer: customerId },
  }, { id: eventId, account, created: Math.floor(t.clock.now().getTime() / 1000) });
}

test('top-ups during concurrent usage reports: each credited once, every charge kept, balance = ledger', async () => {
  const customer = await createCustomer(t, api, 'Busy Co');
  const bystander = await createCustomer(t, api, 'Quiet Co');
  const key = await createKey(api, customer.id);
  const otherKey = await createKey(api, bystander.id);
  const snap = await getWireSnapshot(t, api.secret);
  const policy = customerIn(snap.body, customer.id).usage_policy_id;
  const otherPolicy = customerIn(snap.body, bystander.id).usage_policy_id;
  const price = (await api.owner.client.get(`/apis/${api.apiId}`)).body.price_per_request_micro as number;
  assert.ok(price > 0, 'a pay-as-you-go API charges per request');

  // 30 reports of 2 to 3 items each: billable and not, this hour and the one before (two usage
  // entries per customer), some also naming the bystander, so reports lock both customers.
  const hour = hourStamp(t.clock.now());
  const earlier = hourStamp(t.clock.now(), -1);
  const reports = Array.from({ length: 30 }, (_, i) => [
    { idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: policy, status_code: 200, count: 1 + (i % 4), period_start: i % 3 ? hour : earlier },
    { idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: policy, status_code: 404, count: 2, period_start: hour },
    ...(i % 2 ? [{ idempotency_key: randomUUID(), api_key_id: otherKey.id, usage_policy_id: otherPolicy, status_code: 201, count: 1, period_start: hour }] : []),
  ]);
  const requests = (keyId: string) => reports.flat().filter((item) => item.api_key_id === keyId && item.status_code < 400).reduce((n, item) => n + item.count, 0);

  // Three distinct payments, and one more whose single event arrives 20 times at once.
  const topUps = [{ session: 'cs_dev_busy_a', cents: 500 }, { session: 'cs_dev_busy_b', cents: 1200 }, { session: 'cs_dev_busy_c', cents: 100_000 }];
  const repeated = topUpEvent('cs_dev_busy_twenty', 2500, customer.id);
  const webhooks = [...topUps.map((p) => () => postEvent(t, '/webhooks/payments/dev', topUpEvent(p.session, p.cents, customer.id), secret)), ...Array.from({ length: 20 }, () => () => postEvent(t, '/webhooks/payments/dev', repeated, secret))];
  // Interleaved: a webhook between every pair of reports, all in flight together.
  const usageCalls: Promise<{ status: string }[]>[] = [];
  const webhookCalls: ReturnType<typeof postEvent>[] = [];
  for (let i = 0; i < Math.max(reports.length, webhooks.length); i++) {
    if (reports[i]) usageCalls.push(postWireUsage(t, api.secret, reports[i]!));
    if (webhooks[i]) webhookCalls.push(webhooks[i]!());
  }
  const [usageAnswers, webhookAnswers] = await Promise.all([Promise.all(usageCalls), Promise.all(webhookCalls)]);
  for (const results of usageAnswers) assert.deepEqual(results.map((r) => r.status), results.map(() => 'accepted'), JSON.stringify(results));
  for (const answer of webhookAnswers) assert.equal(answer.status, 200, answer.text);
  assert.equal(webhookAnswers.slice(0, 3).filter((a) => a.body.duplicate === false).length, 3, 'each payment applied');
  assert.equal(webhookAnswers.slice(3).filter((a) => a.body.duplicate === false).length, 1, 'one of the twenty copies applied');

  const credited = (topUps.reduce((sum, p) => sum + p.cents, 0) + 2500) * 10_000;
  const detail = await customerDetail(api, customer.id);
  assert.equal(detail.balance_micro, customer.balance_micro + credited - requests(key.id) * price);
  assert.equal((await customerDetail(api, bystander.id)).balance_micro, bystander.balance_micro - requests(otherKey.id) * price);

  const entries = (await api.owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customer.id}&limit=100`)).body.entries as { kind: string; amount_micro: number; ref: string | null; requests?: number }[];
  const topupEntries = entries.filter((e) => e.kind === 'topup');
  assert.deepEqual(topupEntries.map((e) => e.ref).sort(), ['cs_dev_busy_a', 'cs_dev_busy_b', 'cs_dev_busy_c', 'cs_dev_busy_twenty']);
  assert.equal(topupEntries.reduce((sum, e) => sum + e.amount_micro, 0), credited);
  const usage = entries.filter((e) => e.kind === 'usage');
  assert.equal(usage.reduce((sum, e) => sum + e.amount_micro, 0), -requests(key.id) * price);
  assert.equal(entries.reduce((sum, e) => sum + e.amount_micro, 0), detail.balance_micro);
});
