// Two Gatehouse nodes side by side (issue 16 item 5): two `gatehouse serve` processes on one
// PostgreSQL database and one Redis, the same BASE_URL and SECRET_KEY, as behind a load balancer
// (docs/operations.md). They start and migrate at once; a change made through node A is seen at
// node B within a second; rate limits count once across both; a scheduled job's effect happens
// once; and usage reported through both, with one node SIGKILLed mid-run and the SDK retrying
// against the survivor, leaves every balance exact. PostgreSQL and Redis only: PGlite is one
// process's embedded database, so there is no second node to start.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { createMeter, type Meter } from '@gatehouse/sdk';
import { TestClient } from '../support/client.js';
import { signUp, uniqueEmail, type SignedUp } from '../support/flows.js';
import { testDatabaseKind, type TestApp } from '../support/harness.js';
import { codeIn, TestMailbox } from '../support/mailbox.js';
import { pkcePair } from '../support/issuer.js';
import { decodeEntities, TenantBrowser } from '../support/tenant-client.js';
import { createApi, createCustomer, createKey, type ApiFixture } from '../support/money.js';
import { callNode, freePort, freshPostgresDatabase, roundRobinFetch, seenWithin, startNode, type Node } from '../support/two-nodes.js';

const skip = testDatabaseKind !== 'postgres' || !process.env.TEST_DATABASE_URL || !process.env.REDIS_URL ? 'PostgreSQL and Redis only (TEST_DATABASE_URL, REDIS_URL)' : false;
const SEEN_WITHIN_MS = 1_000;
const PRICE = 1_000;
const BILLABLE = new Set([200, 201, 202, 204]); // the payg preset's billable status codes

let mail: TestMailbox;
let database: { url: string; drop(): Promise<void> };
let nodeA: Node;
let nodeB: Node;
let base: string;
let t: TestApp;
let owner: SignedUp;
let lowBalance: { email: string; dueAt: number };
const meters: Meter[] = [];

before(async () => {
  if (skip) return;
  mail = new TestMailbox();
  await mail.start();
  database = await freshPostgresDatabase(process.env.TEST_DATABASE_URL!);
  const [portA, portB] = [await freePort(), await freePort()];
  // The balancer's name: every node serves it. Helpers that speak to `base` reach node A.
  base = `http://localhost:${portA}`;
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL!,
    SECRET_KEY: randomBytes(32).toString('base64'),
    BASE_URL: base,
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
  };
  // Both at once on an empty database: both run the migrations at start.
  nodeA = startNode('a', portA, env);
  nodeB = startNode('b', portB, env);
  await Promise.all([waitReady(nodeA), waitReady(nodeB)]);
  t = {
    url: base,
    port: portA,
    mail,
    clock: { now: () => new Date() },
    client: () => new TestClient(base + '/api'),
    sdkClient: () => new TestClient(base),
  } as unknown as TestApp;
  owner = await signUp(t, { name: 'Two Nodes Owner' });
  // A customer below its low-balance line, made first so the job test waits the least.
  const api: ApiFixture = await createApi(t, { name: 'Low Balance' }, owner);
  const email = `low-${randomUUID().slice(0, 8)}@acme.test`;
  const customer = await createCustomer(t, api, 'Low Co', email);
  const set = await consoleVia(nodeA, 'PATCH', `/apis/${api.apiId}/customers/${customer.id}`, { low_balance_micro: customer.balance_micro + 1_000_000 });
  assert.equal(set.status, 200, set.text);
  lowBalance = { email, dueAt: Date.now() };
});

after(async () => {
  if (skip) return;
  await Promise.allSettled(meters.map((m) => m.close()));
  await Promise.allSettled([nodeA?.kill('SIGTERM'), nodeB?.kill('SIGTERM')]);
  await database?.drop();
  await mail?.close();
});

async function waitReady(node: Node): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const answer = await callNode(node.port, `${base}/readyz`).catch(() => null);
    if (answer?.status === 200) return;
    if (node.process.exitCode !== null || Date.now() > deadline) throw new Error(`node ${node.name} did not become ready:\n${node.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A console call through a given node, as the signed-in owner (their cookies). */
function consoleVia(node: Node, method: string, path: string, body?: unknown) {
  const client = owner.client;
  return callNode(node.port, `${base}/api${path}`, {
    method,
    headers: {
      'x-requested-with': 'test',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

function snapshotVia(node: Node, secret: string) {
  return callNode(node.port, `${base}/sdk/v1/snapshot`, { headers: { authorization: `Bearer ${secret}` } });
}

test('both nodes started together on an empty database, migrated it once, and are ready', { skip }, async () => {
  for (const node of [nodeA, nodeB]) {
    assert.equal(node.process.exitCode, null, `node ${node.name} runs`);
    assert.equal((await callNode(node.port, `${base}/readyz`)).status, 200);
  }
  const files = readdirSync(fileURLToPath(new URL('../../migrations/', import.meta.url))).filter((f) => f.endsWith('.sql'));
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select name from schema_migrations order by name');
    assert.deepEqual(rows.map((r) => r.name), files.sort());
  } finally {
    await client.end();
  }
});

test('a change through node A is seen at node B within 1 s: credit, SDK secret rotated, API suspended', { skip }, async () => {
  const api = await createApi(t, { name: 'Seen Everywhere' }, owner);
  const customer = await createCustomer(t, api, 'Credited Co');
  const balanceAt = async (node: Node, secret: string) => {
    const snap = await snapshotVia(node, secret);
    assert.equal(snap.status, 200, snap.text);
    return (snap.body.customers as any[]).find((c) => c.id === customer.id).credit_balance_micro as number;
  };
  const before = await balanceAt(nodeB, api.secret);

  // Customer credited through A.
  const credit = await consoleVia(nodeA, 'POST', `/apis/${api.apiId}/customers/${customer.id}/credit`, { amount_micro: 12_345, note: 'two nodes' });
  assert.equal(credit.status, 200, credit.text);
  await seenWithin(SEEN_WITHIN_MS, () => balanceAt(nodeB, api.secret), (b) => b === before + 12_345, 'credit at B');

  // SDK secret rotated through A without grace: B refuses the old one and takes the new one.
  const rotated = await consoleVia(nodeA, 'POST', `/apis/${api.apiId}/secret/rotate`, { grace_hours: 0 });
  assert.equal(rotated.status, 200, rotated.text);
  const secret = rotated.body.secret as string;
  await seenWithin(SEEN_WITHIN_MS, () => snapshotVia(nodeB, api.secret).then((a) => a.status), (s) => s === 401, 'old secret refused at B');
  await seenWithin(SEEN_WITHIN_MS, () => snapshotVia(nodeB, secret).then((a) => a.status), (s) => s === 200, 'new secret taken at B');

  // API suspended through A: B's snapshot says so.
  const suspended = await consoleVia(nodeA, 'POST', `/apis/${api.apiId}/suspend`, { reason: 'two nodes' });
  assert.equal(suspended.status, 200, suspended.text);
  await seenWithin(SEEN_WITHIN_MS, () => snapshotVia(nodeB, secret).then((a) => a.body?.tenant_status), (s) => s === 'suspended', 'suspension at B');
});

test("a server's credentials changed through node A are seen at node B within 1 s: secret rotated, server deleted", { skip }, async () => {
  const api = await createApi(t, { name: 'Introspected' }, owner);
  const base_ = `/apis/${api.apiId}/signin/servers`;
  const made = await consoleVia(nodeA, 'POST', base_, { name: 'Weather server', resource_url: 'https://api.weather.example/', permissions: [{ name: 'read:weather', description: 'Read' }] });
  assert.equal(made.status, 200, made.text);
  const issuer = `http://${api.slug}.localhost:${nodeA.port}`;
  const introspectAtB = (secret: string) =>
    callNode(nodeB.port, `${issuer}/oauth/introspect`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(made.body.client_id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
      },
      body: 'token=not-a-token',
    }).then((a) => a.status);
  assert.equal(await introspectAtB(made.body.client_secret), 200);
  // Rotated through A: B takes the new secret (a cache of verified secrets must not refuse it).
  const rotated = await consoleVia(nodeA, 'POST', `${base_}/${made.body.id}/secret/rotate`);
  assert.equal(rotated.status, 200, rotated.text);
  await seenWithin(SEEN_WITHIN_MS, () => introspectAtB(rotated.body.client_secret), (s) => s === 200, 'new server secret at B');
  // Deleted through A: B refuses its credentials, old and new.
  const deleted = await consoleVia(nodeA, 'DELETE', `${base_}/${made.body.id}`);
  assert.equal(deleted.status, 204, deleted.text);
  await seenWithin(SEEN_WITHIN_MS, () => introspectAtB(rotated.body.client_secret), (s) => s === 401, 'deleted server refused at B');
  await seenWithin(SEEN_WITHIN_MS, () => introspectAtB(made.body.client_secret), (s) => s === 401, 'deleted server (old secret) refused at B');
});

test("a person's access token at node B: the person suspended, then a grant revoked through node A, inactive within 1 s", { skip }, async () => {
  const api = await createApi(t, { name: 'Tokens Everywhere' }, owner);
  const issuer = `http://${api.slug}.localhost:${nodeA.port}`;
  const redirectUri = 'https://app.example/callback';
  const app = await consoleVia(nodeA, 'POST', `/apis/${api.apiId}/signin/apps`, { name: 'Web', kind: 'web', redirect_uris: [redirectUri], refresh_tokens: true });
  assert.equal(app.status, 200, app.text);
  const server = await consoleVia(nodeA, 'POST', `/apis/${api.apiId}/signin/servers`, { name: 'Weather', resource_url: 'https://api.weather.example/', permissions: [{ name: 'read:weather', description: 'Read' }] });
  assert.equal(server.status, 200, server.text);
  const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  /** A person signs up on the pages at node A, allows the app, and the app exchanges its code there. */
  async function tokensOfNewPerson(label: string) {
    const browser = new TenantBrowser(issuer);
    const pkce = pkcePair();
    const signin = await browser.authorize({ response_type: 'code', client_id: app.body.id, redirect_uri: redirectUri, scope: 'openid offline_access', resource: 'https://api.weather.example/', state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256' });
    const signupLink = /id="to-signup" href="([^"]+)"/.exec(signin.html)?.[1];
    assert.ok(signupLink, `the sign-in page: ${signin.status} ${signin.html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(-300)}`);
    const signup = await browser.get(decodeEntities(signupLink));
    const email = `${label}-${randomUUID().slice(0, 8)}@people.test`;
    const codePage = await browser.submit(signup, 'signup-send', { email });
    const consent = await browser.submit(codePage, 'signup-complete', { code: codeIn(await mail.waitFor(email, /sign-up code/)), name: 'Two Nodes Person', password: 'a long enough secret' });
    const back = await browser.submit(consent, 'consent-allow');
    assert.ok(back.leftTo, `the app got its code: ${back.status}`);
    const exchanged = await callNode(nodeA.port, `${issuer}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicOf(app.body.id, app.body.client_secret) },
      body: form({ grant_type: 'authorization_code', code: back.leftTo.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: pkce.verifier, resource: 'https://api.weather.example/' }),
    });
    assert.equal(exchanged.status, 200, exchanged.text);
    return exchanged.body as { access_token: string; refresh_token: string };
  }
  const introspectAtB = async (token: string) => {
    const answer = await callNode(nodeB.port, `${issuer}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: basicOf(server.body.client_id, server.body.client_secret) },
      body: form({ token }),
    });
    assert.equal(answer.status, 200, answer.text);
    return answer.body as { active: boolean; sub?: string };
  };

  // Suspended through A: B's answer for the token B has just seen active turns inactive.
  const first = await tokensOfNewPerson('suspended');
  const seen = await introspectAtB(first.access_token);
  assert.equal(seen.active, true);
  const suspended = await consoleVia(nodeA, 'PATCH', `/apis/${api.apiId}/signin/people/${seen.sub}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  await seenWithin(SEEN_WITHIN_MS, () => introspectAtB(first.access_token).then((a) => a.active), (active) => !active, 'suspension at B');

  // The grant revoked through A (the app revokes its refresh token): its access token at B too.
  const second = await tokensOfNewPerson('revoked');
  assert.equal((await introspectAtB(second.access_token)).active, true);
  const revoked = await callNode(nodeA.port, `${issuer}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicOf(app.body.id, app.body.client_secret) },
    body: form({ token: second.refresh_token }),
  });
  assert.equal(revoked.status, 200, revoked.text);
  await seenWithin(SEEN_WITHIN_MS, () => introspectAtB(second.access_token).then((a) => a.active), (active) => !active, 'revocation at B');
});

test('rate limits are global: failed sign-ins through A and B together count once', { skip }, async () => {
  // loginPerEmail allows 10 attempts per address in 15 minutes (accounts/limits.ts).
  const email = uniqueEmail('limited');
  const attempt = (node: Node) =>
    callNode(node.port, `${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'test' },
      body: JSON.stringify({ email, password: 'not the password at all' }),
    });
  for (let i = 0; i < 10; i++) {
    const answer = await attempt(i % 2 ? nodeB : nodeA);
    assert.notEqual(answer.status, 429, `attempt ${i + 1} of 10 is within the limit: ${answer.text}`);
  }
  // Each node saw only 5: with counts per node neither would refuse yet.
  assert.equal((await attempt(nodeA)).status, 429);
  assert.equal((await attempt(nodeB)).status, 429);
});

test('a scheduled job runs once with two nodes up: one low-balance mail, not one per node', { skip }, async () => {
  // Each node runs the job every 30 s (payments/low-balance.ts), so 32 s after the customer fell
  // below its line both have run it at least once since.
  const wait = lowBalance.dueAt + 32_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await mail.waitFor(lowBalance.email, /balance/i, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const mails = mail.received.filter((m) => m.to === lowBalance.email.toLowerCase() && /balance/i.test(m.subject));
  assert.equal(mails.length, 1, `low-balance mails: ${mails.map((m) => m.subject).join(' | ')}`);
});

test('usage through both nodes, one SIGKILLed mid-run, the SDK retrying: every balance is exact', { skip }, async () => {
  const api = await createApi(t, { name: 'Survivor' }, owner);
  const patched = await consoleVia(nodeA, 'PATCH', `/apis/${api.apiId}`, { rps: 0, price_per_request_micro: PRICE });
  assert.equal(patched.status, 200, patched.text);
  const payers = [];
  for (const name of ['Ada', 'Brook', 'Cyd']) {
    const customer = await createCustomer(t, api, name);
    const key = await createKey(api, customer.id);
    payers.push({ customer, key, served: 0, charged: 0 });
  }
  let alive = [nodeA.port, nodeB.port];
  const meter = createMeter({ secret: api.secret, baseUrl: base, fetch: roundRobinFetch(() => alive), journalDir: null, batchItems: 25, onError: () => {} });
  meters.push(meter);
  const statuses = [200, 200, 201, 404, 500];
  const flushes: Promise<void>[] = [];
  for (let i = 0; i < 600; i++) {
    if (i === 250) {
      // Mid-run, with reports in flight: A dies at once. The balancer still sends it calls for a
      // while (until its health check notices), which fail and are retried by the SDK.
      flushes.push(meter.flush().catch(() => undefined));
      await nodeA.kill('SIGKILL');
    }
    if (i === 400) alive = [nodeB.port];
    const payer = payers[i % payers.length]!;
    const decision = await meter.admit({ key: payer.key.key });
    assert.ok(decision.ok, decision.ok ? '' : `request ${i}: ${decision.status} ${decision.reason}`);
    const status = statuses[i % statuses.length]!;
    decision.finish(status);
    payer.served++;
    if (BILLABLE.has(status)) payer.charged += PRICE;
    if (i % 40 === 0) flushes.push(meter.flush().catch(() => undefined));
  }
  await Promise.all(flushes);
  // Whatever failed stays queued and is delivered by a later flush.
  for (let round = 0; meter.metrics().queueDepth > 0; round++) {
    assert.ok(round < 20, `usage still queued: ${meter.metrics().queueDepth}`);
    await meter.flush().catch(() => undefined);
  }
  for (const payer of payers) {
    const detail = await consoleVia(nodeB, 'GET', `/apis/${api.apiId}/customers/${payer.customer.id}`);
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.balance_micro, payer.customer.balance_micro - payer.charged, `${payer.customer.id}: nothing lost, nothing doubled`);
    assert.equal(detail.body.month_requests, payer.served);
    const ledger = await consoleVia(nodeB, 'GET', `/apis/${api.apiId}/ledger?customer_id=${payer.customer.id}&limit=100`);
    assert.equal(ledger.status, 200, ledger.text);
    const entries = ledger.body.entries as { kind: string; amount_micro: number; requests: number }[];
    assert.equal(entries.reduce((sum, e) => sum + e.amount_micro, 0), detail.body.balance_micro, 'the balance is the sum of the ledger entries');
    assert.equal(entries.filter((e) => e.kind === 'usage').reduce((sum, e) => sum + e.requests, 0), payer.served);
  }
});
