// SDK sync at scale (issue 27 item 6): one API with BENCH_CUSTOMERS customers (default 1,000,000)
// and two keys each, generated straight into PostgreSQL; one `gatehouse serve` node; SDK
// processes that read the snapshot once and then follow changes. Every figure is printed beside
// its goal and beside today's full-snapshot figure measured (or derived from a measurement) in the
// same run. BENCH_CUSTOMERS=20000 for a quick run; BENCH_SDKS (10), BENCH_ROUNDS (20), BENCH_IDLE_S (60).
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildServices } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { systemClock } from '../packages/server/src/platform/clock.js';
import { openDatabase } from '../packages/server/src/platform/db/database.js';
import { migrate } from '../packages/server/src/platform/db/migrate.js';
import { callNode, freePort, freshPostgresDatabase, startNode, type Node } from '../packages/server/test/support/two-nodes.js';
import { benchDatabaseUrl, fmt, summarize } from './support.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const SDKS = Number(process.env.BENCH_SDKS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
/** Snapshot reads measured (after one warm-up); BENCH_SDK_PARALLEL=1 starts the SDKs together (at a million customers one at a time takes too long). */
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 3);
const PARALLEL = process.env.BENCH_SDK_PARALLEL === '1';
const SYNC_INTERVAL_S = 30; // today's SDK re-reads the snapshot every 30 s
const MB = 1024 * 1024;

/** Resident and peak resident memory of a process, and its CPU time so far (Linux /proc). */
function proc(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]); // utime + stime, in clock ticks (100 a second)
  return { rss: kb('VmRSS'), cpuMs: ticks * 10 };
}

if (process.argv[2] === 'whole') {
  // The child of today's figure: the snapshot built whole in memory (as served before issue 27),
  // alone in a fresh process on the bench database, so its peak RSS is that snapshot's.
  const [url, apiId] = [process.argv[3]!, process.argv[4]!];
  const handle = await openDatabase({ url, poolSize: 4 });
  const services = buildServices({ config: loadConfig({ SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: '.bench-data', LOG_LEVEL: 'silent' }), database: handle, clock: systemClock, redis: null }, () => {}, () => {});
  const api = (await services.apis.findById(services.db, apiId))!;
  const rssBefore = process.memoryUsage().rss;
  const t = performance.now();
  const built = await services.snapshots.build(api, false);
  const ms = performance.now() - t;
  process.stdout.write(JSON.stringify({ ms, bytes: Buffer.byteLength(built.json), rssBefore, peak: process.resourceUsage().maxRSS * 1024 }) + '\n');
  await handle.close();
  process.exit(0);
}

const database = await freshPostgresDatabase(benchDatabaseUrl);
const secretKey = randomBytes(32).toString('base64');
const nodes: Node[] = [];
const sdks: ChildProcess[] = [];
try {
  const handle = await openDatabase({ url: database.url, poolSize: 4 });
  await migrate(handle.db);
  const services = buildServices({ config: loadConfig({ SECRET_KEY: secretKey, DATA_DIR: '.bench-data', LOG_LEVEL: 'silent' }), database: handle, clock: systemClock, redis: null }, () => {}, (error) => console.error(error));
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: 'Sync Scale Bench', preset: 'payg' });
  if (!created.ok) throw new Error(created.code);
  const apiId = created.value.api.id;
  const secret = created.value.secret;
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  // Dropping the database at the end ends this connection from the server's side.
  sql.on('error', () => undefined);
  const now = new Date();

  // ---- Generated straight into the database, set-based. A key's raw value is `<customer>:<n>`
  // (not a key of spec 4.4; the SDK only hashes it), so the bench can send it.
  let t0 = performance.now();
  await sql.query(`update apis set platform_plan = 'scale' where id = $1`, [apiId]);
  await sql.query(
    `insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro)
     select 'cus_b' || g, $1, 'Customer ' || g, 'c' || g || '@bench.test', 'active', $2, $2, 1000000000 from generate_series(1, $3) g`,
    [apiId, now, CUSTOMERS],
  );
  const customersS = (performance.now() - t0) / 1000;
  let t1 = performance.now();
  await sql.query(
    `insert into usage_policies (id, api_id, customer_id, price_per_request_micro, rps, monthly_quota, billing_model, source, billable_status_codes, created_at)
     select gen_random_uuid(), $1, id, 1000, 0, null, 'payg', 'payg', '{200,201,202,204}', $2 from customers where api_id = $1`,
    [apiId, now],
  );
  await sql.query(`update customers c set usage_policy_id = u.id from usage_policies u where u.customer_id = c.id and c.api_id = $1`, [apiId]);
  const policiesS = (performance.now() - t1) / 1000;
  t1 = performance.now();
  await sql.query(
    `insert into customer_keys (id, api_id, customer_id, name, prefix, key_hash, created_at)
     select gen_random_uuid(), $1, c.id, 'key ' || k, 'bench_', encode(sha256((c.id || ':' || k)::bytea), 'hex'), $2
     from customers c cross join generate_series(1, 2) k where c.api_id = $1`,
    [apiId, now],
  );
  const keysS = (performance.now() - t1) / 1000;
  // The customers a credit is tried on start with nothing to spend.
  const creditTargets = Array.from({ length: ROUNDS }, (_, i) => `cus_b${2 + 2 * i}`);
  await sql.query(`update customers set balance_micro = 0 where api_id = $1 and id = any($2)`, [apiId, creditTargets]);
  t1 = performance.now();
  // What autovacuum does after a bulk load, done here because this machine's PostgreSQL runs with
  // autovacuum off: the change-sequence triggers wrote and deleted three million rows of the
  // unlogged sdk_change_waiting, and until a vacuum every commit that numbers a change scanned
  // their dead heap (about 160 ms per console credit at a million customers; 0.3 ms after).
  await sql.query('vacuum analyze');
  console.log(
    `generated ${CUSTOMERS} customers and ${2 * CUSTOMERS} keys in ${fmt((performance.now() - t0) / 1000)} s ` +
      `(customers ${fmt(customersS)} s, policies ${fmt(policiesS)} s, keys ${fmt(keysS)} s, vacuum and analyze ${fmt((performance.now() - t1) / 1000)} s; change-sequence triggers included)`,
  );

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const node = startNode('sync', port, { DATABASE_URL: database.url, SECRET_KEY: secretKey, BASE_URL: base, LOG_LEVEL: 'warn' });
  nodes.push(node);
  for (let tries = 0; (await callNode(port, `${base}/readyz`).catch(() => null))?.status !== 200; tries++) {
    if (tries > 600) throw new Error(`node not ready:\n${node.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const serverPid = node.process.pid!;

  // ---- The snapshot: time to first byte and to last, the server's peak RSS while serving it, and
  // the server CPU it costs (what every SDK costs the server every 30 s today).
  async function snapshot() {
    const before = proc(serverPid);
    let peak = before.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, proc(serverPid).rss)), 10);
    const t = performance.now();
    const result = await new Promise<{ ttfb: number; total: number; bytes: number; status: number }>((resolve, reject) => {
      const req = request(`${base}/sdk/v1/snapshot`, { headers: { authorization: `Bearer ${secret}` } }, (res) => {
        let ttfb = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (!ttfb) ttfb = performance.now() - t;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ ttfb, total: performance.now() - t, bytes, status: res.statusCode! }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    clearInterval(sampler);
    const after = proc(serverPid);
    if (result.status !== 200) throw new Error(`snapshot answered ${result.status}`);
    return { ...result, peak: Math.max(peak, after.rss), rssBefore: before.rss, cpuMs: after.cpuMs - before.cpuMs };
  }
  if (SNAPSHOTS > 1) await snapshot(); // warm-up
  const snaps = [];
  for (let i = 0; i < SNAPSHOTS; i++) snaps.push(await snapshot());
  const snap = { ttfb: summarize(snaps.map((s) => s.ttfb)).p50, total: summarize(snaps.map((s) => s.total)).p50, cpuMs: summarize(snaps.map((s) => s.cpuMs)).p50, peak: Math.max(...snaps.map((s) => s.peak)), rssBefore: snaps[0]!.rssBefore, bytes: snaps[0]!.bytes };
  console.log(`\nsnapshot of ${CUSTOMERS} customers / ${2 * CUSTOMERS} keys, ${fmt(snap.bytes / 1e6)} MB (p50 of ${SNAPSHOTS})`);
  console.log(`  time to first byte   ${fmt(snap.ttfb, 0)} ms`);
  console.log(`  time to last byte    ${fmt(snap.total, 0)} ms`);
  console.log(`  server peak RSS      ${fmt(snap.peak / MB, 0)} MB (${fmt(snap.rssBefore / MB, 0)} MB before)   goal < 300 MB`);
  console.log(`  server CPU           ${fmt(snap.cpuMs, 0)} ms per snapshot`);
  const wholeRun = spawnSync(process.execPath, ['--import', 'tsx', 'bench/sync-scale.bench.ts', 'whole', database.url, apiId], { encoding: 'utf8', maxBuffer: 1 << 20 });
  try {
    const whole = JSON.parse(wholeRun.stdout.trim().split('\n').pop()!) as { ms: number; bytes: number; rssBefore: number; peak: number };
    console.log(`  today (built whole in memory, then sent): first byte after the whole build ${fmt(whole.ms, 0)} ms, peak RSS ${fmt(whole.peak / MB, 0)} MB (${fmt(whole.rssBefore / MB, 0)} MB before)`);
  } catch {
    // Past about 512 MB of JSON the whole text cannot be one string (V8's limit): today's build fails.
    console.log(`  today (built whole in memory): failed, exit ${wholeRun.status}: ${wholeRun.stderr.trim().split('\n').filter((l) => /Error|Invalid/.test(l)).slice(0, 2).join(' | ').slice(0, 300)}`);
  }

  // ---- SDK processes: start-up (one after another, so each start is measured alone), then following.
  const idleBefore = proc(serverPid).cpuMs;
  const idleStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const serverIdleMsPerMin = ((proc(serverPid).cpuMs - idleBefore) / (performance.now() - idleStart)) * 60_000;

  interface Sdk { child: ChildProcess; lines: string[]; waiters: ((line: string) => boolean)[] }
  function startSdk(follow: boolean): Sdk {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/sync-scale-sdk.ts', JSON.stringify({ secret, baseUrl: base, follow })], { stdio: ['pipe', 'pipe', 'inherit'] });
    sdks.push(child);
    const sdk: Sdk = { child, lines: [], waiters: [] };
    createInterface({ input: child.stdout! }).on('line', (line) => {
      sdk.lines.push(line);
      sdk.waiters = sdk.waiters.filter((w) => !w(line));
    });
    return sdk;
  }
  const next = (sdk: Sdk, prefix: string) => new Promise<string>((resolve) => sdk.waiters.push((line) => line.startsWith(prefix) && (resolve(line), true)));
  const followers: Sdk[] = [];
  // As many SDK processes as the memory left allows (BENCH_SDK_MB each, 4 GB kept for the rest of
  // the machine), at most BENCH_SDKS: the machine is shared, and a process the kernel kills for
  // memory may be someone else's.
  const availableMb = Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024;
  const sdkCount = Math.max(1, Math.min(SDKS, Math.floor((availableMb - 4096) / Number(process.env.BENCH_SDK_MB ?? 1500))));
  if (sdkCount < SDKS) console.log(`\n${sdkCount} SDK processes instead of ${SDKS}: ${fmt(availableMb / 1024)} GB of memory available, ${process.env.BENCH_SDK_MB ?? 1500} MB an SDK, 4 GB kept`);
  const starts: { ms: number; rss: number }[] = [];
  if (PARALLEL) {
    const started = Array.from({ length: sdkCount }, () => startSdk(true));
    for (const line of await Promise.all(started.map((sdk) => next(sdk, 'ready ')))) {
      const [, ms, rss] = line.split(' ');
      starts.push({ ms: Number(ms), rss: Number(rss) });
    }
    followers.push(...started);
  } else {
    for (let i = 0; i < sdkCount; i++) {
      const sdk = startSdk(true);
      const [, ms, rss] = (await next(sdk, 'ready ')).split(' ');
      starts.push({ ms: Number(ms), rss: Number(rss) });
      followers.push(sdk);
    }
  }
  const start = summarize(starts.map((s) => s.ms));
  const rss = summarize(starts.map((s) => s.rss));
  console.log(`\n${sdkCount} SDK processes${PARALLEL ? ', started together' : ''} (each reads the snapshot once, today as with following); load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  console.log(`  start-up             p50 ${fmt(start.p50, 0)} ms, max ${fmt(Math.max(...starts.map((s) => s.ms)), 0)} ms`);
  console.log(`  SDK RSS after start  p50 ${fmt(rss.p50 / MB, 0)} MB`);

  // ---- Propagation: a credit (refused 402 → admitted) or a key revocation (admitted → 401),
  // made through the console's services, to every following SDK's admission decision.
  const samples: number[] = [];
  const serverPart: number[] = [];
  const sdkPart: number[] = [];
  const consolePart: number[] = [];
  const gcPauses: number[] = [];
  let missed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const credit = round % 2 === 0;
    const customerId = credit ? creditTargets[round]! : `cus_b${3 + 2 * round}`;
    const key = `${customerId}:1`;
    const turned = followers.map((sdk) => next(sdk, `turned ${key} `));
    for (const sdk of followers) sdk.child.stdin!.write(`watch ${key} ${credit ? 'admitted' : 'refused'}\n`);
    // Each SDK must first see the key as it is before the change (refused before a credit, admitted before a revocation).
    const probe = await Promise.race([Promise.all(turned), new Promise((r) => setTimeout(r, 200, 'none'))]);
    if (probe !== 'none') throw new Error(`round ${round}: the decision was already the changed one`);
    const at = Date.now();
    if (credit) {
      const done = await services.ledger.credit(caller, apiId, customerId, { amount_micro: 5_000_000, note: 'bench' });
      if (!done.ok) throw new Error(done.code);
    } else {
      const keyId = (await sql.query(`select id from customer_keys where api_id = $1 and customer_id = $2 and name = 'key 1'`, [apiId, customerId])).rows[0].id as string;
      await services.customers.revokeKey(caller, apiId, customerId, keyId);
    }
    const committed = Date.now();
    consolePart.push(committed - at);
    const results = await Promise.race([Promise.all(turned), new Promise<null>((r) => setTimeout(r, 35_000, null))]);
    if (!results) {
      missed++;
      continue;
    }
    for (const line of results) {
      const [, , turnedAt, answeredAt, pause] = line.split(' ').map(Number);
      samples.push(turnedAt! - at);
      serverPart.push(answeredAt! - committed);
      sdkPart.push(turnedAt! - answeredAt!);
      gcPauses.push(pause!);
    }
  }
  const propagation = summarize(samples);
  // Today: a change waits for the next 30-second re-read (uniformly 0..30 s), then that read.
  const todayP50 = (SYNC_INTERVAL_S / 2) * 1000 + snap.total;
  const todayP99 = SYNC_INTERVAL_S * 0.99 * 1000 + snap.total;
  console.log(`\nchange propagation, console → admission decision, ${sdkCount} SDKs following, ${ROUNDS} rounds (credits and revocations in turn)${missed ? `, ${missed} rounds missed` : ''}`);
  console.log(`  p50 ${fmt(propagation.p50, 0)} ms   p99 ${fmt(propagation.p99, 0)} ms   goal p99 <= 1000 ms`);
  const split = (name: string, values: number[]) => {
    const s = summarize(values);
    console.log(`    ${name.padEnd(44)} p50 ${fmt(s.p50, 0)} ms   p99 ${fmt(s.p99, 0)} ms   max ${fmt(Math.max(...values), 0)} ms`);
  };
  split('console call (the change and its commit)', consolePart);
  split('commit to the changes answer at the SDK', serverPart);
  split('answer to the SDK\'s decision (apply)', sdkPart);
  split('longest GC pause in the SDK, last 5 s', gcPauses);
  console.log(`    load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  console.log(`  today (snapshot every ${SYNC_INTERVAL_S} s, derived from this run's snapshot time): p50 ~${fmt(todayP50, 0)} ms, p99 ~${fmt(todayP99, 0)} ms`);

  // ---- Idle cost: server CPU with the SDKs following and nothing changing, beside the server
  // alone, per SDK and minute; today's is two snapshots a minute per SDK.
  const sdkCpu = async () => Promise.all(followers.map(async (sdk) => {
    const line = next(sdk, 'cpu ');
    sdk.child.stdin!.write('cpu\n');
    return Number((await line).split(' ')[1]);
  }));
  const sdkCpuBefore = await sdkCpu();
  const busyBefore = proc(serverPid).cpuMs;
  const busyStart = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
  const elapsed = performance.now() - busyStart;
  const serverFollowMsPerMin = ((proc(serverPid).cpuMs - busyBefore) / elapsed) * 60_000;
  const sdkCpuAfter = await sdkCpu();
  const perSdk = Math.max(0, serverFollowMsPerMin - serverIdleMsPerMin) / sdkCount;
  const sdkOwn = summarize(sdkCpuAfter.map((after, i) => ((after - sdkCpuBefore[i]!) / 1000 / elapsed) * 60_000));
  console.log(`\nidle following, ${IDLE_S} s`);
  console.log(`  server CPU per following SDK   ${fmt(perSdk, 1)} ms per minute (server ${fmt(serverFollowMsPerMin, 0)} ms/min with them, ${fmt(serverIdleMsPerMin, 0)} ms/min alone)`);
  console.log(`  today: ${fmt(snap.cpuMs * (60 / SYNC_INTERVAL_S), 0)} ms per SDK per minute (two snapshots)`);
  console.log(`  SDK process's own CPU idle     p50 ${fmt(sdkOwn.p50, 1)} ms per minute`);
  for (const sdk of followers) sdk.child.stdin!.write('quit\n');
  await sql.end();
  await handle.close();
} finally {
  for (const child of sdks) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.allSettled(nodes.map((node) => node.kill('SIGTERM')));
  await database.drop();
}
