import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import type { TestClient } from './client.js';
import type { TestApp } from './harness.js';
import { signUp, type SignedUp } from './flows.js';

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
