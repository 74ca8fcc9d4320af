// Server memory of one large snapshot: the whole build in memory (as served before issue 27)
// against the stream (as served now), each in a fresh process on the same seeded PostgreSQL
// schema, so each process's peak RSS is that of its own snapshot. Also time to first and last byte.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buildServices } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { systemClock } from '../packages/server/src/platform/clock.js';
import { openDatabase } from '../packages/server/src/platform/db/database.js';
import { benchDatabaseUrl, benchServices, fmt } from './support.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const mode = process.argv[2];

if (mode === 'whole' || mode === 'stream') {
  // The child: one snapshot, then its figures as one JSON line.
  const [schema, apiId] = [process.argv[3]!, process.argv[4]!];
  const database = await openDatabase({ url: benchDatabaseUrl, schema, poolSize: 4 });
  const config = loadConfig({ SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: '.bench-data', LOG_LEVEL: 'silent' });
  const services = buildServices({ config, database, clock: systemClock, redis: null }, () => {}, (error) => console.error(error));
  const api = (await services.apis.findById(services.db, apiId))!;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  if (mode === 'whole') {
    const built = await services.snapshots.build(api, false);
    firstByteMs = performance.now() - t0;
    bytes = Buffer.byteLength(built.json);
  } else {
    const streamed = await services.snapshots.stream(api, false, undefined);
    if (streamed === 'busy') throw new Error('no stream slot: nothing else streams in this process');
    await pipeline(streamed.body!, new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (!bytes) firstByteMs = performance.now() - t0;
        bytes += chunk.length;
        done();
      },
    }));
  }
  const lastByteMs = performance.now() - t0;
  console.log(JSON.stringify({ mode, bytes, firstByteMs, lastByteMs, rssBeforeMb: rssBefore / 2 ** 20, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
  await database.close();
  process.exit(0);
}

const bench = await benchServices();
const { services, admin, schema } = bench;
const sqlIn = (text: string, values: unknown[] = []) => admin.query(`set search_path to ${schema}`).then(() => admin.query(text, values));
try {
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: 'rss@example.com', name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: 'RSS API', preset: 'payg' });
  if (!created.ok) throw new Error(created.code);
  const apiId = created.value.api.id;
  const t0 = performance.now();
  await sqlIn(`insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro)
    select 'cus_b' || g, $1, 'Customer ' || g, 'c' || g || '@bench.test', 'active', now(), now(), 1000000000 from generate_series(1, $2) g`, [apiId, CUSTOMERS]);
  await sqlIn(`insert into usage_policies (id, api_id, customer_id, price_per_request_micro, rps, monthly_quota, billing_model, source, billable_status_codes, created_at)
    select gen_random_uuid(), $1, id, 1000, 10, null, 'payg', 'payg', '{200}', now() from customers where api_id = $1`, [apiId]);
  await sqlIn(`update customers c set usage_policy_id = u.id from usage_policies u where u.customer_id = c.id and c.api_id = $1`, [apiId]);
  await sqlIn(`insert into customer_keys (id, api_id, customer_id, name, prefix, key_hash, created_at)
    select gen_random_uuid(), $1, c.id, 'key ' || k, 'bench_', encode(sha256((c.id || ':' || k)::bytea), 'hex'), now()
    from customers c cross join generate_series(1, 2) k where c.api_id = $1`, [apiId]);
  await sqlIn('analyze');
  console.log(`seeded ${CUSTOMERS} customers and ${2 * CUSTOMERS} keys straight into PostgreSQL in ${fmt((performance.now() - t0) / 1000)} s`);
  for (const run of ['whole', 'stream', 'whole', 'stream']) {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/snapshot-rss.bench.ts', run, schema, apiId], { encoding: 'utf8' });
    const line = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0) throw new Error(child.stderr);
    const r = JSON.parse(line) as { mode: string; bytes: number; firstByteMs: number; lastByteMs: number; rssBeforeMb: number; peakRssMb: number };
    console.log(`  ${r.mode.padEnd(6)} ${fmt(r.bytes / 1e6)} MB   first byte ${fmt(r.firstByteMs)} ms   last byte ${fmt(r.lastByteMs)} ms   RSS before ${fmt(r.rssBeforeMb)} MB, peak ${fmt(r.peakRssMb)} MB (goal for the stream: under 300 MB at 1M customers)`);
  }
} finally {
  await bench.close();
}
