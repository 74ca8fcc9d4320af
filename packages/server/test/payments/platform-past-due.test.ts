// Platform plans past due with the development provider (issue 13 item 7; spec 3, plan_status):
// the owner pays on the test checkout with the card that is declined at renewal, so the renewal
// fails through the same webhook path as Stripe's events: plan_status past_due with
// plan_grace_until 7 days on, the plan's limits kept meanwhile; paying the open invoice within
// the grace makes it active again; unpaid past the grace the API is back on free (canceled).
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { paymentGraceJob } from '../../src/jobs/payments.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import type { TestClient } from '../support/client.js';
import { createApi, type ApiFixture } from '../support/money.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { submitDevTestPage } from '../support/portal-payments.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
afterEach(() => assertBalancesMatchLedger(t));
after(() => t.close());

/** The API as its owner reads it, through a workspace key: a console session ends when the clock moves a month. */
async function apiOut(api: ApiFixture) {
  let client = keys.get(api.apiId);
  if (!client) {
    const made = await api.owner.client.post(`/workspaces/${api.owner.workspaceId}/keys`, { name: 'plan reader', role: 'admin' });
    assert.equal(made.status, 200, made.text);
    client = t.client();
    client.bearer = made.body.key;
    keys.set(api.apiId, client);
  }
  const read = await client.get(`/apis/${api.apiId}`);
  assert.equal(read.status, 200, read.text);
  return read.body;
}
const keys = new Map<string, TestClient>();
const grace = () => t.services.scheduler.runOnce(paymentGraceJob(t.services.payments));

/** Buys starter with the card declined at renewal, then lets the period end and the renewal fail. */
async function starterPastDue(name: string) {
  const api = await createApi(t, { name });
  const checkout = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' });
  assert.equal(checkout.status, 200, checkout.text);
  const paid = await submitDevTestPage(checkout.body.url, { outcome: 'pay_declining' });
  assert.equal(paid.status, 303);
  let out = await apiOut(api);
  assert.deepEqual([out.plan.code, out.plan_status], ['starter', 'active']);
  t.clock.advance(new Date(out.plan_period_end).getTime() + 1000 - t.clock.now().getTime());
  const renewedFrom = Math.floor(t.clock.now().getTime() / 1000) * 1000;
  assert.ok((await t.services.devProvider!.renewDue()) >= 1);
  const renewedBy = t.clock.now().getTime();
  out = await apiOut(api);
  assert.deepEqual([out.plan.code, out.plan_status, out.plan.max_customers], ['starter', 'past_due', 2000], 'the plan and its limits hold in the grace');
  const graceUntil = new Date(out.plan_grace_until).getTime();
  // 7 days from the failed renewal's event (stamped in whole seconds while the renewal ran).
  assert.ok(graceUntil >= renewedFrom + 7 * DAY && graceUntil <= renewedBy + 7 * DAY, out.plan_grace_until);
  return { api, graceUntil };
}

/** The open invoice the failed renewal left at the development provider (its test page). */
async function openInvoiceOf(apiId: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`select id from dev_payment_objects where kind = 'invoice' and data->>'status' = 'open' and data->'metadata'->>'gh_api' = ${apiId}`.execute(t.services.db);
  assert.equal(rows.length, 1);
  return `${t.url}/dev/payments/invoices/${rows[0]!.id}`;
}

test('a declined platform renewal paid within the grace: active again, the grace cleared', async () => {
  const { api, graceUntil } = await starterPastDue('Late Payer');
  t.clock.advance(graceUntil - 60_000 - t.clock.now().getTime());
  await grace();
  assert.equal((await apiOut(api)).plan_status, 'past_due');
  assert.equal((await submitDevTestPage(await openInvoiceOf(api.apiId), {})).status, 303);
  t.clock.advance(120_000);
  await grace();
  const out = await apiOut(api);
  assert.deepEqual([out.plan.code, out.plan_status, out.plan_grace_until ?? null], ['starter', 'active', null]);
});

test('a declined platform renewal left unpaid: a minute before the grace ends still past_due, a minute after on free', async () => {
  const { api, graceUntil } = await starterPastDue('Never Payer');
  t.clock.advance(graceUntil - 60_000 - t.clock.now().getTime());
  await grace();
  assert.equal((await apiOut(api)).plan_status, 'past_due');
  t.clock.advance(120_000);
  await grace();
  const out = await apiOut(api);
  assert.deepEqual([out.plan.code, out.plan_status], ['free', 'canceled']);
});
