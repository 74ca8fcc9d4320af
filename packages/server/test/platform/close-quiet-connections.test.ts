// Stopping the HTTP server ends connections that are not answering a request at once, and the
// others as soon as their answer is written (src/platform/http/quiet-connections.ts). Node alone
// waited for a connection that had not sent its first request until the headers timeout, which
// made every stop after an SDK's long poll take 70 s. Order-based: the quiet connection must
// close while another request is still held open by the test, so nothing here waits on time.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { httpServerFactory } from '../../src/platform/http/server-factory.js';

// Timeouts of an hour: without the fix, the quiet connection would hold close for that long, and
// the test would fail on its hang bound instead of passing late.
const limits = { headersTimeoutS: 3600, requestTimeoutS: 3600, maxConnectionsPerAddress: 0, trustProxy: false, consoleHost: 'localhost', portalDomain: 'localhost' };

function raw(port: number) {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(data)));
  return { socket, closed, connected: once(socket, 'connect'), received: () => data };
}

/** A server whose `/held` requests wait until `release()`; everything else is answered at once. */
async function serverWithHeldRequests() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const arrived: string[] = [];
  const server = httpServerFactory(limits)((request, response) => {
    arrived.push(request.url ?? '');
    const answer = () => response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
    if (request.url === '/held') void released.then(answer);
    else answer();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, release, arrived };
}

async function until(done: () => boolean) {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

test('close ends a connection that never sent a request, while a request under way is still answered in full', { timeout: 120_000 }, async () => {
  const { server, port, release, arrived } = await serverWithHeldRequests();
  const quiet = raw(port);
  const busy = raw(port);
  await Promise.all([quiet.connected, busy.connected]);
  busy.socket.write('GET /held HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await until(() => arrived.includes('/held'));

  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // The quiet connection ends now, before the held request has been let go.
  assert.equal(await quiet.closed, '');
  assert.equal(busy.received(), '', 'the held request is still waiting');

  release();
  const answer = await busy.closed;
  assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(answer, /\r\nConnection: close\r\n/i);
  assert.ok(answer.endsWith('\r\n\r\nok'), answer);
  await stopped;
});

test('close ends a kept-alive connection between requests at once', { timeout: 120_000 }, async () => {
  const { server, port, release, arrived } = await serverWithHeldRequests();
  const idle = raw(port);
  const holder = raw(port);
  await Promise.all([idle.connected, holder.connected]);
  idle.socket.write('GET /first HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await until(() => idle.received().endsWith('ok'));
  holder.socket.write('GET /held HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await until(() => arrived.includes('/held'));

  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  assert.match(await idle.closed, /^HTTP\/1\.1 200 OK\r\n[\s\S]*keep-alive[\s\S]*ok$/i);
  release();
  assert.match(await holder.closed, /Connection: close[\s\S]*ok$/i);
  await stopped;
});
