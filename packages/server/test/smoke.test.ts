import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from './support/harness.js';
import { signUp } from './support/flows.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('sign up, then /me shows the person and their first workspace', async () => {
  const owner = await signUp(t, { name: 'Ada' });
  const me = await owner.client.get('/me');
  assert.equal(me.status, 200);
  assert.equal(me.body.user.email, owner.email);
  assert.equal(me.body.workspaces.length, 1);
  assert.equal(me.body.workspaces[0].role, 'owner');
  assert.equal(me.body.workspaces[0].name, 'Ada');
});
