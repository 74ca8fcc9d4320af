// Usage ingestion and snapshot generation for one API with 100,000 customers and 200,000 keys,
// on PostgreSQL, each beside a baseline of plain SQL measured in the same run.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { benchServices, fmt, summarize } from './support.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const KEYS_PER_CUSTOMER = 2;
const REPORTS = Number(process.env.BENCH_REPORTS ?? 40);
const ITEMS = 1000;

const bench = await benchServices();
const { services, admin, schema } = bench;
const sqlIn = (text: string, values: unknown[] = []) => admin.query(`set search_path to ${schema}`).then(() => admin.query(text, values));

try {
  const now = new Date();
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: 'Bench API', preset: 'payg' });
  if (!created.ok) throw new Error(created.code);
  const apiId = created.value.api.id;
  await sqlIn(`update apis set platform_plan = 'scale' where id = $1`, [apiId]);

  // Seed with set-based SQL: 100k customers, a policy each, 200k keys.
  let t0 = performance.now();
  await sqlIn(
    `insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro)
     select 'cus_b' || g, $1, 'Customer ' || g, 'c' || g || '@bench.test', 'active', $2, $2, 1000000000
     from generate_series(1, $3) g`,
    [apiId, now, CUSTOMERS],
  );
  await sqlIn(
    `insert into usage_policies (id, api_id, customer_id, price_per_request_micro, rps, monthly_quota, billing_model, source, billable_status_codes, created_at)
     select gen_random_uuid(), $1, id, 1000, 10, null, 'payg', 'payg', '{200,201,202,204}', $2 from customers where api_id = $1`,
    [apiId, now],
  );
  await sqlIn(`update customers c set usage_policy_id = u.id from usage_policies u where u.customer_id = c.id and c.api_id = $1`, [apiId]);
  await sqlIn(
    `insert into customer_keys (id, api_id, customer_id, name, prefix, key_hash, created_at)
     select gen_random_uuid(), $1, c.id, 'key ' || k, 'bench_', encode(sha256((c.id || ':' || k)::bytea), 'hex'), $2
     from customers c cross join generate_series(1, $3) k where c.api_id = $1`,
    [apiId, now, KEYS_PER_CUSTOMER],
  );
  await sqlIn('analyze');
  console.log(`seeded ${CUSTOMERS} customers and ${CUSTOMERS * KEYS_PER_CUSTOMER} keys in ${fmt((performance.now() - t0) / 1000)} s`);

  // ---- Snapshot generation vs a plain SELECT of the same rows.
  const api = (await services.apis.findById(services.db, apiId))!;
  const snapshotMs: number[] = [];
  const selectMs: number[] = [];
  let bytes = 0;
  let gzBytes = 0;
  for (let i = 0; i < 5; i++) {
    t0 = performance.now();
    await sqlIn(
      `select c.id, c.status, c.balance_micro, c.balance_seq, coalesce(m.requests, 0), u.id, u.rps, u.price_per_request_micro, u.monthly_quota, u.billing_model, u.source
       from customers c left join usage_policies u on u.id = c.usage_policy_id
       left join customer_usage_months m on m.customer_id = c.id and m.month = date_trunc('month', now())::date where c.api_id = $1`,
      [apiId],
    );
    await sqlIn(`select id, customer_id, key_hash from customer_keys where api_id = $1 and revoked_at is null`, [apiId]);
    selectMs.push(performance.now() - t0);
    t0 = performance.now();
    const built = await services.snapshots.build(api, false);
    snapshotMs.push(performance.now() - t0);
    bytes = Buffer.byteLength(built.json);
    if (i === 0) gzBytes = gzipSync(built.json).length;
  }
  const snap = summarize(snapshotMs);
  const base = summarize(selectMs);
  console.log(`\nsnapshot of ${CUSTOMERS} customers / ${CUSTOMERS * KEYS_PER_CUSTOMER} keys (5 runs)`);
  console.log(`  build():            p50 ${fmt(snap.p50)} ms   ${fmt(bytes / 1e6)} MB JSON, ${fmt(gzBytes / 1e6)} MB gzip`);
  console.log(`  baseline SELECTs:   p50 ${fmt(base.p50)} ms`);
  console.log(`  ratio build / baseline: ${fmt(snap.p50 / base.p50, 2)}x`);

  // ---- Usage ingestion vs a plain multi-row INSERT of the same rows. Two runs: cold (every key
  // seen for the first time) and steady (a working set of 5,000 keys, as live traffic repeats keys).
  const allKeys = (await sqlIn(`select k.id, c.usage_policy_id from customer_keys k join customers c on c.id = k.customer_id where k.api_id = $1 order by k.id limit 60000`, [apiId])).rows as { id: string; usage_policy_id: string }[];
  await sqlIn(`create table usage_baseline (like usage_receipts including defaults)`);
  const hour = now.toISOString().slice(0, 13) + ':00:00Z';
  const statuses = [200, 200, 200, 201, 404, 500];
  async function run(label: string, keys: typeof allKeys, warmup: number) {
    const ingestMs: number[] = [];
    const insertMs: number[] = [];
    for (let r = 0; r < warmup + REPORTS; r++) {
      const items = Array.from({ length: ITEMS }, (_, i) => {
        const key = keys[(r * ITEMS + i * 7919) % keys.length]!;
        return { idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: key.usage_policy_id, status_code: statuses[i % statuses.length]!, count: 1 + (i % 5), period_start: hour };
      });
      t0 = performance.now();
      const values: unknown[] = [];
      const rows = items.map((item, i) => {
        values.push(apiId, item.idempotency_key, item.api_key_id, item.usage_policy_id, item.status_code, item.count, item.period_start, now);
        const b = i * 8;
        return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}, $${b + 8})`;
      });
      await sqlIn(`insert into usage_baseline (api_id, idempotency_key, api_key_id, usage_policy_id, status_code, count, period_start, received_at) values ${rows.join(',')}`, values);
      const baselineMs = performance.now() - t0;
      t0 = performance.now();
      const results = await services.usage.ingest(apiId, items);
      const tookMs = performance.now() - t0;
      if (results.some((x) => x.status !== 'accepted')) throw new Error('an item was not accepted');
      if (r >= warmup) {
        insertMs.push(baselineMs);
        ingestMs.push(tookMs);
      }
    }
    const ingest = summarize(ingestMs);
    const insert = summarize(insertMs);
    const itemsPerS = (ITEMS * REPORTS) / (ingestMs.reduce((a, b) => a + b, 0) / 1000);
    const baselinePerS = (ITEMS * REPORTS) / (insertMs.reduce((a, b) => a + b, 0) / 1000);
    console.log(`\nusage ingestion, ${label}: ${REPORTS} reports of ${ITEMS} items over ${keys.length} keys`);
    console.log(`  ingest():           ${fmt(itemsPerS, 0)} items/s   p50 ${fmt(ingest.p50)} ms   p99 ${fmt(ingest.p99)} ms per report`);
    console.log(`  baseline INSERT:    ${fmt(baselinePerS, 0)} items/s   p50 ${fmt(insert.p50)} ms   p99 ${fmt(insert.p99)} ms per report`);
    console.log(`  ratio ingest / baseline (p50): ${fmt(ingest.p50 / insert.p50, 2)}x`);
  }
  await run('cold keys', allKeys.slice(5000), 0);
  await run('steady state', allKeys.slice(0, 5000), 5);
} finally {
  await bench.close();
}
