// An API's SDK secret (reveal, rotation with a grace of 0..168 hours), suspension, deletion, who
// may do each, and tenant isolation: an API of another workspace answers 404 on every route
// (spec 2.1 SecretBody, RotateInBody; spec 3 "SDK secret"; spec 8; DESIGN 5 and 6).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import type { TestClient } from '../support/client.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, createCustomer, createKey, fetchSnapshot, type ApiFixture } from '../support/money.js';
import { addMember, createKey as createWorkspaceKey, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let ws: string;
let admin: Member;
let editor: Member;
let viewer: Member;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Lia Owner' });
  ws = owner.workspaceId;
  admin = await addMember(t, owner.client, ws, 'admin');
  editor = await addMember(t, owner.client, ws, 'editor');
  viewer = await addMember(t, owner.client, ws, 'viewer');
});
after(() => t.close());

/** A client of the SDK API that presents `secret`. */
function sdkWith(secret: string): TestClient {
  const sdk = t.sdkClient();
  sdk.bearer = secret;
  return sdk;
}
const opens = async (secret: string) => (await sdkWith(secret).get('/sdk/v1/snapshot')).status;
const rotate = (api: ApiFixture, body: unknown, client = owner.client) => client.post(`/apis/${api.apiId}/secret/rotate`, body);

test('admins and owners reveal the SDK secret again; editors and viewers get 403', async () => {
  const api = await createApi(t, { name: 'Reveal API' }, owner);
  assert.match(api.secret, /^mas_/);
  for (const client of [owner.client, admin.client]) {
    const revealed = await client.get(`/apis/${api.apiId}/secret`);
    assert.equal(revealed.status, 200, revealed.text);
    assert.deepEqual(revealed.body, { secret: api.secret });
  }
  for (const client of [editor.client, viewer.client]) {
    const refused = await client.get(`/apis/${api.apiId}/secret`);
    assert.equal(refused.status, 403, refused.text);
    assert.ok(!refused.text.includes(api.secret));
  }
  // A workspace key acts with its role: an editor key cannot see the secret either.
  const editorKey = await createWorkspaceKey(t, owner.client, ws, 'editor');
  assert.equal((await editorKey.client.get(`/apis/${api.apiId}/secret`)).status, 403);
  const adminKey = await createWorkspaceKey(t, owner.client, ws, 'admin');
  assert.equal((await adminKey.client.get(`/apis/${api.apiId}/secret`)).body.secret, api.secret);
});

test('grace_hours is 0 to 168: -1, 169 and fractions are refused; 24 is the default', async () => {
  const api = await createApi(t, { name: 'Grace Bounds API' }, owner);
  for (const grace_hours of [-1, 169, 1.5, '24']) {
    assertRefusedAt(await rotate(api, { grace_hours }), 'body.grace_hours');
  }
  assertRefusedAt(await rotate(api, { grace_hours: 24, note: 'x' }), 'body.note');
  assert.equal(await opens(api.secret), 200, 'a refused rotation changed nothing');
  const at168 = await rotate(api, { grace_hours: 168 });
  assert.equal(at168.status, 200, at168.text);
  assert.match(at168.body.secret, /^mas_[0-9A-Za-z]{43}$/);
  const validUntil = Date.parse((await owner.client.get(`/apis/${api.apiId}`)).body.previous_secret_valid_until);
  assert.ok(Math.abs(validUntil - (t.clock.now().getTime() + 168 * HOUR)) < MINUTE, 'the old secret lasts 168 hours');
  const at0 = await rotate(api, { grace_hours: 0 });
  assert.equal(at0.status, 200, at0.text);
  // Without a body member the grace is 24 hours (RotateInBody default).
  const byDefault = await rotate(api, {});
  assert.equal(byDefault.status, 200, byDefault.text);
  const defaultUntil = Date.parse((await owner.client.get(`/apis/${api.apiId}`)).body.previous_secret_valid_until);
  assert.ok(Math.abs(defaultUntil - (t.clock.now().getTime() + 24 * HOUR)) < MINUTE, 'the default grace is 24 hours');
  assert.equal(await opens(at0.body.secret), 200, 'the secret before the default rotation is in its grace');
  assert.equal(await opens(byDefault.body.secret), 200);
});

test('after a rotation with grace 24 the old secret works until the grace ends, then answers 401', async () => {
  const api = await createApi(t, { name: 'Grace API' }, owner);
  const rotated = await rotate(api, { grace_hours: 24 });
  assert.equal(rotated.status, 200, rotated.text);
  const fresh = rotated.body.secret as string;
  assert.notEqual(fresh, api.secret);
  assert.equal((await owner.client.get(`/apis/${api.apiId}/secret`)).body.secret, fresh, 'reveal shows the new secret');
  assert.equal(await opens(api.secret), 200, 'the old secret still opens the snapshot');
  assert.equal(await opens(fresh), 200);
  const shown = (await owner.client.get(`/apis/${api.apiId}`)).body.previous_secret_valid_until;
  assert.ok(shown, 'previous_secret_valid_until shows during the grace');
  assert.ok(Math.abs(Date.parse(shown) - (t.clock.now().getTime() + 24 * HOUR)) < MINUTE);

  t.clock.advance(24 * HOUR - MINUTE);
  assert.equal(await opens(api.secret), 200, 'a minute before the end it still works');
  t.clock.advance(2 * MINUTE);
  const late = await sdkWith(api.secret).get('/sdk/v1/snapshot');
  assert.equal(late.status, 401, late.text);
  assert.match(late.headers.get('www-authenticate') ?? '', /^Bearer/);
  assert.equal(await opens(fresh), 200);
  assert.equal((await owner.client.get(`/apis/${api.apiId}`)).body.previous_secret_valid_until, undefined, 'the grace no longer shows');
});

test('a rotation with grace 0 ends the old secret at once', async () => {
  const api = await createApi(t, { name: 'No Grace API' }, owner);
  const rotated = await rotate(api, { grace_hours: 0 }, admin.client);
  assert.equal(rotated.status, 200, rotated.text);
  assert.equal(await opens(api.secret), 401);
  assert.equal(await opens(rotated.body.secret), 200);
  assert.equal((await owner.client.get(`/apis/${api.apiId}`)).body.previous_secret_valid_until, undefined);
  // Rotating again ends the grace of an older secret: only one previous secret is kept.
  const second = await rotate(api, { grace_hours: 24 });
  const third = await rotate(api, { grace_hours: 24 });
  assert.equal(await opens(rotated.body.secret), 401, 'two rotations back no longer works');
  assert.equal(await opens(second.body.secret), 200);
  assert.equal(await opens(third.body.secret), 200);
});

test('only admins rotate: editors and viewers get 403 and the secret stays', async () => {
  const api = await createApi(t, { name: 'Rotate Roles API' }, owner);
  for (const client of [editor.client, viewer.client]) assert.equal((await rotate(api, { grace_hours: 0 }, client)).status, 403);
  assert.equal(await opens(api.secret), 200);
  assert.equal((await owner.client.get(`/apis/${api.apiId}`)).body.previous_secret_valid_until, undefined);
});

test('admins suspend and resume an API; editors and viewers get 403', async () => {
  const api = await createApi(t, { name: 'Suspend API' }, owner);
  const customer = await createCustomer(t, api);
  for (const client of [editor.client, viewer.client]) {
    assert.equal((await client.post(`/apis/${api.apiId}/suspend`, { reason: 'nope' })).status, 403);
    assert.equal((await client.post(`/apis/${api.apiId}/resume`)).status, 403);
  }
  assertRefusedAt(await admin.client.post(`/apis/${api.apiId}/suspend`, { reason: 'r'.repeat(301) }), 'body.reason');
  const suspended = await admin.client.post(`/apis/${api.apiId}/suspend`, { reason: 'r'.repeat(300) });
  assert.equal(suspended.status, 200, suspended.text);
  assert.equal(suspended.body.status, 'suspended');
  assert.equal(suspended.body.suspended_reason, 'r'.repeat(300));
  // While suspended, every customer reads suspended to the SDK.
  const snap = await fetchSnapshot(api);
  assert.equal(snap.customers.find((c) => c.id === customer.id)!.status, 'suspended');
  const summaries = await viewer.client.get(`/workspaces/${ws}/apis`);
  assert.equal(summaries.body.apis.find((a: { id: string }) => a.id === api.apiId).status, 'suspended');
  const resumed = await admin.client.post(`/apis/${api.apiId}/resume`);
  assert.equal(resumed.status, 200, resumed.text);
  assert.equal(resumed.body.status, 'active');
  assert.equal(resumed.body.suspended_reason, undefined);
  assert.equal((await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!.status, 'active');
  // A suspension without a reason.
  const plain = await owner.client.post(`/apis/${api.apiId}/suspend`, {});
  assert.equal(plain.status, 200, plain.text);
  assert.equal(plain.body.suspended_reason, undefined);
});

test('the workspace owner deletes an API: admins, editors and viewers get 403; afterwards it answers 404 everywhere', async () => {
  const api = await createApi(t, { name: 'Doomed API' }, owner);
  const customer = await createCustomer(t, api);
  await createKey(api, customer.id);
  for (const client of [admin.client, editor.client, viewer.client]) assert.equal((await client.delete(`/apis/${api.apiId}`)).status, 403);
  assert.equal((await owner.client.get(`/apis/${api.apiId}`)).status, 200);
  const deleted = await owner.client.delete(`/apis/${api.apiId}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal(deleted.text, '');
  for (const path of ['', '/secret', '/connection', '/stats', '/customers', `/customers/${customer.id}`, '/ledger', '/plans']) {
    assert.equal((await owner.client.get(`/apis/${api.apiId}${path}`)).status, 404, path);
  }
  assert.equal((await owner.client.delete(`/apis/${api.apiId}`)).status, 404);
  assert.equal(await opens(api.secret), 401, 'its SDK secret no longer opens anything');
  const listed = await owner.client.get(`/workspaces/${ws}/apis`);
  assert.ok(!listed.body.apis.some((a: { id: string }) => a.id === api.apiId));
  // Its slug is free again.
  assert.equal((await owner.client.get(`/slugs/${api.slug}`)).body.available, true);
  // The deletion stays in the workspace's log.
  const events = await apiAuditEvents(owner.client, ws, api.apiId);
  assert.equal(events[0]!.action, 'api.delete');
});

test("an API of another workspace answers 404 on every /apis/{api} route, and nothing changes", async () => {
  const api = await createApi(t, { name: 'Private API' }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const plan = await owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Basic', price_monthly_cents: 900 });
  assert.equal(plan.status, 200, plan.text);
  const stranger = await signUp(t, { name: 'Sol Stranger' });
  const base = `/apis/${api.apiId}`;
  const cus = `${base}/customers/${customer.id}`;
  const routes: [string, string, unknown?][] = [
    ['GET', base], ['PATCH', base, { name: 'Hijacked' }], ['DELETE', base],
    ['GET', `${base}/secret`], ['POST', `${base}/secret/rotate`, { grace_hours: 0 }], ['PUT', `${base}/logo`, { logo_url: 'https://evil.example/x.png' }],
    ['POST', `${base}/suspend`, {}], ['POST', `${base}/resume`], ['GET', `${base}/connection`], ['GET', `${base}/stats`], ['POST', `${base}/test-key`],
    ['GET', `${base}/customers`], ['POST', `${base}/customers`, { name: 'Sneaky', email: 'sneaky@example.com' }],
    ['POST', `${base}/customers/invite`, { email: 'sneaky@example.com' }], ['GET', cus], ['PATCH', cus, { status: 'suspended' }],
    ['PUT', `${cus}/limits`, { rps: 1 }], ['POST', `${cus}/keys`, { name: 'stolen' }], ['DELETE', `${cus}/keys/${key.id}`],
    ['POST', `${cus}/credit`, { amount_micro: 1_000_000, note: 'free money' }], ['GET', `${base}/ledger`],
    ['GET', `${base}/plans`], ['POST', `${base}/plans`, { name: 'Evil', price_monthly_cents: 0 }],
    ['PATCH', `${base}/plans/${plan.body.id}`, { price_monthly_cents: 1 }], ['DELETE', `${base}/plans/${plan.body.id}`],
  ];
  for (const [method, path, body] of routes) {
    const answer = await stranger.client.request(method, path, body);
    assert.equal(answer.status, 404, `${method} ${path}: ${answer.text}`);
    assert.ok(!answer.text.includes('Private API'), 'nothing of the API shows');
  }
  // Nothing was changed by any of them.
  const after = await owner.client.get(base);
  assert.equal(after.body.name, 'Private API');
  assert.equal(after.body.status, 'active');
  assert.equal(await opens(api.secret), 200);
  const detail = await owner.client.get(cus);
  assert.equal(detail.body.status, 'active');
  assert.equal(detail.body.balance_micro, 1_000_000);
  assert.equal(detail.body.keys.length, 1);
  assert.equal((await owner.client.get(`${base}/plans`)).body.plans.length, 1);
  // An API id that does not exist answers the same.
  assert.equal((await owner.client.get('/apis/api_doesnotexist')).status, 404);
});

test('viewers read every view of an API; admins make every change an editor can', async () => {
  const api = await createApi(t, { name: 'Roles API' }, owner);
  const customer = await createCustomer(t, api, 'Roles Customer');
  const base = `/apis/${api.apiId}`;
  for (const path of [base, `${base}/connection`, `${base}/stats`, `${base}/customers`, `${base}/customers/${customer.id}`, `${base}/ledger`, `${base}/plans`, `/workspaces/${ws}/apis`, `/workspaces/${ws}/audit?api_id=${api.apiId}`, '/platform/plans', '/slugs/some-slug']) {
    const answer = await viewer.client.get(path);
    assert.equal(answer.status, 200, `${path}: ${answer.text}`);
    assert.ok(!answer.text.includes(api.secret), `no secret in ${path}`);
  }
  const changes: [string, string, unknown?][] = [
    ['PATCH', base, { tagline: 'Admin was here' }],
    ['PUT', `${base}/logo`, { logo_url: 'https://cdn.example.com/admin.png' }],
    ['POST', `${base}/customers`, { name: 'Admin Customer', email: 'admin-made@acme.test' }],
    ['PATCH', `${base}/customers/${customer.id}`, { notes: 'admin note' }],
    ['PUT', `${base}/customers/${customer.id}/limits`, { rps: 2 }],
    ['POST', `${base}/customers/${customer.id}/keys`, { name: 'admin key' }],
    ['POST', `${base}/customers/${customer.id}/credit`, { amount_micro: 10, note: 'admin credit' }],
    ['POST', `${base}/plans`, { name: 'Admin plan', price_monthly_cents: 100 }],
    ['POST', `${base}/test-key`],
  ];
  for (const [method, path, body] of changes) {
    const answer = await admin.client.request(method, path, body);
    assert.equal(answer.status, 200, `${method} ${path}: ${answer.text}`);
  }
  assert.equal((await admin.client.get(`${base}/secret`)).status, 200);
});

test('every change writes an event with api_id, and no secret appears in the log', async () => {
  const api = await createApi(t, { name: 'Audited API' }, owner);
  const secrets = [api.secret];
  assert.equal((await owner.client.patch(`/apis/${api.apiId}`, { rps: 42 })).status, 200);
  assert.equal((await owner.client.put(`/apis/${api.apiId}/logo`, { logo_url: 'https://cdn.example.com/a.png' })).status, 200);
  assert.equal((await owner.client.get(`/apis/${api.apiId}/secret`)).status, 200);
  const rotated = await rotate(api, { grace_hours: 1 });
  secrets.push(rotated.body.secret);
  assert.equal((await admin.client.post(`/apis/${api.apiId}/suspend`, { reason: 'audit check' })).status, 200);
  assert.equal((await admin.client.post(`/apis/${api.apiId}/resume`)).status, 200);
  assert.equal((await owner.client.delete(`/apis/${api.apiId}`)).status, 204);

  const events = await apiAuditEvents(viewer.client, ws, api.apiId);
  assert.deepEqual(events.map((e) => e.action).reverse(), [
    'api.create', 'api.update', 'api.logo', 'api.secret_reveal', 'api.secret_rotate', 'api.suspend', 'api.resume', 'api.delete',
  ]);
  for (const event of events) {
    assert.equal(event.api_id, api.apiId);
    assert.equal(event.target_id, api.apiId);
  }
  assert.equal(events.find((e) => e.action === 'api.secret_rotate')!.details.grace_hours, 1);
  const log = JSON.stringify(events);
  for (const secret of secrets) {
    assert.ok(!log.includes(secret), 'no SDK secret in the log');
    assert.ok(!log.includes(secret.slice(4, 20)), 'not even part of one');
  }
});
