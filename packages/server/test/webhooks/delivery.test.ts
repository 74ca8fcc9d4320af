// Delivery of events to owners' endpoints (issue 24 items 1 and 3): Standard Webhooks signatures,
// one webhook-id across retries, the retry schedule, 2xx only and no redirect followed, the first
// 2 KB of an answer kept, mails when retries run out and when an endpoint is disabled after 5
// days, and secret rotation. The clock is moved, never waited on; the delivery loop is run by the
// test (`deliverDue`), on a real receiver over real HTTP.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, SECOND } from '../../src/platform/clock.js';
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/webhooks/delivery.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, type ApiFixture } from '../support/money.js';
import { addEndpoint, librarySignature, listEvents, signedBy, startReceiver, storedEvents, type Receiver } from '../support/webhooks.js';

let t: TestApp;
let api: ApiFixture;
let receiver: Receiver;

before(async () => {
  t = await startTestApp({ UNSAFE_OUTBOUND_PRIVATE: 'true' });
  api = await createApi(t, { name: 'Hooked API' });
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await t.close();
});

const deliver = () => t.services.webhookDelivery.deliverDue();
const deliveriesOf = async (endpointId: string) => {
  const page = await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpointId}/deliveries`);
  assert.equal(page.status, 200, page.text);
  return page.body.deliveries as any[];
};

test('a receiver that fails twice then succeeds gets the event three times, with one webhook-id and valid signatures', async () => {
  receiver.received.length = 0;
  receiver.answer = (_request, index) => (index < 2 ? { status: 500, body: 'down for a moment' } : { status: 204 });
  const endpoint = await addEndpoint(api.owner.client, api.apiId, receiver.url, { event_types: ['customer.created'] });
  const customer = await createCustomer(t, api, 'Retry Co');

  assert.deepEqual(await deliver(), { attempted: 1, succeeded: 0 });
  let [delivery] = await deliveriesOf(endpoint.id);
  assert.equal(delivery.status, 'pending');
  assert.equal(delivery.attempts, 1);
  assert.equal(delivery.status_code, 500);
  assert.equal(delivery.response_excerpt, 'down for a moment');
  assert.equal(new Date(delivery.next_attempt_at).getTime() - new Date(delivery.last_attempt_at).getTime(), RETRY_DELAYS_MS[0]);

  // Not due yet: nothing is sent before the retry's time.
  assert.deepEqual(await deliver(), { attempted: 0, succeeded: 0 });
  t.clock.advance(RETRY_DELAYS_MS[0]);
  assert.deepEqual(await deliver(), { attempted: 1, succeeded: 0 });
  t.clock.advance(RETRY_DELAYS_MS[1]);
  assert.deepEqual(await deliver(), { attempted: 1, succeeded: 1 });

  assert.equal(receiver.received.length, 3);
  const [first] = receiver.received;
  const [event] = await listEvents(api, '&type=customer.created', 1);
  assert.equal(event!.data.object.id, customer.id);
  for (const request of receiver.received) {
    assert.equal(request.id, event!.id, 'webhook-id is the event id on every attempt');
    assert.equal(request.raw, first!.raw, 'the same bytes every time');
    assert.ok(signedBy(endpoint.secret, request), 'signed with the endpoint secret');
    assert.deepEqual(request.signatures, [librarySignature(endpoint.secret, request)]);
    assert.equal(request.headers['content-type'], 'application/json');
  }
  // webhook-timestamp is the time of each attempt (whole seconds), the retries' delays apart at least.
  const [, second, third] = receiver.received;
  assert.ok(second!.timestamp - first!.timestamp >= 5 && third!.timestamp - second!.timestamp >= 300, receiver.received.map((r) => r.timestamp).join(' '));
  assert.deepEqual(Object.keys(first!.body), ['type', 'timestamp', 'data']);
  assert.equal(first!.body.type, 'customer.created');
  assert.equal(first!.body.data.object.updated_seq, 0);

  [delivery] = await deliveriesOf(endpoint.id);
  assert.equal(delivery.status, 'succeeded');
  assert.equal(delivery.attempts, 3);
  assert.equal(delivery.status_code, 204);
  assert.equal(delivery.next_attempt_at, undefined);
  assert.equal(delivery.event_id, event!.id);
  await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
});

test('only 2xx succeeds: a redirect is a failure and is not followed; the first 2 KB of an answer are kept', async () => {
  receiver.received.length = 0;
  receiver.answer = (_request, index) =>
    index === 0 ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : index === 1 ? { status: 404, body: 'no' } : { status: 200, body: 'é'.repeat(3000) };
  const endpoint = await addEndpoint(api.owner.client, api.apiId, receiver.url, { event_types: ['customer.created'] });
  await createCustomer(t, api, 'Redirect Co');
  await deliver();
  assert.equal(receiver.received.length, 1, 'the redirect was not followed');
  let [delivery] = await deliveriesOf(endpoint.id);
  assert.equal(delivery.status, 'pending');
  assert.equal(delivery.status_code, 302);
  assert.equal(delivery.error, 'redirect (302) not followed');
  t.clock.advance(RETRY_DELAYS_MS[0]);
  await deliver();
  [delivery] = await deliveriesOf(endpoint.id);
  assert.equal(delivery.status_code, 404);
  assert.equal(delivery.error, 'answered 404');
  t.clock.advance(RETRY_DELAYS_MS[1]);
  await deliver();
  [delivery] = await deliveriesOf(endpoint.id);
  assert.equal(delivery.status, 'succeeded');
  assert.ok(Buffer.byteLength(delivery.response_excerpt) <= 2048 + 2, `kept ${Buffer.byteLength(delivery.response_excerpt)} bytes`);
  assert.ok(delivery.response_excerpt.startsWith('é'.repeat(1000)));
  assert.equal(delivery.error, undefined);
  await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
});

test('retries run out after 8 attempts (owners and admins mailed once), and 5 days of failure disable the endpoint (mailed once)', async () => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 503, body: 'still down' });
  const endpoint = await addEndpoint(api.owner.client, api.apiId, receiver.url, { event_types: ['customer.created'] });
  t.mail.take(api.owner.email);
  await createCustomer(t, api, 'Never Co');
  await deliver();
  for (const delay of RETRY_DELAYS_MS) {
    t.clock.advance(delay);
    await deliver();
  }
  assert.equal(receiver.received.length, MAX_ATTEMPTS);
  assert.equal(new Set(receiver.received.map((r) => r.id)).size, 1);
  const [delivery] = await deliveriesOf(endpoint.id);
  assert.equal(delivery.status, 'failed');
  assert.equal(delivery.attempts, MAX_ATTEMPTS);
  assert.equal(delivery.next_attempt_at, undefined);
  const exhausted = await t.mail.waitFor(api.owner.email, /Webhook deliveries of Hooked API are failing/);
  assert.match(exhausted.text, /customer\.created event could not be delivered/);
  // The mail's link answers the owner with the deliveries.
  const link = exhausted.text.match(/https?:\/\/\S+/g)!.at(-1)!;
  assert.equal(link, `${t.url}/api/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries`);
  assert.equal((await api.owner.client.get(link.slice(`${t.url}/api`.length))).status, 200);

  // A second exhausted delivery in the same failing streak mails no one again.
  await createCustomer(t, api, 'Never Again Co');
  await deliver();
  for (const delay of RETRY_DELAYS_MS) {
    t.clock.advance(delay);
    await deliver();
  }
  let endpointNow = (await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).body;
  assert.equal(endpointNow.enabled, true, 'not yet 5 days of failure');
  const failingSince = new Date(endpointNow.failing_since).getTime();

  // Five days after the first failure, the next failed attempt disables it.
  t.clock.advance(DISABLE_AFTER_MS - (t.clock.now().getTime() - failingSince));
  await createCustomer(t, api, 'Last Straw Co');
  await deliver();
  endpointNow = (await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).body;
  assert.equal(endpointNow.enabled, false);
  assert.equal(endpointNow.disabled_reason, 'failing');
  const disabledMail = await t.mail.waitFor(api.owner.email, /A webhook endpoint of Hooked API was disabled/);
  assert.equal(disabledMail.text.match(/https?:\/\/\S+/g)!.at(-1), link);
  const mails = t.mail.take(api.owner.email);
  assert.equal(mails.filter((m) => /are failing/.test(m.subject)).length, 1, 'one mail when retries first ran out');
  assert.equal(mails.filter((m) => /was disabled/.test(m.subject)).length, 1);

  // Disabled: its pending delivery waits, new events make no delivery for it, and they are listed.
  const sentBefore = receiver.received.length;
  await createCustomer(t, api, 'While Disabled Co');
  t.clock.advance(HOUR);
  await deliver();
  assert.equal(receiver.received.length, sentBefore);
  assert.equal((await storedEvents(t, api.apiId)).filter((e) => e.type === 'customer.created').at(-1)!.data.object.name, 'While Disabled Co');

  // Enabled again: a fresh start, and the pending delivery resumes.
  receiver.answer = () => ({ status: 200 });
  const enabled = await api.owner.client.patch(`/apis/${api.apiId}/webhooks/${endpoint.id}`, { enabled: true });
  assert.equal(enabled.status, 200, enabled.text);
  assert.equal(enabled.body.enabled, true);
  assert.equal(enabled.body.failing_since, undefined);
  t.clock.advance(RETRY_DELAYS_MS[0]);
  assert.equal((await deliver()).succeeded, 1);
  await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
});

test('a rotated secret signs beside the new one for 24 hours, then only the new one signs', async () => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 200 });
  const endpoint = await addEndpoint(api.owner.client, api.apiId, `${receiver.url}/rotation`, { event_types: ['customer.created'] });
  const rotated = await api.owner.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/rotate-secret`);
  assert.equal(rotated.status, 200, rotated.text);
  const fresh = rotated.body.secret as string;
  assert.notEqual(fresh, endpoint.secret);
  assert.ok(rotated.body.previous_secret_expires_at);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).body.secret, undefined, 'the secret is shown only once');

  await createCustomer(t, api, 'During Rotation Co');
  await deliver();
  t.clock.advance(24 * HOUR - 60 * SECOND);
  await createCustomer(t, api, 'Late In Rotation Co');
  await deliver();
  t.clock.advance(120 * SECOND);
  await createCustomer(t, api, 'After Rotation Co');
  await deliver();

  const [during, late, afterwards] = receiver.received.filter((r) => r.path === '/hooks/rotation');
  for (const request of [during!, late!]) {
    assert.equal(request.signatures.length, 2);
    assert.ok(signedBy(fresh, request), 'signed with the new secret');
    assert.ok(signedBy(endpoint.secret, request), 'signed with the old secret');
  }
  assert.equal(afterwards!.signatures.length, 1);
  assert.ok(signedBy(fresh, afterwards!));
  assert.ok(!signedBy(endpoint.secret, afterwards!), 'the old secret no longer signs after 24 hours');
  const out = (await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).body;
  assert.equal(out.previous_secret_expires_at, undefined);
  await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
});
