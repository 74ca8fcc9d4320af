// A meter following GET /sdk/v1/changes (issue 27 item 5; docs/decisions.md, "SDK following
// changes"): a revoked key, a new key and a credit reach it without a second snapshot; a 410 makes
// it read the snapshot again; a killed process's successor resumes from the snapshot without
// losing or doubling usage. Clock-free: each test waits for the change to be applied to the
// meter's state (its own test timeout bounds the wait), never for a time.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { sdkChangeRetentionJob, TOMBSTONE_RETENTION_MS } from '../../server/src/jobs/retention.js';
import { signUp, type SignedUp } from '../../server/test/support/flows.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, sha256 } from '../../server/test/support/money.js';
import type { Meter } from '../src/index.js';
import { addCredit, journalDir, Meters, patchApi, serve, setLimits, wireTap } from './support/gatehouse.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const sdkEntry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

let t: TestApp;
let owner: SignedUp;
const meters = new Meters();
const children: ChildProcess[] = [];
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Follow Owner' });
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await meters.closeAll();
  await t.close();
});

/** Waits until `done()` holds, looking again after each turn of the event loop's timers (no clock bound). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function setUp(name: string) {
  const api = await createApi(t, { name }, owner);
  await patchApi(api, { rps: 0 });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  return { api, customer, key };
}

/** No snapshot refresh on a timer during a test: whatever arrives, arrives by following. */
const FOLLOW_ONLY = { syncIntervalMs: 3_600_000 };

async function refusal(meter: Meter, key: string): Promise<[number, string] | 'admitted'> {
  const d = await meter.admit({ key });
  if (d.ok) {
    d.finish(200);
    return 'admitted';
  }
  return [d.status, d.reason];
}

test('a following meter refuses a revoked key once the change arrives, and admits a new key, without another snapshot or a lookup', async () => {
  const { api, customer, key } = await setUp('Follow Revocation');
  const tap = wireTap();
  const meter = meters.make(t, api, { ...FOLLOW_ONLY, fetch: tap.fetch });
  await meter.ready;
  await serve(meter, key.key);
  await serve(meter, key.key); // the second from the cache of keys by raw value

  const revoked = await api.owner.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  await until(() => !meter.state.keys.has(sha256(key.key)));
  assert.deepEqual(await refusal(meter, key.key), [401, 'invalid_key']);

  const added = await createKey(api, customer.id, 'second');
  await until(() => meter.state.keys.has(sha256(added.key)));
  assert.equal(await refusal(meter, added.key), 'admitted');
  assert.equal(tap.count('/sdk/v1/snapshot'), 1, 'the snapshot was read once, at the start');
  assert.equal(tap.count('/sdk/v1/keys/verify'), 1, 'only the revoked key was looked up (and found unknown)');
  assert.ok(tap.count('/sdk/v1/changes') >= 2);
  assert.ok(meter.following.healthy && meter.following.applied >= 2);
});

test('a credit reaches a following meter: refused 402 before, admitted after, and an acknowledged charge is held until the state shows it', async () => {
  const { api, customer, key } = await setUp('Follow Credit');
  // Exactly two requests' worth of credit.
  const price = customer.balance_micro / 2;
  await setLimits(api, customer.id, { price_per_request_micro: price });
  const meter = meters.make(t, api, FOLLOW_ONLY);
  await meter.ready;
  await serve(meter, key.key);
  await serve(meter, key.key);
  assert.deepEqual(await refusal(meter, key.key), [402, 'insufficient_credit']);
  await meter.flush();
  // Acknowledged: the two charges are in Gatehouse's balance; the meter never counts them twice
  // nor forgets them, whichever rule releases the hold.
  assert.deepEqual(await refusal(meter, key.key), [402, 'insufficient_credit']);
  const view = () => meter.state.customers.get(customer.id)!;
  await until(() => view().balance === 0 && view().local!.ackedMicro === 0);
  assert.deepEqual(await refusal(meter, key.key), [402, 'insufficient_credit']);

  const balance = await addCredit(api, customer.id, price);
  assert.equal(balance, price);
  await until(() => view().balance === price);
  assert.equal(await refusal(meter, key.key), 'admitted');
  assert.deepEqual(await refusal(meter, key.key), [402, 'insufficient_credit'], 'exactly one more request');
  await meter.flush();
  assert.equal((await customerDetail(api, customer.id)).balance_micro, 0);
});

test('a customer suspended and reactivated: 403 once the change arrives, admitted again after', async () => {
  const { api, customer, key } = await setUp('Follow Suspension');
  const meter = meters.make(t, api, FOLLOW_ONLY);
  await meter.ready;
  await serve(meter, key.key);
  const status = (s: string) => api.owner.client.patch(`/apis/${api.apiId}/customers/${customer.id}`, { status: s });
  assert.equal((await status('suspended')).status, 200);
  await until(() => meter.state.customers.get(customer.id)?.status === 'suspended');
  assert.deepEqual(await refusal(meter, key.key), [403, 'suspended']);
  assert.equal((await status('active')).status, 200);
  await until(() => meter.state.customers.get(customer.id)?.status === 'active');
  assert.equal(await refusal(meter, key.key), 'admitted');
});

/**
 * A child process that follows changes: it serves `count` requests (every third 404), waits for
 * the credit the test makes to arrive by following (it says `followed`), then delivers; Gatehouse
 * commits the report but the answer never reaches the child (it says `delivered`), and it is killed.
 */
const CHILD = `
import { createMeter } from ${JSON.stringify(sdkEntry)};
import { createInterface } from 'node:readline';
const { secret, baseUrl, dir, key, customerId, count, clockOffsetMs } = JSON.parse(process.argv[2]);
const cutFetch = async (input, init) => {
  if (init?.method === 'POST' && new URL(String(input)).pathname === '/sdk/v1/usage') {
    await fetch(input, init);
    process.stdout.write('delivered\\n');
    return new Promise(() => {});
  }
  return fetch(input, init);
};
const meter = createMeter({
  secret, baseUrl, journalDir: dir, fetch: cutFetch, onError: () => {},
  now: () => Date.now() + clockOffsetMs, reportIntervalMs: 3_600_000, syncIntervalMs: 3_600_000,
});
await meter.ready;
for (let i = 0; i < count; i++) {
  const d = await meter.admit({ key });
  if (!d.ok) { console.error('denied', d.status, d.reason); process.exit(2); }
  d.finish(i % 3 === 2 ? 404 : 200);
}
const balance = () => meter.state.customers.get(customerId).balance;
const before = balance();
process.stdout.write('served ' + before + '\\n');
while (balance() === before) await new Promise((r) => setTimeout(r, 5));
process.stdout.write('followed\\n');
meter.flush().catch(() => {});
setInterval(() => {}, 60_000);
`;

test('a following process killed after Gatehouse committed its report: the next process resumes from the snapshot, and the resend is a duplicate', async () => {
  const { api, customer, key } = await setUp('Follow Crash');
  const script = join(mkdtempSync(join(tmpdir(), 'gh-sdk-follow-')), 'child.mjs');
  writeFileSync(script, CHILD);
  const dir = journalDir();
  const count = 30;
  const billed = 20;
  const clockOffsetMs = t.clock.now().getTime() - Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify({ secret: api.secret, baseUrl: t.url, dir, key: key.key, customerId: customer.id, count, clockOffsetMs })], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let ended = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => (ended = true));
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => lines.push(text));
  const said = async (line: string) => {
    await until(() => ended || lines.some((l) => l.startsWith(line)));
    return lines.some((l) => l.startsWith(line));
  };
  assert.ok(await said('served '), `the child served its requests: ${stderr}`);
  await addCredit(api, customer.id, 5_000);
  assert.ok(await said('followed'), `the credit reached the child by following: ${stderr}`);
  assert.ok(await said('delivered'), `the child delivered: ${stderr}`);
  child.kill('SIGKILL');
  await exited;
  const expected = customer.balance_micro + 5_000 - billed * 1_000;
  let detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, count, 'Gatehouse has the report');
  assert.equal(detail.balance_micro, expected);

  const tap = wireTap();
  const restarted = meters.make(t, api, { ...FOLLOW_ONLY, journalDir: dir, fetch: tap.fetch });
  await restarted.ready;
  await restarted.flush();
  assert.ok(tap.count('/sdk/v1/usage') >= 1, 'the unacknowledged report was sent again');
  assert.equal(restarted.metrics().queueDepth, 0);
  assert.equal(restarted.metrics().deadLetters, 0, 'a duplicate, not a rejection');
  detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, count);
  assert.equal(detail.balance_micro, expected);
  // It follows from the snapshot's cursor: a revocation now reaches it too.
  assert.ok(restarted.following.cursor !== null);
  const revoked = await api.owner.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  await until(() => !restarted.state.keys.has(sha256(key.key)));
  assert.deepEqual(await refusal(restarted, key.key), [401, 'invalid_key']);
  assert.equal(tap.count('/sdk/v1/snapshot'), 1);
});

// Last: it moves the clock a week on.
test('a cursor older than the tombstones kept: the changes answer 410, and the meter reads the snapshot again and follows from it', async () => {
  const { api, customer, key } = await setUp('Follow Expired Cursor');
  let holding = true;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  // The meter's polls are held (as for a process cut off from Gatehouse) while the tombstone of
  // a revocation made meanwhile is pruned; then they reach Gatehouse with the old cursor.
  const tap = wireTap(async (call) => {
    if (call.path === '/sdk/v1/changes' && holding) await released;
  });
  const meter = meters.make(t, api, { ...FOLLOW_ONLY, fetch: tap.fetch, staleAfterMs: 30 * 24 * 3_600_000, maxStaleMs: 30 * 24 * 3_600_000 });
  await meter.ready;
  const firstCursor = meter.following.cursor;
  assert.ok(firstCursor !== null);
  await serve(meter, key.key);
  const revoked = await api.owner.client.delete(`/apis/${api.apiId}/customers/${customer.id}/keys/${key.id}`);
  assert.ok(revoked.status < 300, revoked.text);
  t.clock.advance(TOMBSTONE_RETENTION_MS + 60_000);
  await sdkChangeRetentionJob(t.clock).run(t.database.db);
  assert.equal(tap.count('/sdk/v1/snapshot'), 1);
  holding = false;
  release();
  await until(() => tap.count('/sdk/v1/snapshot') >= 2 && meter.following.cursor !== firstCursor && !meter.state.keys.has(sha256(key.key)));
  assert.deepEqual(await refusal(meter, key.key), [401, 'invalid_key']);
  // And it follows again from the new snapshot's cursor.
  const added = await createKey(api, customer.id, 'after 410');
  await until(() => meter.state.keys.has(sha256(added.key)));
  assert.equal(await refusal(meter, added.key), 'admitted');
});
