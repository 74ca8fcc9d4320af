// Stopping with a deadline (issue 26 item 7; docs/operations.md, "Stopping"). A real `gatehouse
// serve` process (dist/main.js, as `npm test` builds it first) is stopped with SIGTERM while something cannot finish:
// a mail in flight to a relay that accepts the connection and never says a word, or a request that
// never finishes arriving. It must exit once its grace time (2 s here) is up, saying in its log
// what it abandoned. How fast is not asserted beyond a generous margin (30 s past the grace, well
// short of the 60 s request timeout and the 30 s greeting wait that ended such stops before).
// /readyz answers 503 from the first signal. And the SMTP transport's own timeouts, both sides.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { smtpTransport } from '../../src/platform/mail/transport.js';
import { testDatabaseKind } from '../support/harness.js';
import { TestMailbox } from '../support/mailbox.js';
import { callNode, freePort, freshPostgresDatabase } from '../support/two-nodes.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const GRACE_S = 2;
const MARGIN_MS = 30_000;

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** A TCP server that accepts connections and never writes a byte (a hung SMTP relay). */
async function silentServer(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const close = async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  cleanups.push(close);
  return { port, connections: () => sockets.length, close };
}

async function until(what: string, holds: () => boolean | Promise<boolean>, withinMs = 120_000) {
  const deadline = Date.now() + withinMs;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `gatehouse serve` on its own database; resolves once /readyz answers 200. */
async function serve(env: Record<string, string>) {
  const port = await freePort();
  const databaseUrl = testDatabaseKind === 'postgres' ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL!) : null;
  if (databaseUrl) cleanups.push(() => databaseUrl.drop());
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'gh-stop-')),
      SECRET_KEY: randomBytes(32).toString('base64'),
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_S: String(GRACE_S),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const base = `http://localhost:${port}`;
  await until('the server is ready', async () => {
    if (child.exitCode !== null) throw new Error(`the server exited at start:\n${output}`);
    return (await callNode(port, `${base}/readyz`).catch(() => null))?.status === 200;
  });
  return {
    port,
    base,
    output: () => output,
    signal: (name: NodeJS.Signals) => child.kill(name),
    /** The exit code, or a failure when the process is still running MARGIN_MS past its grace. */
    async exit(): Promise<number | null> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), GRACE_S * 1000 + MARGIN_MS)));
      const outcome = await Promise.race([exited, late]);
      clearTimeout(timer);
      assert.notEqual(outcome, 'late', `still running ${GRACE_S} s + ${MARGIN_MS / 1000} s after the signal:\n${output.slice(-3000)}`);
      return outcome as number | null;
    },
  };
}

test('a mail relay that never answers: SIGTERM exits after the grace time, naming the mail it abandoned', async () => {
  const relay = await silentServer();
  const node = await serve({ SMTP_URL: `smtp://127.0.0.1:${relay.port}` });
  // A console sign-up mails a code: the outbox connects to the relay and waits for its greeting.
  const signup = await callNode(node.port, `${node.base}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'stuck@example.com' }) });
  assert.equal(signup.status, 200, signup.text);
  await until('the outbox connected to the relay', () => relay.connections() > 0);
  node.signal('SIGTERM');
  const code = await node.exit();
  assert.equal(code, 1, node.output());
  assert.match(node.output(), /abandoning mail outbox \(sending mail mail_[A-Za-z0-9_-]+\)/, node.output().slice(-2000));
  assert.doesNotMatch(node.output(), /stuck@example\.com/, 'the log names the mail by id, not its address');
});

test('a request that never finishes arriving: SIGTERM exits after the grace time, naming the request', async () => {
  const node = await serve({});
  // Headers and half a body, then nothing: the request is in flight until its 60 s timeout.
  const socket = connect(node.port, '127.0.0.1');
  socket.on('error', () => {});
  cleanups.push(async () => void socket.destroy());
  socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: localhost:${node.port}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":"slow@`);
  // Answered after the stuck request's headers were read on the same event loop.
  assert.equal((await callNode(node.port, `${node.base}/healthz`)).status, 200);
  node.signal('SIGTERM');
  const code = await node.exit();
  assert.equal(code, 1, node.output());
  assert.match(node.output(), /abandoning HTTP requests \(POST \/api\/auth\/login\)/, node.output().slice(-2000));
  assert.match(node.output(), /not stopped: scheduled jobs, webhook deliveries, mail outbox, redis, database pool/);
});

test('with nothing open the process stops cleanly at once (exit 0); /readyz answers 503 from the first signal while the drain lasts, and a second signal ends it', async () => {
  const quick = await serve({});
  quick.signal('SIGTERM');
  assert.equal(await quick.exit(), 0, quick.output());
  assert.match(quick.output(), /stopped/);
  assert.doesNotMatch(quick.output(), /abandoning/);

  const draining = await serve({ SHUTDOWN_DRAIN_S: '600' });
  assert.equal((await callNode(draining.port, `${draining.base}/readyz`)).status, 200);
  draining.signal('SIGTERM');
  await until('the drain began', () => /draining for 600 s/.test(draining.output()));
  const ready = await callNode(draining.port, `${draining.base}/readyz`);
  assert.equal(ready.status, 503, ready.text);
  assert.equal(ready.body.reason, 'shutting down');
  assert.equal((await callNode(draining.port, `${draining.base}/healthz`)).status, 200, 'other requests are still served while draining');
  draining.signal('SIGTERM');
  assert.equal(await draining.exit(), 1);
  assert.match(draining.output(), /a second SIGTERM; abandoning nothing; not stopped: HTTP requests/);
});

test('SMTP timeouts: a relay that never greets fails the send within the greeting timeout; a real relay within it takes the mail', async () => {
  const relay = await silentServer();
  const timeouts = { greetingTimeout: 2000, connectionTimeout: 2000 };
  const silent = smtpTransport(`smtp://127.0.0.1:${relay.port}`, 'test@example.com', timeouts);
  await assert.rejects(silent.send({ to: 'a@example.com', subject: 'hello', text: 'hi', html: '<p>hi</p>' }), /greeting|timeout/i);
  silent.close();
  const mailbox = new TestMailbox();
  await mailbox.start();
  cleanups.push(() => mailbox.close());
  // The same timeouts, against a relay that greets at once.
  const real = smtpTransport(`smtp://127.0.0.1:${mailbox.port}`, 'test@example.com', timeouts);
  await real.send({ to: 'b@example.com', subject: 'hello', text: 'hi', html: '<p>hi</p>' });
  real.close();
  assert.equal((await mailbox.waitFor('b@example.com', /hello/)).subject, 'hello');
});
