// A process killed between its journal and Gatehouse (issue 4: "a process killed between journal
// and delivery, restarted, delivers everything once"). The child is a real Node process running
// the SDK's source; SIGKILL gives it no chance to clean up.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../../server/test/support/flows.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail } from '../../server/test/support/money.js';
import { journalDir, Meters, patchApi, wireTap } from './support/gatehouse.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const sdkEntry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/**
 * The child: meters `count` requests (every third answered 404, the rest 200), then either
 * - `undelivered`: every usage POST fails; it flushes (which writes the journal first), says
 *   `journaled` and waits to be killed;
 * - `unacknowledged`: the usage POST reaches Gatehouse, which commits it, but the answer never
 *   reaches the meter; it says `delivered` and waits to be killed.
 */
const CHILD = `
import { createMeter } from ${JSON.stringify(sdkEntry)};
const { secret, baseUrl, dir, key, count, mode, clockOffsetMs } = JSON.parse(process.argv[2]);
const usagePath = '/sdk/v1/usage';
const cutFetch = async (input, init) => {
  if (init?.method === 'POST' && new URL(String(input)).pathname === usagePath) {
    if (mode === 'undelivered') throw new TypeError('delivery cut off by the test');
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
for (let i = 0; i < count; i++) {
  const d = await meter.admit({ key });
  if (!d.ok) { console.error('denied', d.status, d.reason); process.exit(2); }
  d.finish(i % 3 === 2 ? 404 : 200);
}
if (mode === 'undelivered') {
  await meter.flush().catch(() => {});
  process.stdout.write('journaled\\n');
} else {
  meter.flush().catch(() => {});
}
setInterval(() => {}, 60_000);
`;

let t: TestApp;
let owner: SignedUp;
let script: string;
const meters = new Meters();
const children: ChildProcess[] = [];
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Crash Owner' });
  script = join(mkdtempSync(join(tmpdir(), 'gh-sdk-child-')), 'metered-process.mjs');
  writeFileSync(script, CHILD);
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await meters.closeAll();
  await t.close();
});

/** Runs the child until it prints `line`, then kills it with SIGKILL. */
async function runAndKill(args: Record<string, unknown>, line: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(args)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const said = new Promise<boolean>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (text) => text === line && resolve(true));
    void exited.then(() => resolve(false));
  });
  assert.ok(await said, `the child said "${line}" before it ended: ${stderr}`);
  child.kill('SIGKILL');
  await exited;
  assert.equal(child.signalCode, 'SIGKILL');
}

async function setUp(name: string) {
  const api = await createApi(t, { name }, owner);
  await patchApi(api, { rps: 0 });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  return { api, customer, key };
}

const COUNT = 30;
const BILLED = 20; // every third of 30 answered 404

test('killed after journaling and before delivering: the next process delivers every request exactly once', async () => {
  const { api, customer, key } = await setUp('Crash Before Delivery');
  const dir = journalDir();
  const clockOffsetMs = t.clock.now().getTime() - Date.now();
  await runAndKill({ secret: api.secret, baseUrl: t.url, dir, key: key.key, count: COUNT, mode: 'undelivered', clockOffsetMs }, 'journaled');
  assert.equal((await customerDetail(api, customer.id)).month_requests, 0, 'nothing reached Gatehouse before the kill');

  const restarted = meters.make(t, api, { journalDir: dir });
  await restarted.ready;
  await restarted.flush();
  assert.equal(restarted.metrics().queueDepth, 0);
  let detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, COUNT);
  assert.equal(detail.balance_micro, customer.balance_micro - BILLED * 1_000);
  await restarted.close();

  // A second restart finds nothing left to send.
  const tap = wireTap();
  const again = meters.make(t, api, { journalDir: dir, fetch: tap.fetch });
  await again.ready;
  assert.equal(again.metrics().queueDepth, 0);
  await again.flush();
  assert.equal(tap.count('/sdk/v1/usage'), 0);
  detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, COUNT);
  assert.equal(detail.balance_micro, customer.balance_micro - BILLED * 1_000);
});

test('killed after Gatehouse committed a report but before the answer arrived: the resend is a duplicate, never a second charge', async () => {
  const { api, customer, key } = await setUp('Crash Before Acknowledgement');
  const dir = journalDir();
  const clockOffsetMs = t.clock.now().getTime() - Date.now();
  await runAndKill({ secret: api.secret, baseUrl: t.url, dir, key: key.key, count: COUNT, mode: 'unacknowledged', clockOffsetMs }, 'delivered');
  let detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, COUNT, 'Gatehouse has the report');
  assert.equal(detail.balance_micro, customer.balance_micro - BILLED * 1_000);

  const tap = wireTap();
  const restarted = meters.make(t, api, { journalDir: dir, fetch: tap.fetch });
  await restarted.ready;
  await restarted.flush();
  assert.ok(tap.count('/sdk/v1/usage') >= 1, 'the unacknowledged report was sent again');
  const metrics = restarted.metrics();
  assert.equal(metrics.queueDepth, 0);
  assert.equal(metrics.deadLetters, 0, 'the resend matched what Gatehouse had: duplicate, not rejected');
  detail = await customerDetail(api, customer.id);
  assert.equal(detail.month_requests, COUNT);
  assert.equal(detail.balance_micro, customer.balance_micro - BILLED * 1_000);
});

test('nothing goes on the wire before its journal line is on disk, even a request finished as the delivery starts', async () => {
  const { api, customer, key } = await setUp('Journal Before Wire');
  const dir = journalDir();
  const notOnDisk: number[] = [];
  const tap = wireTap((call) => {
    if (call.method !== 'POST') return;
    // What a crash at this instant would leave: the file, not the buffer.
    const onDisk = readFileSync(join(dir, 'usage-journal.jsonl'), 'utf8');
    for (const item of call.items) if (!onDisk.includes(item.idempotency_key)) notOnDisk.push(item.status_code);
  });
  const meter = meters.make(t, api, { journalDir: dir, fetch: tap.fetch });
  const first = await meter.admit({ key: key.key });
  assert.ok(first.ok);
  first.finish(200);
  await meter.flush();
  const second = await meter.admit({ key: key.key });
  assert.ok(second.ok);
  const delivering = meter.flush();
  second.finish(201); // as the delivery starts, before the group commit has written it
  await delivering;
  await meter.flush();
  assert.deepEqual(notOnDisk, []);
  assert.equal(meter.metrics().queueDepth, 0);
  assert.equal((await customerDetail(api, customer.id)).month_requests, 2);
});
