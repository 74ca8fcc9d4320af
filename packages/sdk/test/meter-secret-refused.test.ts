// A meter started with a wrong secret, and one whose secret is revoked while it runs (issue 25
// item 6): the start fails with one error that says what to change; a running meter keeps
// answering 503 and says why once a minute, not once per request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AuthorizationError } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey } from '../../server/test/support/money.js';
import { Meters, patchApi } from './support/gatehouse.js';

let t: TestApp;
const meters = new Meters();
before(async () => (t = await startTestApp()));
after(async () => {
  await meters.closeAll();
  await t.close();
});

const refusals = (errors: Error[]) => errors.filter((error) => error instanceof AuthorizationError);

test('a wrong secret: ready rejects with one error naming GATEHOUSE_SECRET_KEY and the Connect page; requests answer 503', async () => {
  const api = await createApi(t, { name: 'Wrong secret' });
  const errors: Error[] = [];
  const meter = meters.make(t, { ...api, secret: `mas_${'x'.repeat(43)}` }, { onError: (error) => errors.push(error) });
  await assert.rejects(meter.ready, (error: Error) => {
    assert.ok(error instanceof AuthorizationError);
    assert.equal(error.message, `Gatehouse at ${t.url} refused the SDK secret (HTTP 401 to GET /sdk/v1/snapshot). Set GATEHOUSE_SECRET_KEY (or the secret option) to the API's current secret: an admin reveals it on the API's Connect page in the console. Until then metered requests answer 503.`);
    assert.equal(error.stack, `AuthorizationError: ${error.message}`, 'no SDK stack frames under the message');
    return true;
  });
  for (let i = 0; i < 5; i++) {
    const answer = await meter.admit({ key: 'a-customer-key-we-cannot-check' });
    assert.equal(answer.ok ? 200 : answer.status, 503);
  }
  assert.equal(refusals(errors).length, 1, 'said once, however many requests came');
});

test('the right secret: ready resolves and a customer is admitted', async () => {
  const api = await createApi(t, { name: 'Right secret' });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const errors: Error[] = [];
  const meter = meters.make(t, api, { onError: (error) => errors.push(error) });
  await meter.ready;
  const answer = await meter.admit({ key: key.key });
  assert.equal(answer.ok, true);
  assert.deepEqual(errors, []);
});

/** Waits (without a clock bound: the test's own timeout bounds it) until `count()` reaches `n`. */
async function until(count: () => number, n: number): Promise<void> {
  while (count() < n) await new Promise((resolve) => setTimeout(resolve, 20));
}

test('a secret revoked while running: requests answer 503 and the cause is reported once a minute, however often the sync fails', async () => {
  const api = await createApi(t, { name: 'Revoked secret' });
  await patchApi(api, { rps: 0 });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const errors: Error[] = [];
  let snapshotCalls = 0;
  const counting: typeof fetch = (input, init) => {
    if (String(input).includes('/sdk/v1/snapshot')) snapshotCalls++;
    return fetch(input, init);
  };
  // A sync every 100 ms: the refusal is met again and again in the background.
  const meter = meters.make(t, api, { onError: (error) => errors.push(error), fetch: counting, syncIntervalMs: 100 });
  await meter.ready;
  assert.equal((await meter.admit({ key: key.key })).ok, true);

  const rotated = await api.owner.client.post(`/apis/${api.apiId}/secret/rotate`, { grace_hours: 0 });
  assert.equal(rotated.status, 200, rotated.text);
  await until(() => refusals(errors).length, 1);
  const afterFirst = snapshotCalls;
  await until(() => snapshotCalls, afterFirst + 5);
  for (let i = 0; i < 5; i++) {
    const answer = await meter.admit({ key: key.key });
    assert.equal(answer.ok ? 200 : answer.status, 503, 'a refused secret is not a fit snapshot');
  }
  assert.equal(refusals(errors).length, 1, 'five more refused syncs and five requests later: still said once');
  assert.match(refusals(errors)[0]!.message, /refused the SDK secret \(HTTP 401 to GET \/sdk\/v1\/snapshot\)/);

  t.clock.advance(59_000);
  const at59 = snapshotCalls;
  await until(() => snapshotCalls, at59 + 3);
  assert.equal(refusals(errors).length, 1, 'not again within the minute');
  t.clock.advance(1_000);
  await until(() => refusals(errors).length, 2);
  assert.equal(errors.filter((error) => !(error instanceof AuthorizationError)).length, 0);
});
