// The framework adapters (issue 4, "Adapters"): each answers denials itself, puts the customer on
// the request, and reports the status the handler finally answered with.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { Meter, MeteredCustomer } from '../src/index.js';
import { gatehouse as expressGatehouse } from '../src/adapters/express.js';
import { gatehousePlugin } from '../src/adapters/fastify.js';
import { gatehouse as honoGatehouse } from '../src/adapters/hono.js';
import { withMeter } from '../src/adapters/node.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, type ApiFixture } from '../../server/test/support/money.js';
import { Meters, patchApi, unknownKey, wireTap, type WireTap } from './support/gatehouse.js';

let t: TestApp;
let api: ApiFixture;
let customer: { id: string };
let key: string;
const meters = new Meters();
const servers: Server[] = [];
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Adapters' });
  await patchApi(api, { rps: 0 });
  customer = await createCustomer(t, api);
  key = (await createKey(api, customer.id)).key;
});
after(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await meters.closeAll();
  await t.close();
});

function meteredBy(): { meter: Meter; tap: WireTap } {
  const tap = wireTap();
  return { meter: meters.make(t, api, { fetch: tap.fetch }), tap };
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Send = (path: string, init?: RequestInit & { headers?: Record<string, string> }) => Promise<Response>;

/** What every adapter must do, checked the same way for each. */
async function checkAdapter(send: Send, meter: Meter, tap: WireTap) {
  const missing = await send('/hello');
  assert.equal(missing.status, 401);
  assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer /);
  assert.match(missing.headers.get('content-type') ?? '', /application\/json/);
  assert.deepEqual(await missing.json(), { error: 'missing_key', message: 'An API key is required in the x-api-key header.' });

  // A customer key sent as a Bearer token (where many APIs take keys): refused, naming the header.
  const asBearer = await send('/hello', { headers: { authorization: `Bearer ${key}` } });
  assert.equal(asBearer.status, 401);
  assert.deepEqual(await asBearer.json(), {
    error: 'missing_key',
    message: 'An API key is required in the x-api-key header. This request sent a Bearer token in Authorization, which this API does not read keys from: send the key as "x-api-key: <key>".',
  });

  const unknown = await send('/hello', { headers: { 'x-api-key': unknownKey() } });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  assert.equal(((await unknown.json()) as { error: string }).error, 'invalid_key');

  // The key in its header is read, whatever Authorization holds beside it.
  const hello = await send('/hello', { headers: { 'x-api-key': key, authorization: 'Bearer something-else' } });
  assert.equal(hello.status, 200);
  assert.deepEqual(await hello.json(), { customer: customer.id });

  const notFound = await send('/missing', { headers: { 'x-api-key': key } });
  assert.equal(notFound.status, 404);
  await notFound.text();

  const boom = await send('/boom', { headers: { 'x-api-key': key } });
  assert.equal(boom.status, 500);
  await boom.text();

  // A body, and a handler that answers only after awaiting something.
  const created = await send('/items', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x' }) });
  assert.equal(created.status, 201);
  assert.deepEqual(await created.json(), { created: 'x', customer: customer.id });

  await meter.flush();
  const reported = tap.delivered.map((item) => `${item.status_code}×${item.count}`).sort();
  assert.deepEqual(reported, ['200×1', '201×1', '404×1', '500×1'], 'each admitted request with the status its handler answered');
  assert.deepEqual(meter.metrics().admissions, { admitted: 4, missing_key: 2, invalid_key: 1 });
}

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * Handlers of /slow and /stream call this: it tells the test the handler runs, and waits for the
 * client to hang up. Every 'close' listener, the adapter's too, runs before the test resumes.
 */
let slowStarted: () => void = () => {};
let slowClosed: () => void = () => {};
const untilClosed = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    res.once('close', () => {
      slowClosed();
      resolve();
    });
    slowStarted();
  });

/** A client that hangs up while the handler is still working: recorded as 499, never billed. */
async function checkAbort(base: string, meter: Meter, tap: WireTap) {
  const started = new Promise<void>((resolve) => (slowStarted = resolve));
  const closed = new Promise<void>((resolve) => (slowClosed = resolve));
  const request = httpRequest(`${base}/slow`, { headers: { 'x-api-key': key } });
  request.on('error', () => {});
  request.end();
  await started;
  request.destroy();
  await closed;
  const before = tap.delivered.length;
  assert.equal(meter.metrics().queueDepth, 1);
  await meter.flush();
  assert.deepEqual(tap.delivered.slice(before).map((item) => `${item.status_code}×${item.count}`), ['499×1']);
}

/**
 * A head written at once, the body streamed, and the client hanging up mid-stream: the request is
 * recorded with the head's status (the answer had begun), not as an abort.
 */
async function checkStreamAbort(base: string, meter: Meter, tap: WireTap) {
  const started = new Promise<void>((resolve) => (slowStarted = resolve));
  const closed = new Promise<void>((resolve) => (slowClosed = resolve));
  const request = httpRequest(`${base}/stream`, { headers: { 'x-api-key': key } });
  request.on('error', () => {});
  const head = new Promise<number>((resolve) => request.on('response', (res) => resolve(res.statusCode!)));
  request.end();
  await started;
  assert.equal(await head, 206);
  request.destroy();
  await closed;
  const before = tap.delivered.length;
  await meter.flush();
  assert.deepEqual(tap.delivered.slice(before).map((item) => `${item.status_code}×${item.count}`), ['206×1']);
}

/** A node or Express handler of /stream: the head and a first chunk now, the rest never. */
function streamUntilClosed(res: ServerResponse) {
  res.writeHead(206, { 'content-type': 'text/plain' });
  res.write('partial');
  return untilClosed(res);
}

test('node:http (withMeter)', async () => {
  const { meter, tap } = meteredBy();
  const errors: unknown[] = [];
  const handler = withMeter(meter, async (req, res) => {
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/hello') return json(200, { customer: req.gatehouse!.id });
    if (req.url === '/boom') throw new Error('the handler failed');
    if (req.url === '/slow') return untilClosed(res);
    if (req.url === '/stream') return streamUntilClosed(res);
    if (req.url === '/items' && req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      await later();
      return json(201, { created: (JSON.parse(text) as { name: string }).name, customer: req.gatehouse!.id });
    }
    return json(404, { error: 'not_found' });
  });
  const base = await listen(createServer((req, res) => void Promise.resolve(handler(req, res)).catch((error: unknown) => errors.push(error))));
  await checkAdapter((path, init) => fetch(base + path, init), meter, tap);
  await checkAbort(base, meter, tap);
  await checkStreamAbort(base, meter, tap);
  assert.equal(errors.length, 0, 'withMeter answered the failure itself');
});

test('node:http (withMeter) with a handler that is not async: answered at once, or later, or by throwing', async () => {
  const { meter, tap } = meteredBy();
  const base = await listen(
    createServer(
      withMeter(meter, (req, res) => {
        if (req.url === '/now') return void res.writeHead(200).end('now');
        if (req.url === '/later') return void setTimeout(() => res.writeHead(202).end('later'), 5);
        throw new Error('the handler failed');
      }),
    ),
  );
  for (const [path, status] of [['/now', 200], ['/later', 202], ['/throw', 500]] as const) {
    const answer = await fetch(base + path, { headers: { 'x-api-key': key } });
    assert.equal(answer.status, status, path);
    await answer.text();
  }
  await meter.flush();
  assert.deepEqual(tap.delivered.map((item) => `${item.status_code}×${item.count}`).sort(), ['200×1', '202×1', '500×1']);
});

test('express (gatehouse middleware)', async () => {
  const { meter, tap } = meteredBy();
  const app = express();
  app.set('env', 'test'); // the default error handler then answers 500 without printing the stack
  app.use(expressGatehouse(meter));
  app.use(express.json());
  app.get('/hello', (req, res) => {
    res.json({ customer: (req.gatehouse as MeteredCustomer).id });
  });
  app.get('/boom', () => {
    throw new Error('the handler failed');
  });
  app.post('/items', async (req, res) => {
    await later();
    res.status(201).json({ created: (req.body as { name: string }).name, customer: req.gatehouse!.id });
  });
  app.get('/slow', (_req, res) => untilClosed(res));
  app.get('/stream', (_req, res) => streamUntilClosed(res));
  const base = await listen(createServer(app));
  await checkAdapter((path, init) => fetch(base + path, init), meter, tap);
  await checkAbort(base, meter, tap);
  await checkStreamAbort(base, meter, tap);
});

test('fastify (gatehousePlugin)', async () => {
  const { meter, tap } = meteredBy();
  const app = Fastify();
  await app.register(gatehousePlugin(meter));
  // The SDK does not depend on fastify, so it does not add `gatehouse` to FastifyRequest's type.
  const customerOf = (request: object) => (request as { gatehouse?: MeteredCustomer }).gatehouse!;
  app.get('/hello', async (request) => ({ customer: customerOf(request).id }));
  app.get('/boom', async () => {
    throw new Error('the handler failed');
  });
  app.post('/items', async (request, reply) => {
    await later();
    return reply.code(201).send({ created: (request.body as { name: string }).name, customer: customerOf(request).id });
  });
  app.get('/slow', async (_request, reply) => {
    await untilClosed(reply.raw);
    return reply.send('too late');
  });
  // Not async: Fastify sends the reply before the plugin's hook returns.
  app.get('/now', (_request, reply) => {
    void reply.code(203).send('now');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app.server);
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await checkAdapter((path, init) => fetch(base + path, init), meter, tap);
  await checkAbort(base, meter, tap);
  const before = tap.delivered.length;
  const now = await fetch(`${base}/now`, { headers: { 'x-api-key': key } });
  assert.equal(now.status, 203);
  await now.text();
  await meter.flush();
  assert.deepEqual(tap.delivered.slice(before).map((item) => `${item.status_code}×${item.count}`), ['203×1']);
});

test('hono (gatehouse middleware)', async () => {
  const { meter, tap } = meteredBy();
  const app = new Hono<{ Variables: { gatehouse: MeteredCustomer } }>();
  app.onError((_error, c) => c.json({ error: 'internal_error' }, 500));
  app.use('*', honoGatehouse(meter));
  app.get('/hello', (c) => c.json({ customer: c.get('gatehouse').id }));
  app.get('/boom', () => {
    throw new Error('the handler failed');
  });
  app.post('/items', async (c) => {
    const body = await c.req.json<{ name: string }>();
    await later();
    return c.json({ created: body.name, customer: c.get('gatehouse').id }, 201);
  });
  await checkAdapter(async (path, init) => app.request(path, init), meter, tap);
});
