// The console's webhook endpoints and the API's events (issue 24 item 5): roles (viewers read,
// editors and up change), another workspace's endpoint is 404, audit events without secrets,
// bounds, test events, retry, replay, and GET /apis/{api}/events with its cursor, type filter,
// 30-day window and retention job.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { webhookEventRetentionJob } from '../../src/jobs/webhooks.js';
import { raiseEvent } from '../../src/webhooks/outbox.js';
import { signUp } from '../support/flows.js';
import { startTestApp, testDatabaseKind, type TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, createCustomer, type ApiFixture } from '../support/money.js';
import { addEndpoint, listEvents, signedBy, startReceiver, type Receiver } from '../support/webhooks.js';
import { addMember, createKey } from '../support/workspaces.js';

let t: TestApp;
let api: ApiFixture;
let receiver: Receiver;

before(async () => {
  t = await startTestApp({ UNSAFE_OUTBOUND_PRIVATE: 'true' });
  api = await createApi(t, { name: 'Console Hooks' });
  receiver = await startReceiver();
});
after(async () => {
  await receiver.close();
  await t.close();
});

const deliver = () => t.services.webhookDelivery.deliverDue();

test('no endpoint, no events: events are kept once the API has an endpoint', async () => {
  await createCustomer(t, api, 'Before Any Endpoint');
  assert.deepEqual(await listEvents(api), []);
  const endpoint = await addEndpoint(api.owner.client, api.apiId, receiver.url);
  const customer = await createCustomer(t, api, 'After One');
  const events = await listEvents(api, '', 2);
  assert.deepEqual(events.map((e) => e.type), ['customer.created', 'credit.added']);
  assert.equal(events[0]!.data.object.id, customer.id);
  assert.equal(events[1]!.data.object.kind, 'welcome');
  assert.equal(events[1]!.data.object.balance_seq, 1);
  assert.equal(await deliver().then((r) => r.succeeded), 2);
  await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
});

test('viewers read, editors change, secrets are shown once, and every change is audited without them', async () => {
  const viewer = await addMember(t, api.owner.client, api.owner.workspaceId, 'viewer');
  const editor = await addMember(t, api.owner.client, api.owner.workspaceId, 'editor');
  assert.equal((await viewer.client.post(`/apis/${api.apiId}/webhooks`, { url: receiver.url })).status, 403);
  const endpoint = await addEndpoint(editor.client, api.apiId, `${receiver.url}/audited`, { description: 'billing system', event_types: ['customer.created', 'credit.added'] });
  const read = await viewer.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.secret, undefined);
  assert.deepEqual(read.body.event_types, ['customer.created', 'credit.added']);
  assert.equal(read.body.enabled, true);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/webhooks`)).body.webhooks.length, 1);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries`)).status, 200);
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/events`)).status, 200);
  for (const [method, path] of [['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['POST', '/rotate-secret']] as const) {
    const answer = await viewer.client.request(method, `/apis/${api.apiId}/webhooks/${endpoint.id}${path}`, method === 'PATCH' ? { description: 'x' } : undefined);
    assert.equal(answer.status, 403, `${method} ${path}`);
  }

  // A change that changes nothing writes nothing.
  const same = await editor.client.patch(`/apis/${api.apiId}/webhooks/${endpoint.id}`, { description: 'billing system', event_types: ['customer.created', 'credit.added'], enabled: true });
  assert.equal(same.status, 200);
  assert.equal(same.body.updated_at, read.body.updated_at);
  const changed = await editor.client.patch(`/apis/${api.apiId}/webhooks/${endpoint.id}`, { event_types: [] });
  assert.deepEqual(changed.body.event_types, []);
  const disabled = await editor.client.patch(`/apis/${api.apiId}/webhooks/${endpoint.id}`, { enabled: false });
  assert.equal(disabled.body.enabled, false);
  assert.equal(disabled.body.disabled_reason, 'manual');
  await editor.client.patch(`/apis/${api.apiId}/webhooks/${endpoint.id}`, { enabled: true });
  const rotated = await editor.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/rotate-secret`);
  assert.equal(rotated.status, 200);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).status, 204);
  assert.equal((await editor.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).status, 404);

  const audit = (await apiAuditEvents(api.owner.client, api.owner.workspaceId, api.apiId)).filter((e) => e.target_id === endpoint.id).reverse();
  assert.deepEqual(audit.map((e) => e.action), ['webhook.create', 'webhook.update', 'webhook.disable', 'webhook.enable', 'webhook.secret_rotate', 'webhook.delete']);
  for (const event of audit) {
    assert.equal(event.target_id, endpoint.id);
    assert.ok(!JSON.stringify(event).includes(endpoint.secret) && !JSON.stringify(event).includes(rotated.body.secret), 'no secret in the audit log');
    assert.ok(!JSON.stringify(event).includes('whsec_'));
  }
  assert.deepEqual(audit[1]!.details.event_types, { from: ['customer.created', 'credit.added'], to: [] });
});

test("another workspace's endpoints, deliveries and events answer 404", async () => {
  const endpoint = await addEndpoint(api.owner.client, api.apiId, `${receiver.url}/private`);
  const outsider = await signUp(t);
  const theirs = await createApi(t, { name: 'Outsider API' }, outsider);
  const attempts: [string, string, unknown?][] = [
    ['GET', `/apis/${api.apiId}/webhooks`],
    ['GET', `/apis/${api.apiId}/events`],
    ['POST', `/apis/${api.apiId}/webhooks`, { url: receiver.url }],
    ['GET', `/apis/${api.apiId}/webhooks/${endpoint.id}`],
    ['PATCH', `/apis/${api.apiId}/webhooks/${endpoint.id}`, { enabled: false }],
    ['DELETE', `/apis/${api.apiId}/webhooks/${endpoint.id}`],
    ['POST', `/apis/${api.apiId}/webhooks/${endpoint.id}/rotate-secret`],
    ['GET', `/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries`],
    // Their own API, our endpoint's id: not theirs either.
    ['GET', `/apis/${theirs.apiId}/webhooks/${endpoint.id}`],
    ['POST', `/apis/${theirs.apiId}/webhooks/${endpoint.id}/test`],
    ['POST', `/apis/${theirs.apiId}/webhooks/${endpoint.id}/replay`, { since: new Date().toISOString() }],
  ];
  for (const [method, path, body] of attempts) {
    const answer = await outsider.client.request(method, path, body);
    assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
    assert.match(answer.headers.get('content-type') ?? '', /problem\+json/);
  }
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}`)).body.enabled, true, 'nothing changed');
  await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${endpoint.id}`);
});

test('bounds: a known event type each once, a description of 200, at most 20 endpoints', async () => {
  const post = (body: Record<string, unknown>) => api.owner.client.post(`/apis/${api.apiId}/webhooks`, { url: receiver.url, ...body });
  assertRefusedAt(await post({ event_types: ['customer.made'] }), 'body.event_types');
  assertRefusedAt(await post({ event_types: ['customer.created', 'customer.created'] }), 'body.event_types');
  assertRefusedAt(await post({ event_types: ['webhook.test'] }), 'body.event_types');
  assertRefusedAt(await post({ description: 'd'.repeat(201) }), 'body.description');
  assertRefusedAt(await post({ secret: 'whsec_mine' }), 'body');
  assertRefusedAt(await post({ url: `http://127.0.0.1:1/${'p'.repeat(2000)}` }), 'body.url');
  const made: string[] = [];
  for (let i = 0; i < 20; i++) {
    const answer = await post({ description: 'd'.repeat(200) });
    assert.equal(answer.status, 200, answer.text);
    made.push(answer.body.id);
  }
  const over = await post({});
  assert.equal(over.status, 409, over.text);
  assert.equal(over.body.type, 'urn:gatehouse:problem:webhook_limit');
  for (const id of made) await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${id}`);
});

test('a test event goes to its endpoint alone; retry and replay send events again under their ids', async () => {
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 200 });
  const endpoint = await addEndpoint(api.owner.client, api.apiId, `${receiver.url}/replayed`, { event_types: ['customer.created'] });
  const other = await addEndpoint(api.owner.client, api.apiId, `${receiver.url}/other`);
  const tested = await api.owner.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/test`);
  assert.equal(tested.status, 200, tested.text);
  assert.equal(tested.body.event_type, 'webhook.test');
  assert.equal(tested.body.status, 'pending');
  await deliver();
  const test = receiver.received.find((r) => r.body.type === 'webhook.test')!;
  assert.equal(test.path, '/hooks/replayed');
  assert.ok(signedBy(endpoint.secret, test));
  assert.equal(test.body.data.object.id, endpoint.id);
  assert.equal(receiver.received.filter((r) => r.path === '/hooks/other').length, 0, 'the test went to its endpoint alone');
  assert.ok(!(await listEvents(api)).some((e) => e.type === 'webhook.test'), 'test events are not listed');

  // Two seconds on, so that no event of the tests before (a customer made within the last second
  // on a fast machine) falls after `since`.
  t.clock.advance(2_000);
  const since = new Date(t.clock.now().getTime() - 1000).toISOString();
  const first = await createCustomer(t, api, 'Replay One');
  await createCustomer(t, api, 'Replay Two');
  await deliver();
  const toEndpoint = () => receiver.received.filter((r) => r.path === '/hooks/replayed' && r.body.type === 'customer.created');
  assert.equal(toEndpoint().length, 2);
  const [delivery] = (await api.owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries`)).body.deliveries;
  const retried = await api.owner.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`);
  assert.equal(retried.status, 200, retried.text);
  assert.notEqual(retried.body.id, delivery.id);
  assert.equal(retried.body.event_id, delivery.event_id);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries/dlv_nope/retry`)).status, 404);
  await deliver();
  assert.equal(toEndpoint().length, 3);
  assert.equal(toEndpoint()[2]!.id, delivery.event_id, 'a retry sends the event under its id');

  const replayed = await api.owner.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/replay`, { since });
  assert.equal(replayed.status, 200, replayed.text);
  assert.equal(replayed.body.deliveries, 2, "both customers' creations (the endpoint hears customer.created only)");
  assertRefusedAt(await api.owner.client.post(`/apis/${api.apiId}/webhooks/${endpoint.id}/replay`, { since: new Date(Date.now() + 3_600_000 * 48).toISOString() }), 'body.since');
  await deliver();
  const all = toEndpoint();
  assert.equal(all.length, 5);
  const sorted = (ids: string[]) => [...ids].sort();
  assert.ok(all.slice(3).some((r) => r.body.data.object.id === first.id));
  assert.deepEqual(sorted(all.slice(3).map((r) => r.id)), sorted(all.slice(0, 2).map((r) => r.id)), 'replayed under the same ids');
  const audit = (await apiAuditEvents(api.owner.client, api.owner.workspaceId, api.apiId)).map((e) => e.action);
  assert.ok(audit.includes('webhook.retry') && audit.includes('webhook.replay'));
  for (const id of [endpoint.id, other.id]) await api.owner.client.delete(`/apis/${api.apiId}/webhooks/${id}`);
});

test('an event committed after a later one is never skipped by a cursor (PostgreSQL: transactions at once)', { skip: testDatabaseKind !== 'postgres' && 'PGlite runs one transaction at a time' }, async () => {
  const fresh = await createApi(t, { name: 'Events Order' }, api.owner);
  const customer = await createCustomer(t, fresh, 'Credited Late');
  const endpoint = await addEndpoint(api.owner.client, fresh.apiId, receiver.url);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let raised!: () => void;
  const raisedEarly = new Promise<void>((resolve) => (raised = resolve));
  const slow = t.services.db.transaction().execute(async (trx) => {
    await raiseEvent(trx, fresh.apiId, t.clock.now(), { type: 'customer.updated', data: { object: { object: 'customer', id: 'cus_slow' } } });
    raised();
    await gate;
  });
  await raisedEarly;
  const credited = await api.owner.client.post(`/apis/${fresh.apiId}/customers/${customer.id}/credit`, { amount_micro: 5, note: 'committed first' });
  assert.equal(credited.status, 200, credited.text);
  // The credit's event is committed, but an older transaction that raised an event still runs:
  // the listing waits for it rather than hand out a cursor past its event.
  assert.deepEqual(await listEvents(fresh), []);
  release();
  await slow;
  const listed = await listEvents(fresh, '', 2);
  assert.deepEqual(listed.map((e) => [e.type, e.data.object.customer_id ?? e.data.object.id]), [['customer.updated', 'cus_slow'], ['credit.added', customer.id]]);
  await api.owner.client.delete(`/apis/${fresh.apiId}/webhooks/${endpoint.id}`);
});

test('GET /apis/{api}/events pages oldest first after an event id, filters by type, and keeps 30 days', async () => {
  const fresh = await createApi(t, { name: 'Events Listing' }, api.owner);
  const endpoint = await addEndpoint(api.owner.client, fresh.apiId, receiver.url);
  for (let i = 0; i < 5; i++) await createCustomer(t, fresh, `Listed ${i}`);
  const all = await listEvents(fresh, '', 10);
  assert.equal(all.length, 10);
  const page1 = await api.owner.client.get(`/apis/${fresh.apiId}/events?limit=3`);
  assert.equal(page1.body.has_more, true);
  const page2 = await api.owner.client.get(`/apis/${fresh.apiId}/events?limit=3&after=${page1.body.events[2].id}`);
  assert.deepEqual([...page1.body.events, ...page2.body.events].map((e: { id: string }) => e.id), all.slice(0, 6).map((e) => e.id));
  const created = await listEvents(fresh, '&type=customer.created');
  assert.deepEqual(created.map((e) => e.data.object.name), ['Listed 0', 'Listed 1', 'Listed 2', 'Listed 3', 'Listed 4']);
  const afterThird = await api.owner.client.get(`/apis/${fresh.apiId}/events?type=customer.created&after=${created[2]!.id}`);
  assert.deepEqual(afterThird.body.events.map((e: { data: any }) => e.data.object.name), ['Listed 3', 'Listed 4']);
  assertRefusedAt(await api.owner.client.get(`/apis/${fresh.apiId}/events?after=evt_unknown`), 'query.after');
  assertRefusedAt(await api.owner.client.get(`/apis/${fresh.apiId}/events?type=customer.made`), 'query.type');
  assertRefusedAt(await api.owner.client.get(`/apis/${api.apiId}/events?after=${all[0]!.id}`), 'query.after');

  // 30 days on (past the owner's session: a workspace key reads on), the events are no longer
  // listed, and the retention job deletes them.
  const key = await createKey(t, api.owner.client, api.owner.workspaceId, 'viewer');
  t.clock.advance(30 * DAY + 1000);
  assert.deepEqual(await listEvents({ ...fresh, owner: { ...fresh.owner, client: key.client } }), []);
  assertRefusedAt(await key.client.get(`/apis/${fresh.apiId}/events?after=${all[0]!.id}`), 'query.after');
  assert.ok(await t.services.scheduler.runOnce(webhookEventRetentionJob(t.clock)));
  const left = await t.services.db.selectFrom('webhook_events').select('id').where('api_id', '=', fresh.apiId).execute();
  assert.deepEqual(left, []);
  assert.equal((await key.client.get(`/apis/${fresh.apiId}/webhooks/${endpoint.id}`)).status, 200, 'the endpoint stays');
});
