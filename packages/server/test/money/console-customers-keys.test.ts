// Custom limits (LimitsBody bounds), customer keys (spec 4.4 format, shown once, stored as
// SHA-256, revoked out of the snapshot), the funded test key, and customer invitations by real
// mail (spec 2.1 TestKeyBody, 2.2 LimitsBody, CustomerKey, InviteCustomerInBody; DESIGN 7 and 9).
import { isWellFormedApiKey } from '@gatehouse/protocol';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, createCustomer, createKey, fetchSnapshot, sha256, type ApiFixture, startWithApi } from '../support/money.js';
import { emailOfLength, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithApi('Kit Owner', { name: 'Keys API', slug: 'keys-api' }));
});
after(() => t.close());

const KEY_PATTERN = /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/;
const putLimits = (id: string, body: unknown) => editor.client.put(`/apis/${api.apiId}/customers/${id}/limits`, body);
const newKey = (customerId: string, name: unknown, client = editor.client) => client.post(`/apis/${api.apiId}/customers/${customerId}/keys`, { name });

const limitBounds: { field: string; accepted: (number | null)[]; refused: unknown[] }[] = [
  { field: 'rps', accepted: [0, 100_000, null], refused: [-1, 100_001, 1.5, '10'] },
  { field: 'price_per_request_micro', accepted: [0, 100_000_000, null], refused: [-1, 100_000_001] },
  { field: 'monthly_quota', accepted: [0, 9_000_000_000, null], refused: [-1] },
];

for (const { field, accepted, refused } of limitBounds) {
  test(`PUT limits ${field}: bounds kept, values past them refused at body.${field}`, async () => {
    const customer = await createCustomer(t, api, `Limit ${field}`);
    for (const value of accepted) {
      const answer = await putLimits(customer.id, { [field]: value });
      assert.equal(answer.status, 200, `${field}=${value}: ${answer.text}`);
      assert.equal(answer.body.custom[field], value);
      assert.equal(answer.body.custom_limits, value !== null);
    }
    assert.equal((await putLimits(customer.id, { [field]: accepted[0] })).status, 200);
    for (const value of refused) {
      assertRefusedAt(await putLimits(customer.id, { [field]: value }), `body.${field}`);
      const kept = await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`);
      assert.equal(kept.body.custom[field], accepted[0], 'a refused PUT changes nothing');
    }
  });
}

test('PUT limits replaces all custom limits, refuses undeclared fields and makes a new policy', async () => {
  const customer = await createCustomer(t, api, 'Replace Co');
  const before = (await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!;
  const set = await putLimits(customer.id, { rps: 3, price_per_request_micro: 7, monthly_quota: 100 });
  assert.deepEqual(set.body.custom, { monthly_quota: 100, price_per_request_micro: 7, rps: 3 });
  const after = (await fetchSnapshot(api)).customers.find((c) => c.id === customer.id)!;
  assert.notEqual(after.usage_policy_id, before.usage_policy_id);
  assert.equal(after.effective.price_per_request_micro, 7);
  // Fields left out are cleared: PUT replaces.
  const replaced = await putLimits(customer.id, { rps: 4 });
  assert.deepEqual(replaced.body.custom, { monthly_quota: null, price_per_request_micro: null, rps: 4 });
  assertRefusedAt(await putLimits(customer.id, { rps: 4, burst: 10 }), 'body.burst');
  const listed = await viewer.client.get(`/apis/${api.apiId}/customers?q=Replace`);
  assert.equal(listed.body.customers[0].custom_limits, true);
});

test('a new key is shown once in the spec 4.4 format with the API secret_prefix; only its SHA-256 is stored', async () => {
  const customer = await createCustomer(t, api, 'Key Co');
  const created = await newKey(customer.id, '  Production  ');
  assert.equal(created.status, 200, created.text);
  const { key, ...shown } = created.body;
  assert.deepEqual(Object.keys(shown).sort(), ['created_at', 'id', 'name', 'prefix']);
  assert.equal(shown.name, 'Production');
  assert.match(key, KEY_PATTERN);
  assert.ok(isWellFormedApiKey(key), 'the checksum is right');
  const prefix = (await owner.client.get(`/apis/${api.apiId}`)).body.secret_prefix;
  assert.equal(prefix, 'keysapi');
  assert.ok(key.startsWith(`${prefix}_`), key);
  assert.ok(key.startsWith(shown.prefix) && shown.prefix.length < 20, 'the prefix shows only the start');
  // The key is never shown again: not in the detail, the list or the snapshot.
  const detail = await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`);
  assert.deepEqual(detail.body.keys, [{ id: shown.id, name: 'Production', prefix: shown.prefix, created_at: shown.created_at }]);
  assert.ok(!detail.text.includes(key));
  const snap = await api.sdk.get('/sdk/v1/snapshot');
  assert.ok(!snap.text.includes(key));
  assert.ok(snap.body.keys.some((k: { id: string; key_hash: string; customer_id: string }) => k.id === shown.id && k.key_hash === sha256(key) && k.customer_id === customer.id));
  // The database holds its SHA-256 and nothing from which the key could be read.
  const row = await t.services.db.selectFrom('customer_keys').selectAll().where('id', '=', shown.id).executeTakeFirstOrThrow();
  assert.equal(row.key_hash, sha256(key));
  assert.ok(!JSON.stringify(row).includes(key.slice(shown.prefix.length)), 'no part of the secret past the prefix is stored');
  // Different keys for every call, even with one name.
  const second = await newKey(customer.id, 'Production');
  assert.notEqual(second.body.key, key);
  assert.notEqual(second.body.id, shown.id);
});

test('a key name is 1 to 80 characters', async () => {
  const customer = await createCustomer(t, api, 'Key Name Co');
  for (const name of ['k', 'k'.repeat(80)]) assert.equal((await newKey(customer.id, name)).status, 200, name);
  for (const name of ['', '   ', 'k'.repeat(81), 5]) assertRefusedAt(await newKey(customer.id, name), 'body.name');
});

test('a changed secret_prefix applies to new keys only', async () => {
  const customer = await createCustomer(t, api, 'Prefix Co');
  const old = await createKey(api, customer.id, 'before');
  assert.equal((await owner.client.patch(`/apis/${api.apiId}`, { secret_prefix: 'wx9' })).status, 200);
  const fresh = await createKey(api, customer.id, 'after');
  assert.ok(fresh.key.startsWith('wx9_'), fresh.key);
  assert.ok(isWellFormedApiKey(fresh.key));
  const snap = await fetchSnapshot(api);
  assert.ok(snap.keys.some((k) => k.key_hash === sha256(old.key)), 'the old key still works');
  assert.equal((await owner.client.patch(`/apis/${api.apiId}`, { secret_prefix: 'keysapi' })).status, 200);
});

test('revoking a key takes it out of the snapshot and the detail; a second revoke answers 404', async () => {
  const customer = await createCustomer(t, api, 'Revoke Co');
  const keep = await createKey(api, customer.id, 'keep');
  const drop = await createKey(api, customer.id, 'drop');
  assert.equal((await viewer.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${drop.id}`)).status, 403);
  const revoked = await editor.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${drop.id}`);
  assert.equal(revoked.status, 204, revoked.text);
  const hashes = (await fetchSnapshot(api)).keys.map((k) => k.key_hash);
  assert.ok(!hashes.includes(sha256(drop.key)));
  assert.ok(hashes.includes(sha256(keep.key)));
  const verify = await api.sdk.get(`/sdk/v1/keys/verify?key_hash=${sha256(drop.key)}`);
  assert.equal(verify.body.valid, false);
  const detail = await viewer.client.get(`/apis/${api.apiId}/customers/${customer.id}`);
  assert.deepEqual(detail.body.keys.map((k: { id: string }) => k.id), [keep.id]);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${drop.id}`)).status, 404);
  // A key is revoked only through its own customer.
  const other = await createCustomer(t, api, 'Other Revoke Co');
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/customers/${other.id}/keys/${keep.id}`)).status, 404);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/not-a-uuid`)).status, 404);
  assert.ok((await fetchSnapshot(api)).keys.some((k) => k.key_hash === sha256(keep.key)));
});

test('the test key: a funded is_test customer, a new key on every call, the key header', async () => {
  const fresh = await createApi(t, { name: 'Test Key API' }, owner);
  assert.equal((await owner.client.patch(`/apis/${fresh.apiId}`, { key_header: 'X-Weather-Key' })).status, 200);
  const first = await editor.client.post(`/apis/${fresh.apiId}/test-key`);
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(Object.keys(first.body).sort(), ['balance_micro', 'customer_id', 'key', 'key_header']);
  assert.equal(first.body.balance_micro, 10_000_000);
  assert.equal(first.body.key_header, 'X-Weather-Key');
  assert.match(first.body.key, KEY_PATTERN);
  assert.ok(isWellFormedApiKey(first.body.key));
  const customer = await owner.client.get(`/apis/${fresh.apiId}/customers/${first.body.customer_id}`);
  assert.equal(customer.body.is_test, true);
  assert.equal(customer.body.status, 'active');
  assert.equal(customer.body.balance_micro, 10_000_000);
  // Spend some of it, then ask again: same customer, a new key, topped up to the test credit.
  const spent = await owner.client.post(`/apis/${fresh.apiId}/customers/${first.body.customer_id}/credit`, { amount_micro: -3_000_000, note: 'spent in testing' });
  assert.equal(spent.body.balance_micro, 7_000_000);
  const second = await editor.client.post(`/apis/${fresh.apiId}/test-key`);
  assert.equal(second.body.customer_id, first.body.customer_id);
  assert.notEqual(second.body.key, first.body.key);
  assert.equal(second.body.balance_micro, 10_000_000);
  const hashes = (await fetchSnapshot(fresh)).keys.map((k) => k.key_hash);
  assert.ok(hashes.includes(sha256(first.body.key)) && hashes.includes(sha256(second.body.key)));
  // A funded test customer keeps its balance when asked again.
  const third = await editor.client.post(`/apis/${fresh.apiId}/test-key`);
  assert.equal(third.body.balance_micro, 10_000_000);
  // One test customer, counted apart from the real ones.
  const listed = await owner.client.get(`/apis/${fresh.apiId}/customers`);
  assert.equal(listed.body.customers.filter((c: { is_test: boolean }) => c.is_test).length, 1);
  assert.equal((await owner.client.get(`/apis/${fresh.apiId}/connection`)).body.customers, 0);
  assert.equal((await viewer.client.post(`/apis/${fresh.apiId}/test-key`)).status, 403);
});

test('asking for the first test key several times at once makes one test customer', async () => {
  const fresh = await createApi(t, { name: 'Test Key Race' }, owner);
  const answers = await Promise.all([1, 2, 3, 4].map(() => editor.client.post(`/apis/${fresh.apiId}/test-key`)));
  assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200], answers.map((a) => a.text).join('\n'));
  assert.equal(new Set(answers.map((a) => a.body.customer_id)).size, 1);
  assert.equal(new Set(answers.map((a) => a.body.key)).size, 4);
});

test('an invitation sends a real mail to the address; bad addresses are refused', async () => {
  const email = `invitee-${Date.now()}@example.com`;
  const sent = await editor.client.post(`/apis/${api.apiId}/customers/invite`, { email: email.toUpperCase() });
  assert.equal(sent.status, 200, sent.text);
  assert.deepEqual(sent.body, { sent: true });
  // The subject is fixed text (issue 26); the API's name is in the body.
  const mail = await t.mail.waitFor(email, /^You are invited to become a customer$/);
  assert.match(mail.text, /You are invited to use Keys API\./);
  // The link lands on the API's portal, with a token that works once.
  assert.match(mail.text, new RegExp(`http://keys-api\\.localhost:${t.port}/invites/[A-Za-z0-9_-]{20,}`), mail.text);
  assert.equal(mail.to, email);
  assert.equal((await editor.client.post(`/apis/${api.apiId}/customers/invite`, { email: emailOfLength(254) })).status, 200);
  for (const bad of [emailOfLength(255), 'nobody', '']) {
    assertRefusedAt(await editor.client.post(`/apis/${api.apiId}/customers/invite`, { email: bad }), 'body.email');
  }
  assertRefusedAt(await editor.client.post(`/apis/${api.apiId}/customers/invite`, { email, role: 'admin' }), 'body.role');
  // Inviting the same address again sends a new mail.
  t.mail.take(email);
  assert.equal((await editor.client.post(`/apis/${api.apiId}/customers/invite`, { email })).status, 200);
  await t.mail.waitFor(email, /^You are invited to become a customer$/);
});

test('key, test-key and invite events name the API and never hold a key', async () => {
  const customer = await createCustomer(t, api, 'Audit Keys Co');
  const made = await createKey(api, customer.id, 'audited');
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${made.id}`)).status, 204);
  const testKey = await editor.client.post(`/apis/${api.apiId}/test-key`);
  const events = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  for (const event of events) assert.equal(event.api_id, api.apiId);
  const actions = events.map((e) => e.action);
  for (const action of ['customer_key.create', 'customer_key.revoke', 'customer.invite', 'customer.limits']) assert.ok(actions.includes(action), action);
  const created = events.find((e) => e.action === 'customer_key.create' && e.target_id === made.id)!;
  assert.equal(created.customer_id, customer.id);
  assert.equal(created.details.prefix, made.prefix);
  const log = JSON.stringify(events);
  for (const key of [made.key, testKey.body.key]) {
    assert.ok(!log.includes(key), 'no key in the log');
    assert.ok(!log.includes(key.slice(made.prefix.length, made.prefix.length + 20)), 'no secret part of a key in the log');
  }
  assert.ok(!log.includes(sha256(made.key)), 'not even its hash');
});
