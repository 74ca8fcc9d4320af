// The cost of following SDK changes on the hot path, 0019's row triggers against 0020's statement
// triggers, measured side by side in one run (two schemas, alternating transactions): a
// transaction moving 1,000 balances as a usage report does, the UPDATE and the COMMIT timed apart,
// and the same without any trigger as the floor (issue 27; docs/decisions.md, "Recording by statement").
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { benchDatabaseUrl, benchServices, fmt, summarize } from './support.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const MOVED = 1000;

type Variant = { label: string; bench: Awaited<ReturnType<typeof benchServices>>; client: pg.Client; apiId: string };

async function variant(label: string, setUp: (client: pg.Client) => Promise<void>): Promise<Variant> {
  const bench = await benchServices();
  const { services, schema } = bench;
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: `${label}@example.com`, name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: 'Bench API', preset: 'payg' });
  if (!created.ok) throw new Error(created.code);
  const client = new pg.Client({ connectionString: benchDatabaseUrl });
  await client.connect();
  await client.query(`set search_path to ${schema}`);
  await setUp(client);
  const apiId = created.value.api.id;
  await client.query(
    `insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro)
     select 'cus_b' || g, $1, 'Customer ' || g, 'c' || g || '@bench.test', 'active', now(), now(), 1000000000 from generate_series(1, $2) g`,
    [apiId, CUSTOMERS],
  );
  await client.query('analyze');
  return { label, bench, client, apiId };
}

const migration19 = readFileSync('packages/server/migrations/0019_sdk_changes.sql', 'utf8');
const variants = [
  await variant('statement-0020', async () => {}),
  await variant('row-0019', async (client) => {
    // Back to 0019's recording: 0020's objects out, 0019's functions and triggers in again.
    await client.query(`drop table sdk_change_pending, sdk_change_waiting cascade;
      drop trigger sdk_change_customers_insert on customers; drop trigger sdk_change_customers_update on customers; drop trigger sdk_change_customers_delete on customers;
      drop trigger sdk_change_keys_insert on customer_keys; drop trigger sdk_change_keys_delete on customer_keys; drop trigger sdk_change_key_update on customer_keys;
      drop trigger sdk_change_api_update on apis;
      drop function sdk_change_number(); drop function sdk_change_number_api(text); drop function sdk_change_mark();`);
    await client.query(migration19.slice(migration19.indexOf('create table sdk_change_commits')));
  }),
  await variant('no-trigger', async (client) => {
    await client.query(`drop trigger sdk_change_customers_insert on customers; drop trigger sdk_change_customers_update on customers; drop trigger sdk_change_customers_delete on customers;`);
  }),
];

try {
  const samples = new Map(variants.map((v) => [v.label, { update: [] as number[], commit: [] as number[] }]));
  for (let r = 0; r < ROUNDS + 3; r++) {
    const ids = Array.from({ length: MOVED }, (_, i) => `cus_b${1 + ((r * 7919 + i * 13) % CUSTOMERS)}`);
    for (const v of variants) {
      await v.client.query('begin');
      let t0 = performance.now();
      await v.client.query(`update customers set balance_micro = balance_micro - 7, balance_seq = balance_seq + 1, last_used_at = now() where api_id = $1 and id = any($2::text[])`, [v.apiId, ids]);
      const update = performance.now() - t0;
      t0 = performance.now();
      await v.client.query('commit');
      const commit = performance.now() - t0;
      if (r >= 3) {
        samples.get(v.label)!.update.push(update);
        samples.get(v.label)!.commit.push(commit);
      }
    }
  }
  console.log(`${MOVED} balances moved in one transaction, ${ROUNDS} rounds per variant, alternating, ${CUSTOMERS} customers`);
  for (const v of variants) {
    const s = samples.get(v.label)!;
    const total = s.update.map((u, i) => u + s.commit[i]!);
    console.log(`  ${v.label.padEnd(16)} update p50 ${fmt(summarize(s.update).p50)} ms   commit p50 ${fmt(summarize(s.commit).p50)} ms   total p50 ${fmt(summarize(total).p50)} ms`);
  }
} finally {
  for (const v of variants) {
    await v.client.end();
    await v.bench.close();
  }
}
