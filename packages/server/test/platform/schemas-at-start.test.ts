import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

// Apps compile each route's validators and response serializers on first use (docs/decisions.md,
// "Start-up"). This app compiles all of them at start, as Fastify does by default: a schema that
// cannot compile fails here, whichever route it belongs to and whether or not a test calls it.
let eager: TestApp;
let lazy: TestApp;
before(async () => {
  eager = await startTestApp({}, { compileSchemasAtStart: true });
  lazy = await startTestApp();
});
after(async () => {
  await eager?.close();
  await lazy?.close();
});

test('every route schema compiles at start', async () => {
  const ready = await fetch(`${eager.url}/readyz`);
  assert.equal(ready.status, 200);
});

test('a serializer compiled on first use answers what one compiled at start answers', async () => {
  // /me's response schema leaves out what it does not list: both must answer the same fields.
  const [atStart, onFirstUse] = await Promise.all([signUp(eager, { name: 'Ada' }), signUp(lazy, { name: 'Ada' })]);
  const [a, b] = await Promise.all([atStart.client.get('/me'), onFirstUse.client.get('/me')]);
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  const shape = (body: { user: Record<string, unknown>; workspaces: Record<string, unknown>[] }) => ({
    user: Object.keys(body.user).sort(),
    workspace: Object.keys(body.workspaces[0] ?? {}).sort(),
  });
  assert.deepEqual(shape(b.body), shape(a.body));
  // A validator compiled on first use refuses what one compiled at start refuses.
  const refusedEager = await atStart.client.post('/workspaces', { name: '' });
  const refusedLazy = await onFirstUse.client.post('/workspaces', { name: '' });
  assert.equal(refusedEager.status, 422);
  assert.deepEqual(refusedLazy.body.errors, refusedEager.body.errors);
});
