// The platform period across a month end (wire protocol section 2, "Period key" and "Floors"):
// platform_period_end is constant for the whole UTC month and moves only when the month does; the
// new period's counters start from zero, and usage reported late for the old month stays there.
// This file moves its clock past a month end, so it has its own app.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, customerIn, getWireSnapshot, hourStamp, postWireUsage, usageItem } from '../support/money.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

test('snapshot: platform_period_end stays the same for the month and moves to the next month start when the month ends; counters restart', async () => {
  const api = await createApi(t, { name: 'Month End API' });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const first = await getWireSnapshot(t, api.secret);
  const policy = customerIn(first.body, customer.id).usage_policy_id;
  const end = first.body.platform_period_end as string;
  assert.equal(end, nextMonthStart(new Date(first.body.generated_at)).toISOString());

  const now = t.clock.now();
  const results = await postWireUsage(t, api.secret, [usageItem(key.id, policy, 200, 3, now), usageItem(key.id, policy, 404, 2, now)]);
  assert.deepEqual(results.map((r) => r.status), ['accepted', 'accepted']);
  const second = await getWireSnapshot(t, api.secret);
  assert.equal(second.body.platform_period_end, end, 'the same period key all month');
  assert.equal(second.body.platform_monthly_used, 5);
  assert.equal(customerIn(second.body, customer.id).month_requests, 5);
  const balance = customerIn(second.body, customer.id).credit_balance_micro;
  assert.equal(balance, 1_000_000 - 3_000);

  // One minute into the next month.
  t.clock.advance(Date.parse(end) - t.clock.now().getTime() + 60_000);
  const third = await getWireSnapshot(t, api.secret);
  assert.ok(Date.parse(third.body.generated_at) > Date.parse(second.body.generated_at));
  assert.equal(third.body.platform_period_end, nextMonthStart(new Date(end)).toISOString());
  assert.equal(third.body.platform_monthly_allowance.period_start, end);
  assert.equal(third.body.platform_monthly_used, 0);
  assert.equal(third.body.platform_monthly_remaining, third.body.platform_monthly_limit);
  const c = customerIn(third.body, customer.id);
  assert.equal(c.month_requests, 0);
  assert.equal(c.credit_balance_micro, balance, 'credit is not monthly');

  // Usage of the old month's last hour, reported now: billed, but counted in the old month.
  const late = { ...usageItem(key.id, policy, 200, 4, now), period_start: hourStamp(new Date(Date.parse(end) - 1)) };
  assert.equal((await postWireUsage(t, api.secret, [late]))[0]!.status, 'accepted');
  const fourth = await getWireSnapshot(t, api.secret);
  assert.equal(fourth.body.platform_monthly_used, 0);
  assert.equal(customerIn(fourth.body, customer.id).month_requests, 0);
  assert.equal(customerIn(fourth.body, customer.id).credit_balance_micro, balance - 4_000);
  // And usage of the new month counts in it.
  assert.equal((await postWireUsage(t, api.secret, [usageItem(key.id, customerIn(fourth.body, customer.id).usage_policy_id, 404, 6, t.clock.now())]))[0]!.status, 'accepted');
  const fifth = await getWireSnapshot(t, api.secret);
  assert.equal(fifth.body.platform_monthly_used, 6);
  assert.equal(customerIn(fifth.body, customer.id).month_requests, 6);
  assert.equal(fifth.body.platform_period_end, third.body.platform_period_end);
});
