// Bounds per account (issue 26 item 4): an account owns at most 20 workspaces, and its console
// invitations count against 50 an hour over all of them (its workspace keys' too), so making
// workspaces no longer multiplies what one person can mail.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createKey } from '../support/workspaces.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const workspaceCount = async () => Number((await t.services.db.selectFrom('workspaces').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

test('an account owns at most 20 workspaces; two creations at once never pass the cap', async () => {
  const owner = await signUp(t);
  // The sign-up made the first; 17 more make 18, then three at once: two fit.
  for (let i = 2; i <= 18; i++) {
    const made = await owner.client.post('/workspaces', { name: `Workspace ${i}` });
    assert.equal(made.status, 200, `workspace ${i}: ${made.text}`);
  }
  const racing = await Promise.all([1, 2, 3].map((i) => owner.client.post('/workspaces', { name: `Racing ${i}` })));
  assert.deepEqual(racing.map((answer) => answer.status).sort(), [200, 200, 409]);
  const owned = await owner.client.get('/me');
  assert.equal(owned.body.workspaces.filter((w: { role: string }) => w.role === 'owner').length, 20, 'at the cap: 20 owned');

  const before = await workspaceCount();
  const refused = await owner.client.post('/workspaces', { name: 'One too many' });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.type, 'urn:gatehouse:problem:workspace_limit');
  assert.match(refused.body.detail, /at most 20 workspaces; you own 20/);
  assert.equal(await workspaceCount(), before, 'the refusal made nothing');

  // Deleting one makes room again; another account has its own 20.
  assert.equal((await owner.client.delete(`/workspaces/${racing.find((a) => a.status === 200)!.body.id}`)).status, 204);
  assert.equal((await owner.client.post('/workspaces', { name: 'After a delete' })).status, 200);
  const other = await signUp(t);
  assert.equal((await other.client.post('/workspaces', { name: 'Elsewhere' })).status, 200);
});

test("50 console invitations per account per hour over all its workspaces, its keys' included", async () => {
  const owner = await signUp(t);
  const second = (await owner.client.post('/workspaces', { name: 'Second' })).body.id as string;
  const third = (await owner.client.post('/workspaces', { name: 'Third' })).body.id as string;
  const invite = (client: typeof owner.client, ws: string, label: string) => client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail(label), role: 'viewer' });
  for (let i = 1; i <= 30; i++) assert.equal((await invite(owner.client, owner.workspaceId, `a${i}`)).status, 200, `invitation ${i} from the first workspace`);
  for (let i = 31; i <= 45; i++) assert.equal((await invite(owner.client, second, `b${i}`)).status, 200, `invitation ${i} from the second`);
  // A key the account made sends on the account's allowance too.
  const key = await createKey(t, owner.client, third, 'admin', 'Inviting key');
  for (let i = 46; i <= 50; i++) assert.equal((await key.client.post(`/workspaces/${third}/invites`, { email: uniqueEmail(`k${i}`), role: 'viewer' }, { noCsrfHeader: true })).status, 200, `invitation ${i} by the key`);

  // The 51st: each workspace is far below its own 50, so only the account's allowance refuses it.
  for (const [client, what] of [[owner.client, 'the third workspace'], [key.client, 'the key']] as const) {
    const refused = await client.post(`/workspaces/${third}/invites`, { email: uniqueEmail('over'), role: 'viewer' }, { noCsrfHeader: client === key.client });
    assert.equal(refused.status, 429, `${what}: ${refused.text}`);
    assert.equal(refused.body.type, 'urn:gatehouse:problem:rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  }
  const apiCustomerInvite = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name: 'Bound API' });
  assert.equal(apiCustomerInvite.status, 200, apiCustomerInvite.text);
  const refusedCustomer = await owner.client.post(`/apis/${apiCustomerInvite.body.api.id}/customers/invite`, { email: uniqueEmail('customer') });
  assert.equal(refusedCustomer.status, 429, 'customer invitations count against the account too');

  const other = await signUp(t);
  assert.equal((await invite(other.client, other.workspaceId, 'other')).status, 200, 'another account has its own allowance');
});
