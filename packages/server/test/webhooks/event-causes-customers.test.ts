// Every event of issue 24 item 4 raised by its real cause, part one: customers (created, updated,
// status changed with its reason, deleted), credit, and the balance's states (low, depleted,
// recovered: once per crossing, by usage reported through the SDK API and by credit), and the
// monthly quota at 80 % and 100 %. Each event is checked as stored (the catch-up listing has its
// own tests in console.test.ts), then delivered, signed, to a real receiver. The other causes:
// event-causes-keys, -payments and -subscriptions.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, createPendingCustomer, fetchSnapshot, reportUsage, usageItem, type ApiFixture } from '../support/money.js';
import { addEndpoint, assertAllDelivered, CAUSES, eventRecorder, startReceiver, storedEvents, type Endpoint, type Receiver } from '../support/webhooks.js';

let t: TestApp;
let api: ApiFixture;
let receiver: Receiver;
let endpoint: Endpoint;
const recorder = eventRecorder(() => storedEvents(t, api.apiId));
const typesOf = (events: { type: string }[]) => events.map((e) => e.type);

before(async () => {
  t = await startTestApp({ UNSAFE_OUTBOUND_PRIVATE: 'true' });
  api = await createApi(t, { name: 'Customer Causes' });
  receiver = await startReceiver();
  endpoint = await addEndpoint(api.owner.client, api.apiId, receiver.url);
});
after(async () => {
  await receiver.close();
  await t.close();
});

test('customers: created with its welcome credit, updated, each status change with its reason, deleted', async () => {
  const created = await recorder.raisedBy(() => createCustomer(t, api, 'Cause Co', 'cause@acme.test'));
  assert.deepEqual(typesOf(created), ['customer.created', 'credit.added']);
  const [customer, welcome] = created;
  assert.deepEqual([customer!.data.object.name, customer!.data.object.balance_micro, customer!.data.object.balance_seq, customer!.data.object.updated_seq], ['Cause Co', 0, 0, 0]);
  assert.deepEqual([welcome!.data.object.kind, welcome!.data.object.amount_micro, welcome!.data.object.balance_micro, welcome!.data.object.balance_seq], ['welcome', 1_000_000, 1_000_000, 1]);
  const id = customer!.data.object.id as string;

  const notes = await recorder.raisedBy(() => api.owner.client.patch(`/apis/${api.apiId}/customers/${id}`, { notes: 'pays on time' }));
  assert.deepEqual(typesOf(notes), ['customer.updated']);
  assert.deepEqual(notes[0]!.data.previous, { notes: '' });
  assert.equal(notes[0]!.data.object.updated_seq, 1);
  const limits = await recorder.raisedBy(() => api.owner.client.put(`/apis/${api.apiId}/customers/${id}/limits`, { rps: 7 }));
  assert.deepEqual(typesOf(limits), ['customer.updated']);
  assert.deepEqual(limits[0]!.data.previous, { custom_limits: { monthly_quota: null, price_per_request_micro: null, rps: null } });
  assert.equal(limits[0]!.data.object.custom_limits.rps, 7);
  assert.deepEqual(typesOf(await recorder.raisedBy(() => api.owner.client.patch(`/apis/${api.apiId}/customers/${id}`, { notes: 'pays on time' }))), [], 'a change that changes nothing raises nothing');

  const statusOf = async (customerId: string, status: string) => {
    const events = await recorder.raisedBy(() => api.owner.client.patch(`/apis/${api.apiId}/customers/${customerId}`, { status }));
    assert.deepEqual(typesOf(events), ['customer.status_changed']);
    return [events[0]!.data.previous.status, events[0]!.data.object.status, events[0]!.data.reason];
  };
  assert.deepEqual(await statusOf(id, 'suspended'), ['active', 'suspended', 'suspended']);
  assert.deepEqual(await statusOf(id, 'active'), ['suspended', 'active', 'reactivated']);
  const waiting = await createPendingCustomer(t, api, 'Waiting Co');
  assert.deepEqual(await statusOf(waiting.id, 'active'), ['pending', 'active', 'approved']);
  const refused = await createPendingCustomer(t, api, 'Refused Co');
  assert.deepEqual(await statusOf(refused.id, 'suspended'), ['pending', 'suspended', 'refused']);

  const deleted = await recorder.raisedBy(() => api.owner.client.delete(`/apis/${api.apiId}/customers/${refused.id}`));
  assert.deepEqual(typesOf(deleted), ['customer.deleted']);
  assert.equal(deleted[0]!.data.object.id, refused.id);
});

test('credit and usage: balance low, depleted and recovered once per crossing, and the quota at 80 % and 100 %', async () => {
  const customer = await createCustomer(t, api, 'Metered Co');
  const key = await createKey(api, customer.id);
  assert.equal((await api.owner.client.put(`/apis/${api.apiId}/customers/${customer.id}/limits`, { monthly_quota: 10 })).status, 200);
  const policy = (await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!.usage_policy_id!;
  const report = (count: number) => recorder.raisedBy(() => reportUsage(api, [usageItem(key.id, policy, 200, count, t.clock.now())]));

  // Welcome 1.00 at the API's line of 1.00; 8 requests at 0.001 take it below: low, and 80 % of 10.
  const eight = await report(8);
  assert.deepEqual(typesOf(eight), ['customer.balance_low', 'usage.threshold_reached']);
  assert.deepEqual([eight[0]!.data.object.balance_micro, eight[0]!.data.previous.balance_micro, eight[0]!.data.object.low_balance_micro, eight[0]!.data.object.balance_seq], [992_000, 1_000_000, 1_000_000, 2]);
  assert.deepEqual(eight[1]!.data.object, { object: 'customer_usage', customer_id: customer.id, month: eight[1]!.data.object.month, requests: 8, monthly_quota: 10, threshold: 80, updated_seq: 8 });
  // Still low, below 100 %: nothing. Then the quota reached.
  assert.deepEqual(typesOf(await report(1)), []);
  const tenth = await report(1);
  assert.deepEqual(typesOf(tenth), ['usage.threshold_reached']);
  assert.equal(tenth[0]!.data.object.threshold, 100);
  assert.deepEqual(typesOf(await report(3)), [], 'past 100 %: each threshold once a month');

  const credit = (amount_micro: number) => recorder.raisedBy(() => api.owner.client.post(`/apis/${api.apiId}/customers/${customer.id}/credit`, { amount_micro, note: 'cause' }));
  const depleted = await credit(-987_000);
  assert.deepEqual(typesOf(depleted), ['customer.balance_depleted']);
  assert.equal(depleted[0]!.data.object.balance_micro, 0);
  assert.deepEqual(typesOf(await credit(-5)), [], 'already depleted');
  const recovered = await credit(2_000_000);
  assert.deepEqual(typesOf(recovered), ['credit.added', 'customer.balance_recovered']);
  assert.deepEqual([recovered[0]!.data.object.kind, recovered[0]!.data.object.amount_micro, recovered[0]!.data.object.balance_micro], ['credit', 2_000_000, 1_999_995]);
  assert.equal(recovered[1]!.data.object.balance_seq, recovered[0]!.data.object.balance_seq, 'the same balance, the same sequence');
  // From well above the line straight to zero: low, then depleted, in one move.
  const both = await credit(-1_999_995);
  assert.deepEqual(typesOf(both), ['customer.balance_low', 'customer.balance_depleted']);
});

test('these causes raised their events, and each reached the receiver, signed, under its event id', async () => {
  assert.deepEqual([...recorder.seen].sort(), [...CAUSES.customers].sort());
  await assertAllDelivered(t, receiver, endpoint, await storedEvents(t, api.apiId));
});
