// An owner's platform plan over its whole life with the development provider (issue 23 item 1):
// upgrade and downgrade move the one subscription (prorated), never open a second; cancel at the
// end of the period and undo it; `free` ends it; the database holds at most one live platform
// subscription per API; the owners are mailed when the plan goes past due, before its grace
// ends, and when it ends.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { paymentGraceJob } from '../../src/jobs/payments.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import type { TestClient } from '../support/client.js';
import { PASSWORD } from '../support/flows.js';
import { createApi, type ApiFixture } from '../support/money.js';
import { assertMoneyInvariants } from '../support/payments.js';
import { submitDevTestPage } from '../support/portal-payments.js';
import { addMember } from '../support/workspaces.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
afterEach(() => assertMoneyInvariants(t));
after(() => t.close());

const readers = new Map<string, TestClient>();
/** The API as its owner reads it, through a workspace key (a session ends when the clock moves a month). */
async function apiOut(api: ApiFixture) {
  let client = readers.get(api.apiId);
  if (!client) {
    const made = await api.owner.client.post(`/workspaces/${api.owner.workspaceId}/keys`, { name: 'plan reader', role: 'admin' });
    client = t.client();
    client.bearer = made.body.key;
    readers.set(api.apiId, client);
  }
  return (await client.get(`/apis/${api.apiId}`)).body;
}
const state = async (api: ApiFixture) => {
  const out = await apiOut(api);
  return [out.plan.code, out.plan_status];
};

/** The API's subscriptions at the development provider (status, price), oldest first. */
async function providerSubscriptions(apiId: string) {
  const { rows } = await sql<{ id: string; status: string; amount: number; plan: string; cancel: boolean }>`
    select id, data->>'status' as status, (data->>'amount_cents')::int as amount, data->'metadata'->>'gh_platform_plan' as plan, (data->>'cancel_at_period_end')::boolean as cancel
    from dev_payment_objects where kind = 'subscription' and data->'metadata'->>'gh_api' = ${apiId} order by created_at`.execute(t.services.db);
  return rows;
}
async function invoicesOf(subscriptionId: string) {
  const { rows } = await sql<{ amount: number; status: string }>`select (data->>'amount_cents')::int as amount, data->>'status' as status from dev_payment_objects where kind = 'invoice' and data->>'subscription' = ${subscriptionId} order by created_at`.execute(t.services.db);
  return rows;
}

async function buy(api: ApiFixture, code: string, outcome = 'pay') {
  const checkout = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: code });
  assert.equal(checkout.status, 200, checkout.text);
  assert.match(checkout.body.url, /\/dev\/payments\/checkout\/cs_dev_/);
  assert.equal((await submitDevTestPage(checkout.body.url, { outcome })).status, 303);
}

test('upgrade and downgrade move the one subscription (prorated), cancel at period end and undo, then free at the period end', async () => {
  const api = await createApi(t, { name: 'Climber' });
  await buy(api, 'starter');
  const [first] = await providerSubscriptions(api.apiId);
  assert.deepEqual([first!.status, first!.plan, first!.amount], ['active', 'starter', 2900]);
  t.clock.advance(15 * DAY);
  const upgrade = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' });
  assert.equal(upgrade.status, 200, upgrade.text);
  assert.match(upgrade.body.url, /\/apis\/.+\/plan\?change=done$/, 'no checkout: the subscription moved');
  assert.deepEqual(await state(api), ['growth', 'active']);
  let subs = await providerSubscriptions(api.apiId);
  assert.deepEqual(subs.map((s) => [s.id, s.status, s.plan, s.amount]), [[first!.id, 'active', 'growth', 9900]], 'one subscription, moved');
  // Half the period left: the difference for it is invoiced at once, not a second full price.
  const invoices = await invoicesOf(first!.id);
  assert.deepEqual(invoices.map((i) => i.amount), [2900, Math.round((7000 * 15) / 30)]);
  // Buying the plan it is on is refused; a downgrade moves it back.
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' })).status, 409);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' })).status, 200);
  assert.deepEqual(await state(api), ['starter', 'active']);
  assert.equal((await invoicesOf(first!.id)).length, 2, 'a downgrade is credit for later, nothing charged now');

  // Only the owner cancels.
  const admin = await addMember(t, api.owner.client, api.owner.workspaceId, 'admin');
  assert.equal((await admin.client.post(`/apis/${api.apiId}/plan/cancel`)).status, 403);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/cancel`)).status, 204);
  assert.deepEqual(await state(api), ['starter', 'canceled'], 'kept to the end of the period');
  assert.equal((await providerSubscriptions(api.apiId))[0]!.cancel, true);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/resume`)).status, 204);
  assert.deepEqual(await state(api), ['starter', 'active']);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/plan/resume`)).status, 409, 'nothing to resume');
  // `free` is a cancellation at the end of the period too.
  const free = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'free' });
  assert.equal(free.status, 200, free.text);
  assert.deepEqual(await state(api), ['starter', 'canceled']);
  const periodEnd = new Date((await apiOut(api)).plan_period_end).getTime();
  t.clock.advance(periodEnd - MINUTE - t.clock.now().getTime());
  await t.services.devProvider!.renewDue();
  assert.deepEqual(await state(api), ['starter', 'canceled'], 'a minute before the end it still holds');
  t.clock.advance(2 * MINUTE);
  await t.services.devProvider!.renewDue();
  assert.deepEqual(await state(api), ['free', 'canceled']);
  subs = await providerSubscriptions(api.apiId);
  assert.deepEqual(subs.map((s) => s.status), ['canceled']);
  assert.equal((await invoicesOf(first!.id)).length, 2, 'no renewal invoice after the end');
  const ended = await t.mail.waitFor(api.owner.email, /Starter plan of Climber has ended/);
  assert.match(ended.text, /free plan/);
  // A new plan after the end is a new checkout, and the one subscription it makes is the live one
  // (signed in again: the console session of a month ago has ended).
  assert.equal((await api.owner.client.post('/auth/login', { email: api.owner.email, password: PASSWORD })).status, 200);
  await buy(api, 'growth');
  assert.deepEqual(await state(api), ['growth', 'active']);
  assert.deepEqual((await providerSubscriptions(api.apiId)).map((s) => s.status), ['canceled', 'active']);
});

test('two checkouts paid one after the other: the second subscription is never followed and is canceled at once', async () => {
  const api = await createApi(t, { name: 'Double Clicker' });
  const one = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'starter' });
  const two = await api.owner.client.post(`/apis/${api.apiId}/plan/checkout`, { plan_code: 'growth' });
  await submitDevTestPage(one.body.url, { outcome: 'pay' });
  await submitDevTestPage(two.body.url, { outcome: 'pay' });
  assert.deepEqual(await state(api), ['starter', 'active']);
  assert.deepEqual((await providerSubscriptions(api.apiId)).map((s) => [s.plan, s.status]), [['starter', 'active'], ['growth', 'canceled']]);
  const { rows } = await sql<{ status: string }>`select status from platform_subscriptions where api_id = ${api.apiId} order by updated_at`.execute(t.services.db);
  assert.deepEqual(rows.map((r) => r.status).sort(), ['active', 'duplicate']);
  // The database itself refuses a second live subscription.
  await assert.rejects(
    sql`insert into platform_subscriptions (subscription_id, api_id, status, plan_code, updated_at) values ('sub_forced', ${api.apiId}, 'active', 'growth', now())`.execute(t.services.db),
    /platform_subscriptions_live|unique/,
  );
});

test('owners are mailed when the plan goes past due, two days before the grace ends (once), and when it ends', async () => {
  const api = await createApi(t, { name: 'Slow Payer' });
  await buy(api, 'starter', 'pay_declining');
  t.clock.advance(new Date((await apiOut(api)).plan_period_end).getTime() + 1000 - t.clock.now().getTime());
  await t.services.devProvider!.renewDue();
  assert.deepEqual(await state(api), ['starter', 'past_due']);
  const pastDue = await t.mail.waitFor(api.owner.email, /payment for the Starter plan of Slow Payer failed/);
  assert.match(pastDue.text, /keeps the Starter plan until/);
  const graceUntil = new Date((await apiOut(api)).plan_grace_until).getTime();
  const grace = () => t.services.scheduler.runOnce(paymentGraceJob(t.services.payments));
  const warnings = () => t.mail.received.filter((m) => m.to === api.owner.email.toLowerCase() && /leaves the Starter plan/.test(m.subject)).length;
  t.clock.advance(graceUntil - 2 * DAY - MINUTE - t.clock.now().getTime());
  await grace();
  assert.equal(warnings(), 0, 'more than two days left: no warning yet');
  t.clock.advance(2 * MINUTE);
  await grace();
  await t.mail.waitFor(api.owner.email, /leaves the Starter plan/);
  await grace();
  assert.equal(warnings(), 1, 'warned once');
  t.clock.advance(graceUntil + MINUTE - t.clock.now().getTime());
  await grace();
  assert.deepEqual(await state(api), ['free', 'canceled']);
  await t.mail.waitFor(api.owner.email, /Starter plan of Slow Payer has ended/);
  // The unpaid subscription ends at the provider too: no more retries, no renewal.
  assert.deepEqual((await providerSubscriptions(api.apiId)).map((s) => s.status), ['canceled']);
});
