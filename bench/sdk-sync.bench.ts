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

  // ---- Usage ingestion vs two baselines measured in the same run, report by report:
  // 1. a plain multi-row INSERT of the items into one unindexed table (the old baseline);
  // 2. the rows a report writes (receipts, ledger entries, balances, counters, key activity and
  //    the SDK change rows), written by the plainest statements (one per table, arrays through
  //    unnest) into copies of the same tables with the same indexes, in one transaction
  //    (issue 28, item 4): what the report's own rows cost, without triggers, locks or checks.
  const allKeys = (await sqlIn(`select k.id, c.usage_policy_id, c.id as customer_id from customer_keys k join customers c on c.id = k.customer_id where k.api_id = $1 order by k.id limit 60000`, [apiId])).rows as { id: string; usage_policy_id: string; customer_id: string }[];
  await sqlIn(`create table usage_baseline (like usage_receipts including defaults)`);
  const copies = ['usage_receipts', 'ledger_entries', 'customers', 'customer_usage_months', 'customer_usage_days', 'api_usage_days', 'customer_keys', 'sdk_changes'];
  for (const table of copies) await sqlIn(`create table rows_${table} (like ${table} including all)`);
  await sqlIn(`insert into rows_customers select * from customers where api_id = $1`, [apiId]);
  await sqlIn(`insert into rows_customer_keys select * from customer_keys where api_id = $1`, [apiId]);
  await sqlIn(`insert into rows_sdk_changes select * from sdk_changes where api_id = $1`, [apiId]);
  await sqlIn('analyze');
  let rowsSeq = 1e9;
  const hour = now.toISOString().slice(0, 13) + ':00:00Z';
  const day = hour.slice(0, 10);
  const month = day.slice(0, 8) + '01';
  const statuses = [200, 200, 200, 201, 404, 500];
  type Item = { idempotency_key: string; api_key_id: string; usage_policy_id: string; status_code: number; count: number; period_start: string; customer_id: string };
  /** The rows of one report by the plainest statements; answers the milliseconds of each table's statement. */
  async function writeRows(items: Item[]): Promise<Record<string, number>> {
    const perCustomer = new Map<string, { requests: number; charge: number }>();
    for (const item of items) {
      const c = perCustomer.get(item.customer_id) ?? { requests: 0, charge: 0 };
      c.requests += item.count;
      if (item.status_code < 300) c.charge += item.count * 1000;
      perCustomer.set(item.customer_id, c);
    }
    const ids = [...perCustomer.keys()].sort();
    const requests = ids.map((id) => perCustomer.get(id)!.requests);
    const charges = ids.map((id) => perCustomer.get(id)!.charge);
    const total = requests.reduce((a, b) => a + b, 0);
    const spent: Record<string, number> = {};
    const timed = async (table: string, text: string, values: unknown[]) => {
      const t = performance.now();
      await admin.query(text, values);
      spent[table] = (spent[table] ?? 0) + performance.now() - t;
    };
    await admin.query(`set search_path to ${schema}`);
    await admin.query('begin');
    await timed('receipts', `insert into rows_usage_receipts (api_id, idempotency_key, api_key_id, usage_policy_id, status_code, count, period_start, received_at)
      select $1, * , $8::timestamptz from unnest($2::text[], $3::uuid[], $4::uuid[], $5::int[], $6::bigint[], $7::timestamptz[])`,
      [apiId, items.map((i) => i.idempotency_key), items.map((i) => i.api_key_id), items.map((i) => i.usage_policy_id), items.map((i) => i.status_code), items.map((i) => i.count), items.map((i) => i.period_start), now]);
    await timed('ledger', `insert into rows_ledger_entries (id, api_id, customer_id, kind, amount_micro, requests, usage_day, note, actor, created_at, updated_at)
      select 'led_' || gen_random_uuid(), $1, r.c, 'usage', -r.a, r.n, $5::date, '', 'sdk', $6::timestamptz, $6::timestamptz from unnest($2::text[], $3::bigint[], $4::bigint[]) as r(c, a, n)
      on conflict (customer_id, usage_day) where kind = 'usage' do update set amount_micro = rows_ledger_entries.amount_micro + excluded.amount_micro, requests = rows_ledger_entries.requests + excluded.requests, updated_at = excluded.updated_at`,
      [apiId, ids, charges, requests, day, now]);
    await timed('balances', `update rows_customers c set balance_micro = c.balance_micro - v.a, balance_seq = c.balance_seq + 1, last_used_at = $3::timestamptz from unnest($1::text[], $2::bigint[]) as v(id, a) where c.id = v.id`,
      [ids, charges, now]);
    await timed('counters', `insert into rows_customer_usage_months (customer_id, api_id, month, requests, billable, charged_micro)
      select r.c, $1, $4::date, r.n, r.n, 0 from unnest($2::text[], $3::bigint[]) as r(c, n)
      on conflict (customer_id, month) do update set requests = rows_customer_usage_months.requests + excluded.requests, billable = rows_customer_usage_months.billable + excluded.billable`,
      [apiId, ids, requests, month]);
    await timed('counters', `insert into rows_customer_usage_days (customer_id, api_id, day, requests, billable, errors, charged_micro)
      select r.c, $1, $4::date, r.n, r.n, 0, 0 from unnest($2::text[], $3::bigint[]) as r(c, n)
      on conflict (customer_id, day) do update set requests = rows_customer_usage_days.requests + excluded.requests, billable = rows_customer_usage_days.billable + excluded.billable`,
      [apiId, ids, requests, day]);
    await timed('counters', `insert into rows_api_usage_days (api_id, day, requests, billable, errors, charged_micro, test_requests) values ($1, $2::date, $3, $3, 0, 0, 0)
      on conflict (api_id, day) do update set requests = rows_api_usage_days.requests + excluded.requests`, [apiId, day, total]);
    await timed('keys', `update rows_customer_keys set last_used_at = $2::timestamptz where id = any($1::uuid[])`, [[...new Set(items.map((i) => i.api_key_id))], now]);
    await timed('sdk_changes', `insert into rows_sdk_changes (api_id, kind, object_id, seq, removed, changed_at)
      select $1, 'balance', r.id, $3::bigint + r.n, false, now() from unnest($2::text[]) with ordinality as r(id, n)
      on conflict (api_id, kind, object_id) do update set seq = excluded.seq, changed_at = excluded.changed_at`, [apiId, ids, rowsSeq]);
    rowsSeq += ids.length;
    await timed('commit', 'commit', []);
    return spent;
  }
  async function run(label: string, keys: typeof allKeys, warmup: number) {
    const ingestMs: number[] = [];
    const insertMs: number[] = [];
    const rowsMs: number[] = [];
    const perTable: Record<string, number> = {};
    for (let r = 0; r < warmup + REPORTS; r++) {
      const items: Item[] = Array.from({ length: ITEMS }, (_, i) => {
        const key = keys[(r * ITEMS + i * 7919) % keys.length]!;
        return { idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: key.usage_policy_id, status_code: statuses[i % statuses.length]!, count: 1 + (i % 5), period_start: hour, customer_id: key.customer_id };
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
      const spent = await writeRows(items);
      const ownRowsMs = performance.now() - t0;
      t0 = performance.now();
      const results = await services.usage.ingest(apiId, items.map(({ customer_id: _, ...item }) => item));
      const tookMs = performance.now() - t0;
      if (results.some((x) => x.status !== 'accepted')) throw new Error('an item was not accepted');
      if (r >= warmup) {
        insertMs.push(baselineMs);
        rowsMs.push(ownRowsMs);
        ingestMs.push(tookMs);
        for (const [table, ms] of Object.entries(spent)) perTable[table] = (perTable[table] ?? 0) + ms;
      }
    }
    const ingest = summarize(ingestMs);
    const insert = summarize(insertMs);
    const own = summarize(rowsMs);
    const perS = (samples: number[]) => fmt((ITEMS * REPORTS) / (samples.reduce((a, b) => a + b, 0) / 1000), 0);
    console.log(`\nusage ingestion, ${label}: ${REPORTS} reports of ${ITEMS} items over ${keys.length} keys`);
    console.log(`  ingest():           ${perS(ingestMs)} items/s   p50 ${fmt(ingest.p50)} ms   p99 ${fmt(ingest.p99)} ms per report`);
    console.log(`  baseline own rows:  ${perS(rowsMs)} items/s   p50 ${fmt(own.p50)} ms   p99 ${fmt(own.p99)} ms per report`);
    console.log(`    mean per table:   ${Object.entries(perTable).map(([t, ms]) => `${t} ${fmt(ms / REPORTS)} ms`).join(', ')}`);
    console.log(`  baseline INSERT:    ${perS(insertMs)} items/s   p50 ${fmt(insert.p50)} ms   p99 ${fmt(insert.p99)} ms per report`);
    console.log(`  ratio ingest / own rows (p50):   ${fmt(ingest.p50 / own.p50, 2)}x   (goal <= 1.5x)`);
    console.log(`  ratio ingest / INSERT (p50):     ${fmt(ingest.p50 / insert.p50, 2)}x   (goal <= 3x where the design allows)`);
  }
  await run('cold keys', allKeys.slice(5000), 0);
  await run('steady state', allKeys.slice(0, 5000), 5);
} finally {
  await bench.close();
}
