import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectionsPerNetwork } from '../../src/platform/http/server-factory.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/** A raw connection to the app: what it received, and a promise that settles when it closes. */
interface RawConnection {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
}

async function open(port: number): Promise<RawConnection> {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('latin1')));
  // A refused connection may be reset while we still write: that is a close like any other.
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => data, closed };
}

/** Sends `text` one byte at a time, every `everyMs`, until it is all sent or the server hangs up. */
async function drip(connection: RawConnection, text: string, everyMs: number): Promise<'cut' | 'sent'> {
  let cut = false;
  void connection.closed.then(() => (cut = true));
  for (const byte of text) {
    if (cut) return 'cut';
    connection.socket.write(byte);
    await sleep(everyMs);
  }
  return 'sent';
}

function request(port: number, method: string, path: string, body = ''): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** One request on its own connection, read to the end. */
async function exchange(port: number, raw: string): Promise<string> {
  const connection = await open(port);
  connection.socket.write(raw);
  await connection.closed;
  return connection.received();
}

describe('request timeouts (1 s in this app)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ HEADERS_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '1' })));
  after(() => t.close());

  test('a body sent a byte at a time is cut (408 or closed) before it is complete', async (context) => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(80) });
    const connection = await open(t.port);
    context.after(() => connection.socket.destroy());
    connection.socket.write(request(t.port, 'POST', '/api/auth/login', body).slice(0, -body.length));
    // 100+ bytes at 5 per second would take 20 s; the server must hang up long before.
    assert.equal(await drip(connection, body, 200), 'cut');
    await connection.closed;
    assert.match(connection.received(), /^$|^HTTP\/1\.1 408 /);
  });

  test('headers sent a byte at a time are cut too', async (context) => {
    const connection = await open(t.port);
    context.after(() => connection.socket.destroy());
    assert.equal(await drip(connection, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(100)}\r\n\r\n`, 200), 'cut');
    assert.match(connection.received(), /^$|^HTTP\/1\.1 408 /);
  });

  test('a request sent at once is answered as usual', async () => {
    assert.match(await exchange(t.port, request(t.port, 'GET', '/healthz')), /^HTTP\/1\.1 200 /);
    const answer = await exchange(t.port, request(t.port, 'POST', '/api/auth/login', JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' })));
    assert.match(answer, /^HTTP\/1\.1 401 /);
  });
});

describe('connections per client address (3 in this app)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ MAX_CONNECTIONS_PER_ADDRESS: '3' })));
  after(() => t.close());

  test('the 4th connection from one address is refused while 3 are open; one closing frees a place', async (context) => {
    const held = await Promise.all([open(t.port), open(t.port), open(t.port)]);
    context.after(() => held.forEach((connection) => connection.socket.destroy()));
    const refused = await open(t.port);
    refused.socket.write(request(t.port, 'GET', '/healthz'));
    await refused.closed;
    assert.match(refused.received(), /^$|^HTTP\/1\.1 429 /);
    assert.doesNotMatch(refused.received(), / 200 /);

    // The 3 held connections still work.
    held[0]!.socket.write(request(t.port, 'GET', '/healthz'));
    await held[0]!.closed;
    assert.match(held[0]!.received(), /^HTTP\/1\.1 200 /);
    // held[0] is closed now (Connection: close): the server may see that a moment after the
    // client does, so the next connection is tried until it gets in.
    let answer = '';
    for (let attempt = 0; attempt < 50 && !answer.startsWith('HTTP/1.1 200'); attempt++) {
      if (attempt) await sleep(20);
      answer = await exchange(t.port, request(t.port, 'GET', '/healthz'));
    }
    assert.match(answer, /^HTTP\/1\.1 200 /);
  });
});

describe('a refused connection answers in the shape of the face it asked (issue 26)', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ MAX_CONNECTIONS_PER_ADDRESS: '2' })));
  after(() => t.close());

  const withHost = (host: string) => `GET /.well-known/openid-configuration HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  async function refusedAnswer(raw: string): Promise<{ head: string; body: string }> {
    const refused = await open(t.port);
    refused.socket.write(raw);
    await refused.closed;
    const [head = '', body = ''] = refused.received().split('\r\n\r\n');
    return { head, body };
  }

  test('on an API\'s hosts (slug or custom domain): OAuth\'s {error, error_description}; on the console: problem+json; both 429 with Retry-After', async (context) => {
    const held = await Promise.all([open(t.port), open(t.port)]);
    context.after(() => held.forEach((connection) => connection.socket.destroy()));
    for (const host of [`acme.localhost:${t.port}`, 'signin.acme-example.com']) {
      const answer = await refusedAnswer(withHost(host));
      assert.match(answer.head, /^HTTP\/1\.1 429 /, host);
      assert.match(answer.head, /\r\ncontent-type: application\/json\r\n/i, host);
      assert.match(answer.head, /\r\nretry-after: 1\r\n/i, host);
      const body = JSON.parse(answer.body);
      assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description'], host);
      assert.equal(body.error, 'temporarily_unavailable');
    }
    const consoleAnswer = await refusedAnswer(withHost(`127.0.0.1:${t.port}`).replace('/.well-known/openid-configuration', '/api/auth/me'));
    assert.match(consoleAnswer.head, /^HTTP\/1\.1 429 /);
    assert.match(consoleAnswer.head, /\r\ncontent-type: application\/problem\+json\r\n/i);
    assert.equal(JSON.parse(consoleAnswer.body).status, 429);
    // A refused connection that never sends its request is cut all the same, with the console's answer.
    const silent = await open(t.port);
    await silent.closed;
    assert.match(silent.received(), /^HTTP\/1\.1 429 [^]*application\/problem\+json/);
  });
});

describe('behind a trusted proxy', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ MAX_CONNECTIONS_PER_ADDRESS: '3', TRUST_PROXY: 'true' })));
  after(() => t.close());

  test('every connection comes from the proxy, so no per-address cap applies', async (context) => {
    const held = await Promise.all([open(t.port), open(t.port), open(t.port)]);
    context.after(() => held.forEach((connection) => connection.socket.destroy()));
    assert.match(await exchange(t.port, request(t.port, 'GET', '/healthz')), /^HTTP\/1\.1 200 /);
  });
});

test('ConnectionsPerNetwork counts an IPv6 /64 as one address and an IPv4-mapped address as its IPv4', () => {
  const connections = new ConnectionsPerNetwork(2);
  const first = connections.open('2001:db8:1:2::a');
  assert.ok(first && connections.open('2001:db8:1:2:ffff::b'));
  assert.equal(connections.open('2001:db8:1:2::c'), null, 'a third address of the same /64');
  const other = connections.open('2001:db8:1:3::a');
  assert.ok(other, 'another /64');
  assert.ok(connections.open('192.0.2.1') && connections.open('::ffff:192.0.2.1'));
  assert.equal(connections.open('192.0.2.1'), null);
  connections.close(first);
  assert.ok(connections.open('2001:db8:1:2::c'), 'a place freed');
  assert.equal(connections.size, 3);
  connections.close(other);
  assert.equal(connections.size, 2, 'a network with no connection left is forgotten');
});
