// GET /sdk/v1/keys/verify (shared/spec/sdk-wire-protocol.md section 3). An unknown, malformed or
// revoked hash is 200 {"valid": false}, never a 404 or another error (those give the request 503
// and nothing is cached); a valid key brings key_id, the customer in the snapshot's customer shape
// and billable_status_codes. Every answer goes through test/support/wire-validator.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, customerIn, getWireSnapshot, getWireVerify, postWireUsage, sdkRequest, sha256, usageItem, type ApiFixture } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

async function tenant(name: string): Promise<{ api: ApiFixture; customer: { id: string }; key: { id: string; key: string } }> {
  const api = await createApi(t, { name }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  return { api, customer, key };
}

/** The customer as verify shows it, without policy_valid_until (stamped at each answer). */
function comparable(customer: Record<string, unknown>) {
  const { policy_valid_until: _until, ...rest } = customer;
  return rest;
}

test('verify: an unknown hash answers 200 {"valid": false}, exactly, never 404', async () => {
  const { api } = await tenant('Unknown Hash API');
  for (const hash of [sha256('not-a-key'), sha256(randomUUID()), '0'.repeat(64), 'f'.repeat(64)]) {
    const answer = await sdkRequest(t, api.secret, 'GET', `/sdk/v1/keys/verify?key_hash=${hash}`);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.text.replace(/\s/g, ''), '{"valid":false}');
    assert.deepEqual(await getWireVerify(t, api.secret, hash), { valid: false });
  }
});

test('verify: a malformed hash answers 200 {"valid": false}: uppercase, short, long, not hex, empty, the raw key itself', async () => {
  const { api, key } = await tenant('Malformed Hash API');
  const hash = sha256(key.key);
  const malformed = [hash.toUpperCase(), hash.slice(0, 63), hash + '0', 'g'.repeat(64), '', ' ' + hash.slice(1), key.key, `${hash}\n`, hash.repeat(3)];
  for (const value of malformed) {
    assert.deepEqual(await getWireVerify(t, api.secret, value), { valid: false }, JSON.stringify(value));
  }
  // Far too long, repeated, or missing: still not a key, still 200 {"valid": false} (a 422 would give
  // the SDK's request a 503).
  for (const query of [`key_hash=${'a'.repeat(201)}`, `key_hash=${'a'.repeat(4000)}`, `key_hash=${hash}&key_hash=${hash}`, '', 'key_hash=', 'other=1']) {
    const answer = await sdkRequest(t, api.secret, 'GET', `/sdk/v1/keys/verify?${query}`);
    assert.equal(answer.status, 200, `${query.slice(0, 40)}: ${answer.text}`);
    assert.deepEqual(answer.body, { valid: false }, query.slice(0, 40));
  }
  // The well-formed hash of the same key is valid: the lookup is by the exact lowercase hex.
  assert.equal((await getWireVerify(t, api.secret, hash)).valid, true);
});

test('verify: a valid key answers valid true with key_id, the customer in the snapshot shape and billable_status_codes', async () => {
  const { api, customer, key } = await tenant('Valid Key API');
  const snapshot = await getWireSnapshot(t, api.secret);
  const answer = await getWireVerify(t, api.secret, sha256(key.key));
  assert.deepEqual(Object.keys(answer).sort(), ['billable_status_codes', 'customer', 'key_id', 'valid']);
  assert.equal(answer.valid, true);
  assert.equal(answer.key_id, key.id);
  assert.deepEqual(answer.billable_status_codes, snapshot.body.billable_status_codes);
  const inSnapshot = customerIn(snapshot.body, customer.id);
  assert.deepEqual(comparable(answer.customer), comparable(inSnapshot));
  assert.deepEqual(Object.keys(answer.customer).sort(), Object.keys(inSnapshot).sort());
  assert.ok(Date.parse(answer.customer.policy_valid_until) - t.clock.now().getTime() >= 3_600_000, 'policy_valid_until well in the future');
});

test('verify: a key made after the snapshot is valid at once; the customer shows current balance and month_requests', async () => {
  const { api, customer, key } = await tenant('Fresh Key API');
  const policy = customerIn((await getWireSnapshot(t, api.secret)).body, customer.id).usage_policy_id;
  assert.equal((await postWireUsage(t, api.secret, [usageItem(key.id, policy, 200, 3, t.clock.now()), usageItem(key.id, policy, 500, 2, t.clock.now())]))[0]!.status, 'accepted');
  const fresh = await createKey(api, customer.id, 'fresh');
  const answer = await getWireVerify(t, api.secret, sha256(fresh.key));
  assert.equal(answer.valid, true);
  assert.equal(answer.key_id, fresh.id);
  assert.equal(answer.customer.id, customer.id);
  assert.equal(answer.customer.credit_balance_micro, 1_000_000 - 3_000);
  assert.equal(answer.customer.month_requests, 5);
});

test('verify: a revoked key answers {"valid": false}', async () => {
  const { api, customer, key } = await tenant('Revoked Key API');
  assert.equal((await getWireVerify(t, api.secret, sha256(key.key))).valid, true);
  const revoked = await api.owner.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.equal(revoked.status, 204, revoked.text);
  assert.deepEqual(await getWireVerify(t, api.secret, sha256(key.key)), { valid: false });
});

test('verify: a key of another API answers {"valid": false}', async () => {
  const a = await tenant('Verify Tenant A');
  const b = await tenant('Verify Tenant B');
  assert.deepEqual(await getWireVerify(t, b.api.secret, sha256(a.key.key)), { valid: false });
  assert.equal((await getWireVerify(t, a.api.secret, sha256(a.key.key))).valid, true);
});

test('verify: a pending customer reads suspended (pending with shape=full); a suspended API makes the customer suspended', async () => {
  const { api, customer, key } = await tenant('Verify States API');
  await t.services.db.updateTable('customers').set({ status: 'pending' }).where('id', '=', customer.id).execute();
  const wire = await getWireVerify(t, api.secret, sha256(key.key));
  assert.equal(wire.valid, true);
  assert.equal(wire.customer.status, 'suspended');
  const full = await getWireVerify(t, api.secret, sha256(key.key), { full: true });
  assert.equal(full.customer.status, 'pending');

  await t.services.db.updateTable('customers').set({ status: 'active' }).where('id', '=', customer.id).execute();
  assert.equal((await getWireVerify(t, api.secret, sha256(key.key))).customer.status, 'active');
  const suspended = await api.owner.client.post(`/apis/${api.apiId}/suspend`, {});
  assert.equal(suspended.status, 200, suspended.text);
  const answer = await getWireVerify(t, api.secret, sha256(key.key));
  assert.equal(answer.valid, true);
  assert.equal(answer.customer.status, 'suspended');
});

test('verify: billable_status_codes is sent even when empty ([]), and the customer effective matches its policy', async () => {
  const { api, key } = await tenant('Verify Codes API');
  const patched = await api.owner.client.patch(`/apis/${api.apiId}`, { billable_status_codes: [], monthly_quota: 1234, rps: 0 });
  assert.equal(patched.status, 200, patched.text);
  const answer = await getWireVerify(t, api.secret, sha256(key.key));
  assert.deepEqual(answer.billable_status_codes, []);
  assert.deepEqual(answer.customer.effective, { rps: 0, price_per_request_micro: 1000, monthly_quota: 1234, billing_model: 'payg', source: 'payg' });
});

test('verify: a burst of concurrent look-ups answers 200 every time (no 429 on the request path)', async () => {
  const { api, key } = await tenant('Verify Burst API');
  const hashes = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? sha256(key.key) : sha256(randomUUID())));
  const answers = await Promise.all(hashes.map((hash) => sdkRequest(t, api.secret, 'GET', `/sdk/v1/keys/verify?key_hash=${hash}`)));
  assert.deepEqual(answers.map((a) => a.status), Array(60).fill(200));
  answers.forEach((a, i) => assert.equal(a.body.valid, i % 3 === 0));
});
