// Every event of issue 24 item 4 raised by its real cause, part one: customers (created, updated,
// status changed with its reason, deleted), credit and the balance's states (low, depleted,
// recovered: once per crossing, by usage reported through the SDK API and by credit), the monthly
// quota's thresholds, customer keys and people's own keys, the SDK connecting and going quiet, and
// the API's platform allowance at 80 % and 100 %. The payments' events are in
// event-causes-payments.test.ts. Each event is checked in the API's event listing and then
// delivered, signed, to a real receiver.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { allowanceThresholdJob, sdkDisconnectJob } from '../../src/jobs/webhooks.js';
import { MINUTE } from '../../src/platform/clock.js';
import { createKey as createEndUserKey, keyHolder, patchKeySettings } from '../support/end-user-keys.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { createCustomer, createKey, createPendingCustomer, fetchSnapshot, reportUsage, usageItem, type ApiFixture } from '../support/money.js';
import { SHIPPED_PLATFORM_PLANS } from '../support/platform-plans.js';
import { addEndpoint, CAUSES_OUTSIDE_PAYMENTS, listEvents, signedBy, startReceiver, type Endpoint, type Receiver } from '../support/webhooks.js';

let f: IssuerFixture;
let api: ApiFixture;
let receiver: Receiver;
let endpoint: Endpoint;
const seen = new Set<string>();

/** The shipped catalogue with a free plan of 100 requests a month: its 80 % and 100 % come quickly. */
function smallAllowance(): string {
  const catalogue = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: { code: string; monthly_requests: number }[] };
  for (const plan of catalogue.plans) if (plan.code === 'free') plan.monthly_requests = 100;
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

before(async () => {
  f = await startIssuer('Causes API', { UNSAFE_OUTBOUND_PRIVATE: 'true', PLATFORM_PLANS_FILE: smallAllowance() });
  const secret = (await f.owner.client.get(`/apis/${f.apiId}/secret`)).body.secret as string;
  const sdk = f.t.sdkClient();
  sdk.bearer = secret;
  api = { owner: f.owner, apiId: f.apiId, slug: f.slug, secret, sdk };
  receiver = await startReceiver();
  endpoint = await addEndpoint(f.owner.client, f.apiId, receiver.url);
});
after(async () => {
  await receiver.close();
  await f.t.close();
});

/** The events raised by `cause`, in order. */
async function raisedBy(cause: () => Promise<unknown>) {
  const before = (await listEvents(api)).length;
  await cause();
  const raised = (await listEvents(api)).slice(before);
  for (const event of raised) seen.add(event.type);
  return raised;
}
const typesOf = (events: { type: string }[]) => events.map((e) => e.type);

test('the SDK connects with its first snapshot and is disconnected after 10 minutes without one', async () => {
  const connected = await raisedBy(() => fetchSnapshot(api));
  assert.deepEqual(typesOf(connected), ['sdk.connected']);
  assert.deepEqual([connected[0]!.data.object.connected, connected[0]!.data.object.updated_seq], [true, 1]);
  assert.deepEqual(typesOf(await raisedBy(() => fetchSnapshot(api))), [], 'connected already');
  const job = sdkDisconnectJob(f.t.services.apis);
  f.t.clock.advance(9 * MINUTE);
  assert.deepEqual(typesOf(await raisedBy(() => f.t.services.scheduler.runOnce(job))), []);
  f.t.clock.advance(2 * MINUTE);
  const quiet = await raisedBy(() => f.t.services.scheduler.runOnce(job));
  assert.deepEqual(typesOf(quiet), ['sdk.disconnected']);
  assert.deepEqual([quiet[0]!.data.object.connected, quiet[0]!.data.object.updated_seq], [false, 2]);
  assert.deepEqual(typesOf(await raisedBy(() => fetchSnapshot(api))), ['sdk.connected']);
});

test('customers: created with its welcome credit, updated, each status change with its reason, deleted', async () => {
  const created = await raisedBy(() => createCustomer(f.t, api, 'Cause Co', 'cause@acme.test'));
  assert.deepEqual(typesOf(created), ['customer.created', 'credit.added']);
  const [customer, welcome] = created;
  assert.deepEqual([customer!.data.object.name, customer!.data.object.balance_micro, customer!.data.object.balance_seq, customer!.data.object.updated_seq], ['Cause Co', 0, 0, 0]);
  assert.deepEqual([welcome!.data.object.kind, welcome!.data.object.amount_micro, welcome!.data.object.balance_micro, welcome!.data.object.balance_seq], ['welcome', 1_000_000, 1_000_000, 1]);
  const id = customer!.data.object.id as string;

  const notes = await raisedBy(() => f.owner.client.patch(`/apis/${f.apiId}/customers/${id}`, { notes: 'pays on time' }));
  assert.deepEqual(typesOf(notes), ['customer.updated']);
  assert.deepEqual(notes[0]!.data.previous, { notes: '' });
  assert.equal(notes[0]!.data.object.updated_seq, 1);
  const limits = await raisedBy(() => f.owner.client.put(`/apis/${f.apiId}/customers/${id}/limits`, { rps: 7 }));
  assert.deepEqual(typesOf(limits), ['customer.updated']);
  assert.deepEqual(limits[0]!.data.previous, { custom_limits: { monthly_quota: null, price_per_request_micro: null, rps: null } });
  assert.equal(limits[0]!.data.object.custom_limits.rps, 7);
  assert.deepEqual(typesOf(await raisedBy(() => f.owner.client.patch(`/apis/${f.apiId}/customers/${id}`, { notes: 'pays on time' }))), [], 'a change that changes nothing raises nothing');

  const statusOf = async (customerId: string, status: string) => {
    const events = await raisedBy(() => f.owner.client.patch(`/apis/${f.apiId}/customers/${customerId}`, { status }));
    assert.deepEqual(typesOf(events), ['customer.status_changed']);
    return [events[0]!.data.previous.status, events[0]!.data.object.status, events[0]!.data.reason];
  };
  assert.deepEqual(await statusOf(id, 'suspended'), ['active', 'suspended', 'suspended']);
  assert.deepEqual(await statusOf(id, 'active'), ['suspended', 'active', 'reactivated']);
  const waiting = await createPendingCustomer(f.t, api, 'Waiting Co');
  assert.deepEqual(await statusOf(waiting.id, 'active'), ['pending', 'active', 'approved']);
  const refused = await createPendingCustomer(f.t, api, 'Refused Co');
  assert.deepEqual(await statusOf(refused.id, 'suspended'), ['pending', 'suspended', 'refused']);

  const deleted = await raisedBy(() => f.owner.client.delete(`/apis/${f.apiId}/customers/${refused.id}`));
  assert.deepEqual(typesOf(deleted), ['customer.deleted']);
  assert.equal(deleted[0]!.data.object.id, refused.id);
});

test('credit and usage: balance low, depleted and recovered once per crossing, and the quota at 80 % and 100 %', async () => {
  const customer = await createCustomer(f.t, api, 'Metered Co');
  const key = await createKey(api, customer.id);
  assert.equal((await f.owner.client.put(`/apis/${f.apiId}/customers/${customer.id}/limits`, { monthly_quota: 10 })).status, 200);
  const policy = (await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!.usage_policy_id!;
  const report = (count: number) => raisedBy(() => reportUsage(api, [usageItem(key.id, policy, 200, count, f.t.clock.now())]));

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

  const credit = (amount_micro: number) => raisedBy(() => f.owner.client.post(`/apis/${f.apiId}/customers/${customer.id}/credit`, { amount_micro, note: 'cause' }));
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

test('keys: a customer key and a person\'s own key, created and revoked, never the key itself', async () => {
  const customer = await createCustomer(f.t, api, 'Keyed Co');
  let issued!: { id: string; key: string };
  const created = await raisedBy(async () => (issued = await createKey(api, customer.id)));
  assert.deepEqual(typesOf(created), ['key.created']);
  assert.deepEqual([created[0]!.data.object.object, created[0]!.data.object.id, created[0]!.data.object.customer_id, created[0]!.data.object.updated_seq], ['customer_key', issued.id, customer.id, 1]);
  const revoked = await raisedBy(() => f.owner.client.delete(`/apis/${f.apiId}/customers/${customer.id}/keys/${issued.id}`));
  assert.deepEqual(typesOf(revoked), ['key.revoked']);
  assert.ok(revoked[0]!.data.object.revoked_at);
  assert.equal(revoked[0]!.data.object.updated_seq, 2);

  await patchKeySettings(f, { enabled: true });
  const holder = await keyHolder(f);
  let own!: { key: { id: string }; secret: string };
  const ownCreated = await raisedBy(async () => (own = await createEndUserKey(holder.api, f)));
  assert.deepEqual(typesOf(ownCreated), ['key.created']);
  assert.deepEqual([ownCreated[0]!.data.object.object, ownCreated[0]!.data.object.person_id], ['end_user_key', holder.person.id]);
  const ownRevoked = await raisedBy(() => holder.api.revoke(own.key.id));
  assert.deepEqual(typesOf(ownRevoked), ['key.revoked']);
  const listed = JSON.stringify(await listEvents(api));
  assert.ok(!listed.includes(issued.key) && !listed.includes(own.secret), 'no key in any event');
});

test('the API\'s platform allowance at 80 % and 100 %, told once each', async () => {
  // The free plan here allows 100 requests a month; the tests before reported 13.
  const allowance = () => raisedBy(() => f.t.services.scheduler.runOnce(allowanceThresholdJob(f.t.services.apis)));
  const customer = await createCustomer(f.t, api, 'Busy Co');
  const key = await createKey(api, customer.id);
  const policy = (await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!.usage_policy_id!;
  await reportUsage(api, [usageItem(key.id, policy, 404, 66, f.t.clock.now())]);
  assert.deepEqual(typesOf(await allowance()), [], '79 of 100');
  await reportUsage(api, [usageItem(key.id, policy, 404, 1, f.t.clock.now())]);
  const eighty = await allowance();
  assert.deepEqual(typesOf(eighty), ['platform.allowance_threshold']);
  assert.deepEqual([eighty[0]!.data.object.threshold, eighty[0]!.data.object.requests, eighty[0]!.data.object.monthly_limit], [80, 80, 100]);
  assert.deepEqual(typesOf(await allowance()), [], 'told once');
  await reportUsage(api, [usageItem(key.id, policy, 404, 20, f.t.clock.now())]);
  const hundred = await allowance();
  assert.deepEqual(hundred.map((e) => e.data.object.threshold), [100]);
});

test('every event above reached the receiver, signed, under its event id', async () => {
  assert.deepEqual([...seen].sort(), [...CAUSES_OUTSIDE_PAYMENTS].sort());
  for (let round = 0; round < 20 && (await f.t.services.webhookDelivery.deliverDue()).attempted > 0; round++);
  const events = await listEvents(api);
  const received = new Map(receiver.received.map((r) => [r.id, r]));
  for (const event of events) {
    const request = received.get(event.id);
    assert.ok(request, `${event.type} ${event.id} was delivered`);
    assert.ok(signedBy(endpoint.secret, request));
    assert.deepEqual(request.body, { type: event.type, timestamp: event.timestamp, data: event.data });
  }
});
