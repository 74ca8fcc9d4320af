// The platform plan's max_customers: the last customer it allows is accepted, the next answers
// 402, the test customer does not count, and customers added at once cannot pass the limit
// (spec 2.1 PlatformPlanOut.max_customers; the plans file is PLATFORM_PLANS_FILE).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, platformPlansFile } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp({ PLATFORM_PLANS_FILE: platformPlansFile(3) });
  owner = await signUp(t, { name: 'Max Owner' });
});
after(() => t.close());

test('the plans file is what the platform offers', async () => {
  const plans = await owner.client.get('/platform/plans');
  assert.deepEqual(plans.body.plans.map((p: { code: string; max_customers: number }) => [p.code, p.max_customers]), [['free', 3], ['starter', 2000]]);
  const api = await createApi(t, { name: 'Plan Shown' }, owner);
  assert.equal((await owner.client.get(`/apis/${api.apiId}`)).body.plan.max_customers, 3);
});

test('the 3rd customer is accepted, the 4th answers 402; the test customer does not count', async () => {
  const api = await createApi(t, { name: 'Three Seats' }, owner);
  // The test customer first: it must not take a seat.
  assert.equal((await owner.client.post(`/apis/${api.apiId}/test-key`)).status, 200);
  for (let i = 1; i <= 3; i++) {
    const added = await owner.client.post(`/apis/${api.apiId}/customers`, { name: `Seat ${i}`, email: `seat-${i}@acme.test` });
    assert.equal(added.status, 200, `customer ${i}: ${added.text}`);
  }
  const fourth = await owner.client.post(`/apis/${api.apiId}/customers`, { name: 'Seat 4', email: 'seat-4@acme.test' });
  assert.equal(fourth.status, 402, fourth.text);
  assert.match(fourth.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(fourth.body.type, 'urn:gatehouse:problem:plan_limit');
  const listed = await owner.client.get(`/apis/${api.apiId}/customers`);
  assert.equal(listed.body.customers.length, 4, 'three customers and the test customer');
  assert.ok(!listed.body.customers.some((c: { name: string }) => c.name === 'Seat 4'));
  // The test key keeps working at the limit.
  assert.equal((await owner.client.post(`/apis/${api.apiId}/test-key`)).status, 200);
  // Each API has its own seats.
  const other = await createApi(t, { name: 'Other Seats' }, owner);
  assert.equal((await owner.client.post(`/apis/${other.apiId}/customers`, { name: 'Elsewhere', email: 'elsewhere@acme.test' })).status, 200);
});

test('customers added at the same time cannot pass the limit', async () => {
  const api = await createApi(t, { name: 'Racing Seats' }, owner);
  const answers = await Promise.all(
    [1, 2, 3, 4, 5, 6].map((i) => owner.client.post(`/apis/${api.apiId}/customers`, { name: `Racer ${i}`, email: `racer-${i}@acme.test` })),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 402, 402, 402], answers.map((a) => a.text).join('\n'));
  assert.equal((await owner.client.get(`/apis/${api.apiId}/connection`)).body.customers, 3);
});
