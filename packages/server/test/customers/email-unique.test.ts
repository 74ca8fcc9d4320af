// A customer's e-mail address is unique per API among customers not archived, compared
// case-insensitively (issue 23 item 6): a second is 409 and changes nothing; another API, or an
// archived customer's address, is free.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey } from '../support/money.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('a second customer with the same address (any case) is 409 and nothing is made; another API and an archived customer leave it free', async () => {
  const api = await createApi(t, { name: 'Unique Mail' });
  await createCustomer(t, api, 'First', 'Billing@Acme.test');
  const count = async () => (await api.owner.client.get(`/apis/${api.apiId}/customers`)).body.customers.length;
  const before = await count();
  for (const email of ['billing@acme.test', 'BILLING@ACME.TEST', 'Billing@acme.TEST']) {
    const again = await api.owner.client.post(`/apis/${api.apiId}/customers`, { name: 'Second', email });
    assert.equal(again.status, 409, `${email}: ${again.text}`);
    assert.equal(again.body.type, 'urn:gatehouse:problem:customer_email_taken');
    assert.equal(again.body.errors[0].location, 'body.email');
  }
  assert.equal(await count(), before);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/customers`, { name: 'Other', email: 'billing2@acme.test' })).status, 200);
  const other = await createApi(t, { name: 'Elsewhere Mail' });
  await createCustomer(t, other, 'Same elsewhere', 'billing@acme.test');
  // Archived (it has a key, so removing archives it): its address may be used again.
  const archived = await createCustomer(t, api, 'Leaving', 'leaving@acme.test');
  await createKey(api, archived.id);
  const removed = await api.owner.client.delete(`/apis/${api.apiId}/customers/${archived.id}`);
  assert.equal(removed.status, 200, removed.text);
  assert.equal((await api.owner.client.post(`/apis/${api.apiId}/customers`, { name: 'Back', email: 'Leaving@acme.test' })).status, 200);
});

test('twenty creations with one address at once make one customer', async () => {
  const api = await createApi(t, { name: 'Racing Mail' });
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api.owner.client.post(`/apis/${api.apiId}/customers`, { name: `Racer ${i}`, email: 'race@acme.test' })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(19).fill(409)]);
});
