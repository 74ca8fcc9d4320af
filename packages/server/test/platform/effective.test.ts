import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveLimits, planInForce, sameTerms } from '../../src/customers/effective.js';

const api = { price_per_request_micro: 1000, rps: 10, monthly_quota: 0, billable_status_codes: [201, 200] };
const none = { price_per_request_micro: null, rps: null, monthly_quota: null };

test('each field falls back: custom, then plan, then the API', () => {
  const plan = { price_per_request_micro: 500, rps: null, monthly_quota: 5000 };
  const custom = { price_per_request_micro: null, rps: 50, monthly_quota: null };
  assert.deepEqual(effectiveLimits({ api, plan, custom }), {
    rps: 50, price_per_request_micro: 500, monthly_quota: 5000, source: 'custom', billing_model: 'subscription', billable_status_codes: [200, 201],
  });
  assert.equal(effectiveLimits({ api, plan, custom: none }).source, 'plan');
  assert.equal(effectiveLimits({ api, plan: null, custom: none }).source, 'payg');
});

test('a quota of 0 means none (null on the wire); billing model follows plan and price', () => {
  assert.equal(effectiveLimits({ api, plan: null, custom: none }).monthly_quota, null);
  assert.equal(effectiveLimits({ api, plan: null, custom: none }).billing_model, 'payg');
  assert.equal(effectiveLimits({ api: { ...api, price_per_request_micro: 0 }, plan: null, custom: none }).billing_model, 'none');
  assert.equal(effectiveLimits({ api, plan: null, custom: { ...none, monthly_quota: 0 } }).monthly_quota, null);
  assert.equal(effectiveLimits({ api, plan: null, custom: { ...none, monthly_quota: 1 } }).monthly_quota, 1);
});

test('a plan is in force by hand, or through a provider subscription in good standing', () => {
  assert.equal(planInForce({ plan_id: null, plan_source: '', subscription_status: null }), false);
  assert.equal(planInForce({ plan_id: 'p', plan_source: 'manual', subscription_status: null }), true);
  assert.equal(planInForce({ plan_id: 'p', plan_source: 'provider', subscription_status: 'active' }), true);
  assert.equal(planInForce({ plan_id: 'p', plan_source: 'provider', subscription_status: 'canceled' }), false);
});

test('terms compare field by field, billable statuses as a sorted set', () => {
  const a = effectiveLimits({ api, plan: null, custom: none });
  assert.equal(sameTerms(a, effectiveLimits({ api: { ...api, billable_status_codes: [200, 201] }, plan: null, custom: none })), true);
  assert.equal(sameTerms(a, effectiveLimits({ api: { ...api, rps: 11 }, plan: null, custom: none })), false);
});
