// Platform plans bought through the development provider, and the limits of the catalogue
// (issue 13 item 7); payg_enabled false (item 8); the console's payments connection and roles.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertProblem } from '../support/assertions.js';
import { signUp, uniqueEmail } from '../support/flows.js';
import { apiAuditEvents, createApi, createCustomer, createKey, customerDetail, fetchSnapshot, reportUsage, snapshotCustomer, usageItem } from '../support/money.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { catalogueWithoutFreeTeams } from '../support/platform-plans.js';

let t: TestApp;
// A catalogue whose free plan has no teams (the shipped one has them).
before(async () => (t = await startTestApp({ PLATFORM_PLANS_FILE: catalogueWithoutFreeTeams() })));
afterEach(() => assertBalancesMatchLedger(t));
after(() => t.close());

async function payOnTestPage(url: string) {
  const page = await fetch(url);
  const body = await page.text();
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="csrf" value="([^"]+)"/.exec(body)![1]!;
  const posted = await fetch(url, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, outcome: 'pay' }).toString() });
  assert.equal(posted.status, 303);
}

test('teams: on free a workspace has one member (402, nothing sent); bought starter lets the owner invite; the catalogue limits follow the plan', async () => {
  const owner = await signUp(t);
  const refusedEarly = await owner.client.post(`/workspaces/${owner.workspaceId}/invites`, { email: uniqueEmail('mate'), role: 'editor' });
  assertProblem(refusedEarly, 402, 'plan_limit');
  const api = await createApi(t, { name: 'Plan Buyer', preset: 'payg' }, owner);
  const mate = uniqueEmail('mate');
  assertProblem(await owner.client.post(`/workspaces/${owner.workspaceId}/invites`, { email: mate, role: 'editor' }), 402, 'plan_limit');
  assert.deepEqual((await owner.client.get(`/workspaces/${owner.workspaceId}/members`)).body.invites, []);
  let out = (await owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual([out.plan.code, out.plan.teams, out.plan.remove_branding, out.domain.allowed], ['free', false, false, false]);
  assert.equal((await fetchSnapshot(api)).platform_monthly_limit, 100_000);

  const checkout = await owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' });
  assert.equal(checkout.status, 200, checkout.text);
  await payOnTestPage(checkout.body.url);
  out = (await owner.client.get(`/apis/${api.apiId}`)).body;
  assert.deepEqual([out.plan.code, out.plan_status, out.plan.teams, out.plan.remove_branding, out.domain.allowed], ['growth', 'active', true, true, true]);
  assert.ok(out.plan_period_end);
  const snapshot = await fetchSnapshot(api);
  assert.deepEqual([snapshot.platform_monthly_limit, snapshot.platform_hard_cap], [20_000_000, false]);
  assert.equal((await owner.client.post(`/workspaces/${owner.workspaceId}/invites`, { email: mate, role: 'editor' })).status, 200);
  const audit = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.ok(audit.some((e) => e.action === 'api.plan_checkout' && e.details.plan_code === 'growth'));
  // On the plan already: nothing to buy.
  assertProblem(await owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' }), 409, 'payment_state');
  // `free` ends the one subscription at the end of its period (issue 23), never a checkout.
  const free = await owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'free' });
  assert.equal(free.status, 200, free.text);
  assert.deepEqual([(await owner.client.get(`/apis/${api.apiId}`)).body.plan.code, (await owner.client.get(`/apis/${api.apiId}`)).body.plan_status], ['growth', 'canceled']);
  assertProblem(await owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'nope' }), 422, 'validation');
  assertProblem(await owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: '' }), 422, 'validation');
});

test('payg_enabled false: the API price is not charged (billing none in the console and the snapshot); a plan in force still is', async () => {
  const api = await createApi(t, { name: 'No Payg', preset: 'payg' });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  assert.deepEqual((await snapshotCustomer(api, customer.id)).effective, { rps: 10, price_per_request_micro: 1000, monthly_quota: null, billing_model: 'payg', source: 'payg' });
  assert.equal((await api.owner.client.patch(`/apis/${api.apiId}`, { payg_enabled: false })).status, 200);
  const detail = await customerDetail(api, customer.id);
  assert.deepEqual([detail.effective.price_per_request_micro, detail.effective.billing_model], [0, 'none']);
  const wire = await snapshotCustomer(api, customer.id);
  assert.deepEqual([wire.effective.price_per_request_micro, wire.effective.billing_model], [0, 'none']);
  await reportUsage(api, [usageItem(key.id, wire.usage_policy_id, 200, 5, t.clock.now())]);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro);
  // A plan assigned (a subscription) says otherwise: its price, or the API's when it names none.
  const plan = (await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Metered', price_monthly_cents: 0 })).body;
  await api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { plan_id: plan.id });
  const planned = await snapshotCustomer(api, customer.id);
  assert.deepEqual([planned.effective.price_per_request_micro, planned.effective.billing_model], [1000, 'subscription']);
  await reportUsage(api, [usageItem(key.id, planned.usage_policy_id, 200, 5, t.clock.now())]);
  assert.equal((await customerDetail(api, customer.id)).balance_micro, customer.balance_micro - 5000);
});

test('the connection: admins connect and disconnect (audited), editors and viewers cannot; after disconnecting nothing can be sold', async () => {
  const api = await createApi(t, { name: 'Connections', preset: 'payg' });
  const customer = await createCustomer(t, api);
  const out = await api.owner.client.get(`/apis/${api.apiId}/payments`);
  assert.deepEqual(out.body, { configured: true, connected: false, livemode: false, charges_enabled: false });
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  assert.equal((await t.client().get(`/apis/${api.apiId}/payments`)).status, 401);
  assert.equal((await api.owner.client.delete(`/apis/${api.apiId}/payments`)).status, 204);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.connected, false);
  const refused = await t.services.payments.checkoutTopUp({ apiId: api.apiId, customerId: customer.id, amountCents: 1000, successUrl: 'http://x/ok', cancelUrl: 'http://x/no' });
  assert.ok(!refused.ok && refused.code === 'payments_not_ready');
  const actions = (await apiAuditEvents(api.owner.client, api.owner.workspaceId, api.apiId)).map((e) => e.action);
  assert.ok(actions.includes('payments.connect') && actions.includes('payments.disconnect'), JSON.stringify(actions));
  // Connecting again takes the same account back.
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/payments/connect`)).status, 200);
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/payments`)).body.charges_enabled, true);
});

test('without a provider: PaymentsOut is not configured, connect and checkout answer 409, nothing is purchasable', async () => {
  const off = await startTestApp({ PAYMENTS_DEV_PROVIDER: 'false' });
  try {
    const api = await createApi(off, { name: 'No Provider', preset: 'payg' });
    assert.deepEqual((await api.owner.client.get(`/apis/${api.apiId}/payments`)).body, { configured: false, connected: false, livemode: false, charges_enabled: false });
    assertProblem(await api.owner.client.post(`/apis/${api.apiId}/payments/connect`), 409, 'payments_not_configured');
    assertProblem(await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' }), 409, 'payments_not_configured');
    assert.ok((await api.owner.client.get('/platform/plans')).body.plans.every((p: { purchasable: boolean }) => !p.purchasable));
    assert.equal((await fetch(`${off.url}/dev/payments/checkout/cs_dev_x`)).status, 404);
  } finally {
    await off.close();
  }
});
