// A Gatehouse without a platform plan catalogue (issue 25 item 5): every API is on the
// self-hosted plan, with no customer or request cap, custom domains, teams, end-user keys,
// connected apps and no "Powered by Gatehouse"; nothing to buy. The priced catalogue's limits are
// tested with PLATFORM_PLANS_FILE set (console-customers-plan-limit, payments/platform-limits).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { allowanceLevel } from '../../src/apis/events.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createKey, fetchSnapshot, reportUsage, usageItem, type ApiFixture } from '../support/money.js';

const SELF_HOSTED = {
  code: 'self_hosted', name: 'Self-hosted', price_monthly_cents: 0, monthly_requests: 0, max_customers: 0,
  custom_domain: true, teams: true, remove_branding: true, connected_apps: true, end_user_keys: true, purchasable: false,
};

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
before(async () => {
  t = await startTestApp({ PLATFORM_PLANS_FILE: '' });
  owner = await signUp(t);
  api = await createApi(t, { name: 'Self Hosted' }, owner);
});
after(() => t.close());

test('the platform offers one plan, the self-hosted one, and every API is on it', async () => {
  const plans = await owner.client.get('/platform/plans');
  assert.deepEqual(plans.body.plans, [SELF_HOSTED]);
  const out = (await owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual(out.plan, SELF_HOSTED);
  assert.equal(out.domain.allowed, true, 'custom domains');
  // remove_branding: the portal's footer leaves out "Powered by Gatehouse" (portal/layout.ts; the
  // priced free plan's footer with it is checked in portal/portal-flow).
  const listed = (await owner.client.get(`/workspaces/${owner.workspaceId}/apis`)).body.apis;
  assert.equal(listed.find((a: { id: string }) => a.id === api.apiId).plan_code, 'self_hosted');
  const bought = await owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'self_hosted' });
  assert.equal(bought.status, 409, 'nothing to buy: the API is on it already');
});

test('customers past the priced free plan\'s 100 are accepted', async () => {
  const many = await createApi(t, { name: 'Many Customers' }, owner);
  for (let start = 1; start <= 101; start += 20) {
    const batch = Array.from({ length: Math.min(20, 102 - start) }, (_, i) => start + i);
    const answers = await Promise.all(batch.map((n) => owner.client.post(`/apis/${many.apiId}/customers`, { name: `Customer ${n}`, email: `c${n}@many.test` })));
    for (const answer of answers) assert.equal(answer.status, 200, answer.text);
  }
  const page = await owner.client.get(`/apis/${many.apiId}/customers?limit=200`);
  assert.equal(page.body.customers.length, 101);
});

test('the snapshot has no hard cap and the allowance never reaches 80 %; stats show no limit', async () => {
  const customer = (await owner.client.post(`/apis/${api.apiId}/customers`, { name: 'Busy', email: 'busy@self.test' })).body;
  const key = await createKey(api, customer.id);
  const snapshot = await fetchSnapshot(api);
  const policy = snapshot.customers.find((c) => c.id === customer.id)!.usage_policy_id;
  await reportUsage(api, [usageItem(key.id, policy, 200, 150_000, t.clock.now())]);
  const after = await fetchSnapshot(api);
  assert.equal(after.platform_hard_cap, false);
  assert.equal(after.platform_monthly_limit, 0);
  assert.equal(after.platform_monthly_used, 150_000, 'more than the priced free plan\'s 100,000');
  assert.equal(after.platform_monthly_remaining, 0, 'max(0, limit − used), as the wire protocol fixes');
  assert.equal((await owner.client.get(`/apis/${api.apiId}/stats`)).body.platform_limit, 0);
  assert.equal(allowanceLevel(150_000, 0), 0, 'no allowance events without an allowance');
  assert.equal(allowanceLevel(80_000, 100_000), 80, 'with one they come');
});
