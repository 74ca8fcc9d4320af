// Every event of issue 24 item 4 raised by its real cause, part two: customer keys and people's
// own keys created and revoked, the SDK connecting with a snapshot and going quiet for 10
// minutes, and the API's platform allowance at 80 % and 100 %. Each event is checked as stored
// (the catch-up listing has its own tests in console.test.ts), then delivered, signed, to a real
// receiver.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { allowanceThresholdJob, sdkDisconnectJob } from '../../src/jobs/webhooks.js';
import { MINUTE } from '../../src/platform/clock.js';
import { createKey as createEndUserKey, keyHolder, patchKeySettings } from '../support/end-user-keys.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { createCustomer, createKey, fetchSnapshot, reportUsage, usageItem, type ApiFixture } from '../support/money.js';
import { SHIPPED_PLATFORM_PLANS } from '../support/platform-plans.js';
import { addEndpoint, assertAllDelivered, CAUSES, eventRecorder, startReceiver, storedEvents, type Endpoint, type Receiver } from '../support/webhooks.js';

let f: IssuerFixture;
let api: ApiFixture;
let receiver: Receiver;
let endpoint: Endpoint;
const recorder = eventRecorder(() => storedEvents(f.t, api.apiId));
const typesOf = (events: { type: string }[]) => events.map((e) => e.type);

/** The shipped catalogue with a free plan of 100 requests a month: its 80 % and 100 % come quickly. */
function smallAllowance(): string {
  const catalogue = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: { code: string; monthly_requests: number }[] };
  for (const plan of catalogue.plans) if (plan.code === 'free') plan.monthly_requests = 100;
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

before(async () => {
  f = await startIssuer('Key Causes', { UNSAFE_OUTBOUND_PRIVATE: 'true', PLATFORM_PLANS_FILE: smallAllowance() });
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

test('the SDK connects with its first snapshot and is disconnected after 10 minutes without one', async () => {
  const connected = await recorder.raisedBy(() => fetchSnapshot(api));
  assert.deepEqual(typesOf(connected), ['sdk.connected']);
  assert.deepEqual([connected[0]!.data.object.connected, connected[0]!.data.object.updated_seq], [true, 1]);
  assert.deepEqual(typesOf(await recorder.raisedBy(() => fetchSnapshot(api))), [], 'connected already');
  const job = sdkDisconnectJob(f.t.services.apis);
  f.t.clock.advance(9 * MINUTE);
  assert.deepEqual(typesOf(await recorder.raisedBy(() => f.t.services.scheduler.runOnce(job))), []);
  f.t.clock.advance(2 * MINUTE);
  const quiet = await recorder.raisedBy(() => f.t.services.scheduler.runOnce(job));
  assert.deepEqual(typesOf(quiet), ['sdk.disconnected']);
  assert.deepEqual([quiet[0]!.data.object.connected, quiet[0]!.data.object.updated_seq], [false, 2]);
  assert.deepEqual(typesOf(await recorder.raisedBy(() => fetchSnapshot(api))), ['sdk.connected']);
});

test('keys: a customer key and a person\'s own key, created and revoked, never the key itself', async () => {
  const customer = await createCustomer(f.t, api, 'Keyed Co');
  let issued!: { id: string; key: string };
  const created = await recorder.raisedBy(async () => (issued = await createKey(api, customer.id)));
  assert.deepEqual(typesOf(created), ['key.created']);
  assert.deepEqual([created[0]!.data.object.object, created[0]!.data.object.id, created[0]!.data.object.customer_id, created[0]!.data.object.updated_seq], ['customer_key', issued.id, customer.id, 1]);
  const revoked = await recorder.raisedBy(() => f.owner.client.delete(`/apis/${f.apiId}/customers/${customer.id}/keys/${issued.id}`));
  assert.deepEqual(typesOf(revoked), ['key.revoked']);
  assert.ok(revoked[0]!.data.object.revoked_at);
  assert.equal(revoked[0]!.data.object.updated_seq, 2);

  await patchKeySettings(f, { enabled: true });
  const holder = await keyHolder(f);
  let own!: { key: { id: string }; secret: string };
  const ownCreated = await recorder.raisedBy(async () => (own = await createEndUserKey(holder.api, f)));
  assert.deepEqual(typesOf(ownCreated), ['key.created']);
  assert.deepEqual([ownCreated[0]!.data.object.object, ownCreated[0]!.data.object.person_id], ['end_user_key', holder.person.id]);
  const ownRevoked = await recorder.raisedBy(() => holder.api.revoke(own.key.id));
  assert.deepEqual(typesOf(ownRevoked), ['key.revoked']);
  const listed = JSON.stringify(await storedEvents(f.t, api.apiId));
  assert.ok(!listed.includes(issued.key) && !listed.includes(own.secret), 'no key in any event');
});

test('the API\'s platform allowance at 80 % and 100 %, told once each', async () => {
  // The free plan here allows 100 requests a month.
  const allowance = () => recorder.raisedBy(() => f.t.services.scheduler.runOnce(allowanceThresholdJob(f.t.services.apis)));
  const customer = await createCustomer(f.t, api, 'Busy Co');
  const key = await createKey(api, customer.id);
  const policy = (await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!.usage_policy_id!;
  await reportUsage(api, [usageItem(key.id, policy, 404, 79, f.t.clock.now())]);
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

test('these causes raised their events, and each reached the receiver, signed, under its event id', async () => {
  assert.deepEqual([...recorder.seen].sort(), [...CAUSES.keysAndApi].sort());
  await assertAllDelivered(f.t, receiver, endpoint, await storedEvents(f.t, api.apiId));
});
