// Events to owners across processes (issue 24 items 2 and 7), with real `gatehouse serve` nodes:
// a node SIGKILLed while it delivers an event delivers it after its restart (the same
// webhook-id, a valid signature; on PostgreSQL, and on PGlite with the node's data directory),
// and two nodes on one PostgreSQL database deliver every event once to each endpoint.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { TestClient } from '../support/client.js';
import { signUp } from '../support/flows.js';
import { testDatabaseKind, type TestApp } from '../support/harness.js';
import { TestMailbox } from '../support/mailbox.js';
import { createApi, createCustomer } from '../support/money.js';
import { callNode, freePort, freshPostgresDatabase, seenWithin, startNode, type Node } from '../support/two-nodes.js';
import { addEndpoint, listEvents, signedBy, startReceiver, type Receiver } from '../support/webhooks.js';

const postgres = testDatabaseKind === 'postgres' && !!process.env.TEST_DATABASE_URL;
let mail: TestMailbox;
let receiver: Receiver;
const nodes: Node[] = [];
const databases: { drop(): Promise<void> }[] = [];

before(async () => {
  mail = new TestMailbox();
  await mail.start();
  receiver = await startReceiver();
});
after(async () => {
  await Promise.allSettled(nodes.map((node) => node.kill('SIGTERM')));
  await Promise.allSettled(databases.map((database) => database.drop()));
  await receiver.close();
  await mail.close();
});

/** What the nodes of one test share: the balancer's name, a secret key, and the database. */
async function cluster(): Promise<{ env: Record<string, string>; base: string; ports: number[] }> {
  const ports = [await freePort(), await freePort()];
  const base = `http://localhost:${ports[0]}`;
  const env: Record<string, string> = {
    BASE_URL: base,
    SECRET_KEY: randomBytes(32).toString('base64'),
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
    UNSAFE_OUTBOUND_PRIVATE: 'true',
  };
  if (postgres) {
    const database = await freshPostgresDatabase(process.env.TEST_DATABASE_URL!);
    databases.push(database);
    env.DATABASE_URL = database.url;
  } else {
    // PGlite: the node's own data directory, kept across its restart.
    env.DATA_DIR = mkdtempSync(join(tmpdir(), 'gh-webhooks-node-'));
  }
  return { env, base, ports };
}

async function start(name: string, port: number, env: Record<string, string>, base: string): Promise<Node> {
  const node = startNode(name, port, env);
  nodes.push(node);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answer = await callNode(port, `${base}/readyz`).catch(() => null);
    if (answer?.status === 200) return node;
    if (node.process.exitCode !== null || Date.now() > deadline) throw new Error(`node ${name} did not become ready:\n${node.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The helpers' view of a node: they speak HTTP to `base`, which is node A's port. */
const appAt = (base: string, port: number) =>
  ({ url: base, port, mail, clock: { now: () => new Date() }, client: () => new TestClient(`${base}/api`), sdkClient: () => new TestClient(base) }) as unknown as TestApp;

test('a node SIGKILLed while it delivers an event delivers it after its restart: one webhook-id, a valid signature', async () => {
  const { env, base, ports } = await cluster();
  let node = await start('crash', ports[0]!, env, base);
  const t = appAt(base, ports[0]!);
  const owner = await signUp(t, { name: 'Crash Owner' });
  const api = await createApi(t, { name: 'Crash API' }, owner);
  receiver.received.length = 0;
  // The receiver takes the request and never answers: the node is mid-delivery when it dies.
  receiver.answer = () => 'hold';
  const endpoint = await addEndpoint(owner.client, api.apiId, `${receiver.url}/crash`, { event_types: ['customer.created'] });
  const customer = await createCustomer(t, api, 'Crash Co');
  const [first] = await receiver.waitFor(1, 30_000);
  await node.kill('SIGKILL');

  receiver.answer = () => ({ status: 200 });
  node = await start('crash-restarted', ports[0]!, env, base);
  // The claim of the dead node runs out (an attempt's 15 s and 5 s more); the restarted node
  // takes the delivery over.
  const [, again] = await receiver.waitFor(2, 60_000);
  assert.equal(first!.id, again!.id, 'the same webhook-id');
  assert.equal(first!.raw, again!.raw, 'the same body');
  assert.ok(signedBy(endpoint.secret, first!) && signedBy(endpoint.secret, again!));
  assert.equal(again!.body.data.object.id, customer.id);
  const [event] = await listEvents(api, '&type=customer.created', 1);
  assert.equal(event!.id, again!.id);
  await seenWithin(10_000, async () => (await owner.client.get(`/apis/${api.apiId}/webhooks/${endpoint.id}/deliveries`)).body.deliveries[0], (d) => d?.status === 'succeeded', 'the delivery recorded as succeeded');
  await node.kill('SIGTERM');
});

test('two nodes on one database deliver every event once to each endpoint', { skip: !postgres && 'PostgreSQL only: PGlite is one process' }, async () => {
  const { env, base, ports } = await cluster();
  const [nodeA, nodeB] = await Promise.all([start('a', ports[0]!, env, base), start('b', ports[1]!, env, base)]);
  const owner = await signUp(appAt(base, ports[0]!), { name: 'Two Nodes Owner' });
  const api = await createApi(appAt(base, ports[0]!), { name: 'Fan Out' }, owner);
  receiver.received.length = 0;
  receiver.answer = () => ({ status: 200 });
  await addEndpoint(owner.client, api.apiId, `${receiver.url}/one`);
  await addEndpoint(owner.client, api.apiId, `${receiver.url}/two`);
  // Changes through both nodes at once: each wakes both nodes' delivery loops.
  const atB = new TestClient(`${base}/api`);
  for (const [name, value] of owner.client.cookies) atB.cookies.set(name, value);
  const through = (client: TestClient, port: number, name: string) =>
    callNode(port, `${base}/api/apis/${api.apiId}/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'test', cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: JSON.stringify({ name, email: `${name.toLowerCase().replace(/\s/g, '')}@acme.test` }),
    });
  const made = await Promise.all(Array.from({ length: 20 }, (_, i) => through(i % 2 ? atB : owner.client, i % 2 ? nodeB.port : nodeA.port, `Fan ${i}`)));
  for (const answer of made) assert.equal(answer.status, 200, answer.text);
  // 20 customers: 40 events (created, welcome credit), to 2 endpoints.
  await receiver.waitFor(80, 60_000);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const events = await listEvents(api, '', 40);
  assert.equal(events.length, 40);
  for (const path of ['/hooks/one', '/hooks/two']) {
    const ids = receiver.received.filter((r) => r.path === path).map((r) => r.id);
    assert.equal(ids.length, 40, `${path}: ${ids.length} deliveries`);
    assert.deepEqual([...new Set(ids)].sort(), events.map((e) => e.id).sort(), `${path}: every event once`);
  }
  assert.equal(receiver.received.length, 80, 'nothing sent twice');
});
