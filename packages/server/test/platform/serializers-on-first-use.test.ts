// Apps compile response serializers on first use (docs/decisions.md, "Schemas compiled on first
// use"); Fastify's default compiles them at start. Both must write the same bytes, and only the
// default refuses a response schema that cannot compile before the first request (which is why
// test/platform/schemas-at-start.test.ts builds one app with every schema compiled at start).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializersOnFirstUse } from '../../src/platform/http/serialization.js';

const Shared = { $id: 'Shared', type: 'object', properties: { at: { type: 'string' } } };
const answer = {
  type: 'object',
  properties: { id: { type: 'string' }, count: { type: 'integer' }, shared: { $ref: 'Shared#' }, either: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
};

function appWith(onFirstUse: boolean, schema: object = answer): FastifyInstance {
  const app = Fastify(onFirstUse ? { schemaController: { compilersFactory: { buildSerializer: serializersOnFirstUse } } } : {});
  app.addSchema(Shared);
  // `secret` is not in the schema, so a serializer that follows it leaves it out.
  app.get('/thing', { schema: { response: { 200: schema } } }, async () => ({ id: 'th_1', count: 3, shared: { at: 'now', extra: 1 }, either: 7, secret: 's3cret' }));
  return app;
}

test('serializers compiled on first use write what the ones compiled at start write', async () => {
  const bodies = [];
  for (const onFirstUse of [false, true]) {
    const app = appWith(onFirstUse);
    const first = await app.inject({ url: '/thing' });
    const second = await app.inject({ url: '/thing' });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(second.body, first.body);
    bodies.push(first.body);
    await app.close();
  }
  assert.equal(bodies[1], bodies[0]);
  assert.deepEqual(JSON.parse(bodies[0]!), { id: 'th_1', count: 3, shared: { at: 'now' }, either: 7 });
});

test('a response schema that cannot compile stops an app compiling at start, and one compiling on first use at its first answer', async () => {
  const broken = { type: 'object', properties: { shared: { $ref: 'Missing#' } } };
  const atStart = appWith(false, broken);
  await assert.rejects(async () => { await atStart.ready(); }, /Missing/);
  const onFirstUse = appWith(true, broken);
  await onFirstUse.ready();
  const answered = await onFirstUse.inject({ url: '/thing' });
  assert.equal(answered.statusCode, 500);
  await onFirstUse.close();
});
