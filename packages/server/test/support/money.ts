import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestClient } from './client.js';
import { startTestApp, type TestApp } from './harness.js';
import { addMember } from './workspaces.js';
import { signUp, type SignedUp } from './flows.js';
import { assertWireSnapshot, assertWireUsageAnswer, assertWireVerify } from './wire-validator.js';

export interface ApiFixture {
  owner: SignedUp;
  apiId: string;
  slug: string;
  secret: string;
  /** A client speaking to /sdk/v1 with the SDK secret, as an SDK would. */
  sdk: TestClient;
}

export async function createApi(t: TestApp, body: Record<string, unknown> = { name: 'Weather API' }, owner?: SignedUp): Promise<ApiFixture> {
  const who = owner ?? (await signUp(t));
  const created = await who.client.post(`/workspaces/${who.workspaceId}/apis`, body);
  assert.equal(created.status, 200, created.text);
  const sdk = t.sdkClient();
  sdk.bearer = created.body.secret;
  return { owner: who, apiId: created.body.api.id, slug: created.body.api.slug, secret: created.body.secret, sdk };
}

export async function createCustomer(t: TestApp, api: ApiFixture, name = 'Acme', email = `billing-${randomUUID().slice(0, 8)}@acme.test`) {
  const res = await api.owner.client.post(`/apis/${api.apiId}/customers`, { name, email });
  assert.equal(res.status, 200, res.text);
  return res.body as { id: string; balance_micro: number };
}

export async function createKey(api: ApiFixture, customerId: string, name = 'prod') {
  const res = await api.owner.client.post(`/apis/${api.apiId}/customers/${customerId}/keys`, { name });
  assert.equal(res.status, 200, res.text);
  return res.body as { id: string; key: string; prefix: string };
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** The current UTC hour as the SDK writes period_start. */
export function hourOf(at: Date): string {
  return at.toISOString().slice(0, 13) + ':00:00Z';
}

export function usageItem(keyId: string, policyId: string | null, status: number, count: number, at: Date, idempotencyKey = randomUUID()) {
  return { idempotency_key: idempotencyKey, api_key_id: keyId, ...(policyId ? { usage_policy_id: policyId } : {}), status_code: status, count, period_start: hourOf(at) };
}

// ---- Helpers of the console money tests (test/money/console-*.test.ts) ----

/** Asserts a 422 problem whose errors[] names `field`, or an item inside it (`body.codes.3`). */
export function assertRefusedAt(answer: { status: number; text: string; body: any }, field: string): void {
  assert.equal(answer.status, 422, `${field}: expected 422, got ${answer.status} ${answer.text}`);
  const locations: string[] = (answer.body?.errors ?? []).map((e: { location?: string }) => e.location ?? '');
  assert.ok(
    locations.some((location) => location === field || location.startsWith(`${field}.`)),
    `expected an error at ${field}, got ${JSON.stringify(answer.body?.errors)}`,
  );
}

/** The SDK snapshot as our SDK asks for it (`shape=full`: pending stays pending). */
export async function fetchSnapshot(api: ApiFixture, headers: Record<string, string> = {}) {
  const snap = await api.sdk.get('/sdk/v1/snapshot?shape=full', { headers });
  assert.equal(snap.status, 200, snap.text);
  return snap.body as {
    customers: { id: string; status: string; credit_balance_micro: number; balance_seq: number; usage_policy_id: string | null; effective: Record<string, unknown> }[];
    keys: { id: string; key_hash: string; customer_id: string }[];
  } & Record<string, unknown>;
}

/** One customer as the snapshot shows it; fails when the customer is not in it. */
export async function snapshotCustomer(api: ApiFixture, customerId: string) {
  const found = (await fetchSnapshot(api)).customers.find((c) => c.id === customerId);
  assert.ok(found, `customer ${customerId} is in the snapshot`);
  return found;
}

/** Reports usage as an SDK does and checks every item was accepted. */
export async function reportUsage(api: ApiFixture, items: ReturnType<typeof usageItem>[]) {
  const posted = await api.sdk.post('/sdk/v1/usage', { items });
  assert.equal(posted.status, 200, posted.text);
  assert.deepEqual(posted.body.results.map((r: { status: string }) => r.status), items.map(() => 'accepted'), posted.text);
}

/** The audit events of one API (newest first, up to 200), read through the console. */
export async function apiAuditEvents(client: TestClient, workspaceId: string, apiId: string) {
  const page = await client.get(`/workspaces/${workspaceId}/audit?api_id=${apiId}&limit=200`);
  assert.equal(page.status, 200, page.text);
  return page.body.events as { id: string; action: string; api_id?: string; customer_id?: string; target_id: string; details: Record<string, unknown>; summary: string }[];
}

/**
 * A customer waiting for approval. No console route makes one (a portal sign-up under the
 * `approval` signup mode does), so the test makes it through the customer service as that would.
 */
export async function createPendingCustomer(t: TestApp, api: ApiFixture, name = 'Pending Co', email = `pending-${randomUUID().slice(0, 8)}@acme.test`) {
  const row = await t.services.apis.findById(t.services.db, api.apiId);
  assert.ok(row, 'the API exists');
  const created = await t.services.db.transaction().execute((trx) =>
    t.services.customers.createInTransaction(trx, row, { name, email, status: 'pending', isTest: false }, { type: 'system', id: 'portal', name: 'Portal sign-up', ip: '127.0.0.1' }),
  );
  assert.ok(created.ok, 'the pending customer was made');
  return created.value;
}

/** Writes a platform plans file (PLATFORM_PLANS_FILE) whose free plan allows `maxCustomers`. */
export function platformPlansFile(maxCustomers: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'gh-plans-'));
  const file = join(dir, 'platform-plans.json');
  const plan = (code: string, name: string, price: number, max: number) => ({
    code, name, price_monthly_cents: price, monthly_requests: 100_000, max_customers: max, custom_domain: false, teams: false, remove_branding: false, hard_cap: true,
  });
  writeFileSync(file, JSON.stringify({ plans: [plan('free', 'Free', 0, maxCustomers), plan('starter', 'Starter', 2900, 2000)] }));
  return file;
}

// ---------------------------------------------------------------------------------------------
// SDK sync API (shared/spec/sdk-wire-protocol.md): requests sent the way the public Python SDK
// sends them, and every answer checked against the wire rules (test/support/wire-validator.ts).

/** The only headers the Python SDK sends besides Authorization (section 1); fetch adds Accept-Encoding. */
export const PYTHON_SDK_HEADERS: Record<string, string> = { 'user-agent': 'python-httpx/0.27.0', accept: '*/*' };

/**
 * One SDK request: Bearer secret (or none), no X-Requested-With or other custom header. Every
 * answer must be a JSON object (the SDK parses every body) and never a redirect (it follows none).
 */
export async function sdkRequest(t: TestApp, secret: string | null, method: 'GET' | 'POST', path: string, body?: unknown, options: { headers?: Record<string, string>; raw?: string } = {}) {
  const client = t.sdkClient();
  client.bearer = secret;
  const answer = await client.request(method, path, body, { noCsrfHeader: true, headers: { ...PYTHON_SDK_HEADERS, ...options.headers }, ...(options.raw !== undefined ? { raw: options.raw } : {}) });
  assert.ok(answer.status < 300 || answer.status >= 400 || answer.status === 304, `${method} ${path} answered a redirect ${answer.status}`);
  if (answer.status !== 304) {
    let parsed: unknown;
    assert.doesNotThrow(() => (parsed = JSON.parse(answer.text)), `${method} ${path} answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 300)}`);
    assert.ok(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), `${method} ${path} answered ${answer.status} with JSON that is not an object: ${answer.text.slice(0, 300)}`);
    assert.match(answer.headers.get('content-type') ?? '', /json/, `${method} ${path} answered ${answer.status} without a JSON content type`);
  }
  return answer;
}

/** GET /sdk/v1/snapshot; asserts 200 and every rule of wire protocol section 2. */
export async function getWireSnapshot(t: TestApp, secret: string, options: { full?: boolean; headers?: Record<string, string> } = {}) {
  const answer = await sdkRequest(t, secret, 'GET', `/sdk/v1/snapshot${options.full ? '?shape=full' : ''}`, undefined, { ...(options.headers ? { headers: options.headers } : {}) });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  const body = assertWireSnapshot(answer.text, { clientNow: t.clock.now(), fullShape: !!options.full });
  return { body, etag: answer.headers.get('etag'), answer };
}

/** GET /sdk/v1/keys/verify; asserts 200 and every rule of wire protocol section 3. */
export async function getWireVerify(t: TestApp, secret: string, keyHash: string, options: { full?: boolean } = {}) {
  const answer = await sdkRequest(t, secret, 'GET', `/sdk/v1/keys/verify?key_hash=${encodeURIComponent(keyHash)}${options.full ? '&shape=full' : ''}`);
  assert.equal(answer.status, 200, answer.text);
  return assertWireVerify(answer.text, { clientNow: t.clock.now(), fullShape: !!options.full });
}

export type UsageResultOut = { idempotency_key: string; status: 'accepted' | 'duplicate' | 'rejected'; detail?: string };

/** POST /sdk/v1/usage; asserts 200 and a well-formed answer (one result per item); returns the results. */
export async function postWireUsage(t: TestApp, secret: string, items: ({ idempotency_key: unknown } & Record<string, unknown>)[]): Promise<UsageResultOut[]> {
  const answer = await sdkRequest(t, secret, 'POST', '/sdk/v1/usage', { items });
  assert.equal(answer.status, 200, answer.text);
  return assertWireUsageAnswer(answer.text, items).results;
}

/** The result for one idempotency key (the key must appear once). */
export function resultFor(results: UsageResultOut[], idempotencyKey: string): UsageResultOut {
  const found = results.filter((r) => r.idempotency_key === idempotencyKey);
  assert.equal(found.length, 1, `one result for ${idempotencyKey}: ${JSON.stringify(results)}`);
  return found[0]!;
}

/** The customer as the console shows it (balance_micro, month_requests, effective, ...). */
export async function customerDetail(api: ApiFixture, customerId: string) {
  const res = await api.owner.client.get(`/apis/${api.apiId}/customers/${customerId}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** A customer's usage ledger entries (one per UTC day), newest first. */
export async function usageEntries(api: ApiFixture, customerId: string) {
  const res = await api.owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customerId}&limit=100`);
  assert.equal(res.status, 200, res.text);
  return (res.body.entries as any[]).filter((e) => e.kind === 'usage');
}

export async function apiStats(api: ApiFixture) {
  const res = await api.owner.client.get(`/apis/${api.apiId}/stats`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** The snapshot customer with this id (asserts it is there once). */
export function customerIn(snapshot: { customers: any[] }, customerId: string) {
  const found = snapshot.customers.filter((c) => c.id === customerId);
  assert.equal(found.length, 1, `customer ${customerId} once in the snapshot`);
  return found[0];
}

/** A UTC hour stamp `hours` hours from the hour of `at`. */
export function hourStamp(at: Date, hours = 0): string {
  return hourOf(new Date(at.getTime() + hours * 3_600_000));
}

/**
 * The fixture of the console money tests: a running app, an owner with an API, and an editor and
 * a viewer of the owner's workspace.
 */
export async function startWithApi(ownerName: string, apiBody: Record<string, unknown>, env: Record<string, string> = {}) {
  const t = await startTestApp(env);
  const owner = await signUp(t, { name: ownerName });
  const api = await createApi(t, apiBody, owner);
  const editor = await addMember(t, owner.client, owner.workspaceId, 'editor');
  const viewer = await addMember(t, owner.client, owner.workspaceId, 'viewer');
  return { t, owner, api, editor, viewer };
}
