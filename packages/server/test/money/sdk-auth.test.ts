// SDK sync API, authentication and transport (shared/spec/sdk-wire-protocol.md section 1):
// Bearer SDK secret starting mas_, 401 for a rejected credential on every endpoint and never for a
// transient reason (the rotation grace), JSON object bodies on every answer, no redirects.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import {
  createApi, createCustomer, createKey, customerDetail, customerIn, getWireSnapshot, getWireVerify, postWireUsage, sdkRequest, sha256, usageItem, type ApiFixture,
} from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const HOUR = 3_600_000;

/** An API with one customer and one key, and the customer's usage policy from a snapshot. */
async function tenant(name: string) {
  const api = await createApi(t, { name }, owner);
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const snap = await getWireSnapshot(t, api.secret);
  const policyId = customerIn(snap.body, customer.id).usage_policy_id as string;
  return { api, customer, key, policyId };
}

/** The three endpoints with one credential (or none): their statuses. Bodies are checked by sdkRequest. */
async function allThree(secret: string | null, keyHash: string, items: unknown[] = []) {
  const snapshot = await sdkRequest(t, secret, 'GET', '/sdk/v1/snapshot');
  const verify = await sdkRequest(t, secret, 'GET', `/sdk/v1/keys/verify?key_hash=${keyHash}`);
  const usage = await sdkRequest(t, secret, 'POST', '/sdk/v1/usage', { items });
  return { snapshot, verify, usage, statuses: [snapshot.status, verify.status, usage.status] };
}

/** Sends raw Authorization values (the helper only sends Bearer <secret>). */
async function withAuthorization(authorization: string) {
  const paths: ['GET' | 'POST', string, unknown][] = [['GET', '/sdk/v1/snapshot', undefined], ['GET', `/sdk/v1/keys/verify?key_hash=${'a'.repeat(64)}`, undefined], ['POST', '/sdk/v1/usage', { items: [] }]];
  const out = [];
  for (const [method, path, body] of paths) out.push(await sdkRequest(t, null, method, path, body, { headers: { authorization } }));
  return out;
}

test('auth: the SDK secret starts mas_ at creation, on reveal and after rotation, and opens all three endpoints with no other header', async () => {
  const { api, key, policyId } = await tenant('Secret Prefix API');
  assert.match(api.secret, /^mas_[0-9A-Za-z]{20,}$/);
  const revealed = await api.owner.client.get(`/apis/${api.apiId}/secret`);
  assert.equal(revealed.status, 200, revealed.text);
  assert.equal(revealed.body.secret, api.secret);
  const { statuses } = await allThree(api.secret, sha256(key.key), [usageItem(key.id, policyId, 200, 1, t.clock.now())]);
  assert.deepEqual(statuses, [200, 200, 200]);
  const rotated = await api.owner.client.post(`/apis/${api.apiId}/secret/rotate`, { grace_hours: 0 });
  assert.equal(rotated.status, 200, rotated.text);
  assert.match(rotated.body.secret, /^mas_[0-9A-Za-z]{20,}$/);
  assert.notEqual(rotated.body.secret, api.secret);
  assert.deepEqual((await allThree(rotated.body.secret, sha256(key.key))).statuses, [200, 200, 200]);
});

test('auth: a missing, unknown or malformed credential answers 401 with a JSON object on all three endpoints (never 403, never a redirect)', async () => {
  const { api, key, policyId } = await tenant('Wrong Secret API');
  const item = usageItem(key.id, policyId, 200, 5, t.clock.now());
  const before = await customerDetail(api, (await getWireSnapshot(t, api.secret)).body.customers[0].id);
  const wrong = [null, `mas_${randomBytes(32).toString('base64url')}`, api.secret.slice(4), `mas_`, api.secret + 'x', api.secret.slice(0, -1)];
  for (const secret of wrong) {
    const { statuses, snapshot, usage } = await allThree(secret, sha256(key.key), [item]);
    assert.deepEqual(statuses, [401, 401, 401], `secret ${secret}`);
    assert.equal(typeof snapshot.body.error, 'string');
    assert.equal(typeof usage.body.detail, 'string');
  }
  for (const authorization of [`Basic ${Buffer.from(`${api.secret}:`).toString('base64')}`, `Bearer ${api.secret} extra`, `Bearer`, `Bearer  ${api.secret}`, api.secret, `Token ${api.secret}`]) {
    const answers = await withAuthorization(authorization);
    assert.deepEqual(answers.map((a) => a.status), [401, 401, 401], authorization);
  }
  // The refused usage changed nothing: the same item is accepted (not a duplicate) with the right secret.
  const after = await customerDetail(api, before.id);
  assert.equal(after.balance_micro, before.balance_micro);
  assert.equal(after.month_requests, before.month_requests);
  const results = await postWireUsage(t, api.secret, [item]);
  assert.equal(results[0]!.status, 'accepted');
});

test('auth: a rotated-out secret keeps working (200, never 401 or 403) through its grace and answers 401 on all three endpoints after it; tenant_id stays', async () => {
  const { api, customer, key, policyId } = await tenant('Rotation API');
  const hash = sha256(key.key);
  const first = await getWireSnapshot(t, api.secret);
  const rotated = await api.owner.client.post(`/apis/${api.apiId}/secret/rotate`, { grace_hours: 2 });
  assert.equal(rotated.status, 200, rotated.text);
  const newSecret: string = rotated.body.secret;
  const apiOut = await api.owner.client.get(`/apis/${api.apiId}`);
  assert.ok(apiOut.body.previous_secret_valid_until, apiOut.text);

  // Both secrets work at once, and the tenant keeps its id (Redis and journal names stay).
  const viaOld = await getWireSnapshot(t, api.secret);
  const viaNew = await getWireSnapshot(t, newSecret);
  assert.equal(viaOld.body.tenant_id, first.body.tenant_id);
  assert.equal(viaNew.body.tenant_id, first.body.tenant_id);
  assert.equal(viaNew.body.tenant_name, first.body.tenant_name);
  assert.equal((await getWireVerify(t, api.secret, hash)).valid, true);
  assert.equal((await postWireUsage(t, api.secret, [usageItem(key.id, policyId, 200, 1, t.clock.now())]))[0]!.status, 'accepted');

  // A minute before the grace ends: still fine on every endpoint.
  t.clock.advance(2 * HOUR - 60_000);
  assert.deepEqual((await allThree(api.secret, hash, [usageItem(key.id, policyId, 200, 1, t.clock.now())])).statuses, [200, 200, 200]);

  // A minute after: 401 on every endpoint; the new secret still works and the tenant is the same.
  t.clock.advance(2 * 60_000);
  const late = usageItem(key.id, policyId, 200, 1, t.clock.now());
  assert.deepEqual((await allThree(api.secret, hash, [late])).statuses, [401, 401, 401]);
  const after = await getWireSnapshot(t, newSecret);
  assert.equal(after.body.tenant_id, first.body.tenant_id);
  // The SDK keeps an item refused with 401 and sends it again later: it was not applied.
  assert.equal((await postWireUsage(t, newSecret, [late]))[0]!.status, 'accepted');
  assert.equal(customerIn((await getWireSnapshot(t, newSecret)).body, customer.id).month_requests, 3);
});

test('auth: grace_hours 0 ends the old secret at once', async () => {
  const { api, key } = await tenant('No Grace API');
  const rotated = await api.owner.client.post(`/apis/${api.apiId}/secret/rotate`, { grace_hours: 0 });
  assert.equal(rotated.status, 200, rotated.text);
  assert.deepEqual((await allThree(api.secret, sha256(key.key))).statuses, [401, 401, 401]);
  assert.deepEqual((await allThree(rotated.body.secret, sha256(key.key))).statuses, [200, 200, 200]);
});

test('auth: the secret of a deleted API answers 401', async () => {
  const { api, key } = await tenant('Deleted API');
  const deleted = await api.owner.client.delete(`/apis/${api.apiId}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.deepEqual((await allThree(api.secret, sha256(key.key))).statuses, [401, 401, 401]);
});

test('auth: a secret opens only its own API: snapshot, verify and usage never reach another tenant', async () => {
  const a = await tenant('Tenant A');
  const b = await tenant('Tenant B');
  const snapB = await getWireSnapshot(t, b.api.secret);
  assert.equal(snapB.body.tenant_id, b.api.apiId);
  assert.deepEqual(snapB.body.customers.map((c: any) => c.id), [b.customer.id]);
  assert.deepEqual(snapB.body.keys.map((k: any) => k.id), [b.key.id]);
  assert.deepEqual(await getWireVerify(t, b.api.secret, sha256(a.key.key)), { valid: false });
  const results = await postWireUsage(t, b.api.secret, [usageItem(a.key.id, a.policyId, 200, 4, t.clock.now())]);
  assert.equal(results[0]!.status, 'rejected');
  const detailA = await customerDetail(a.api, a.customer.id);
  assert.equal(detailA.month_requests, 0);
  assert.equal(detailA.balance_micro, 1_000_000);
});

test('transport: every answer is a JSON object and none is a redirect, also for requests the server refuses', async () => {
  const { api } = await tenant('Transport API');
  // sdkRequest asserts "JSON object, no 3xx" on each of these; the statuses are the server's choice
  // but must never be 401/403 for a good secret (the SDK would stop all traffic).
  const answers = [
    await sdkRequest(t, api.secret, 'GET', '/sdk/v1/snapshot/'),
    await sdkRequest(t, api.secret, 'GET', '/sdk/v1/snapshot?shape=unknown'),
    await sdkRequest(t, api.secret, 'GET', '/sdk/v1/keys/verify'),
    await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', undefined, { raw: '{"items": [', headers: { 'content-type': 'application/json' } }),
    await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { items: null }),
    await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { rows: [] }),
    await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', []),
    await sdkRequest(t, api.secret, 'GET', '/sdk/v1/unknown'),
  ];
  for (const answer of answers) assert.ok(![401, 403].includes(answer.status), `a good secret is never refused: ${answer.status} ${answer.text}`);
  // Without a secret, an unknown path is still a JSON object (checked by sdkRequest), not a redirect.
  await sdkRequest(t, null, 'GET', '/sdk/v1/unknown');
  // The good answers say application/json and are never cached.
  const ok = await sdkRequest(t, api.secret, 'GET', '/sdk/v1/snapshot');
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get('content-type')!, /^application\/json/);
  const verify = await sdkRequest(t, api.secret, 'GET', `/sdk/v1/keys/verify?key_hash=${sha256(randomUUID())}`);
  assert.equal(verify.status, 200);
  assert.equal(verify.headers.get('cache-control'), 'no-store');
  const usage = await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { items: [] });
  assert.equal(usage.status, 200);
  assert.deepEqual(usage.body, { results: [], balances: [] }, 'an empty report names no customer, so no balance');
});

test('transport: a cross-site Origin or a missing User-Agent does not matter to the SDK endpoints (no CSRF 403)', async () => {
  const { api, key, policyId } = await tenant('Origin API');
  const headers = { origin: 'https://evil.example', 'user-agent': '' };
  const snapshot = await sdkRequest(t, api.secret, 'GET', '/sdk/v1/snapshot', undefined, { headers });
  assert.equal(snapshot.status, 200, snapshot.text);
  const usage = await sdkRequest(t, api.secret, 'POST', '/sdk/v1/usage', { items: [usageItem(key.id, policyId, 200, 1, t.clock.now())] }, { headers });
  assert.equal(usage.status, 200, usage.text);
  assert.equal(usage.body.results[0].status, 'accepted');
});
