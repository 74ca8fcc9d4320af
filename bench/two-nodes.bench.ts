// Usage ingestion through one node and through two (`gatehouse serve` processes on one PostgreSQL
// database), a few seconds each: what a second node adds when PostgreSQL is shared. Reports of 200
// items from 8 concurrent senders, spread round-robin over the nodes, as a balancer would.
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildServices } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { systemClock } from '../packages/server/src/platform/clock.js';
import { openDatabase } from '../packages/server/src/platform/db/database.js';
import { migrate } from '../packages/server/src/platform/db/migrate.js';
import { callNode, freePort, freshPostgresDatabase, startNode, type Node } from '../packages/server/test/support/two-nodes.js';
import { benchDatabaseUrl, fmt, summarize } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SENDERS = 8;
const ITEMS = 200;
const CUSTOMERS = 2_000;

const database = await freshPostgresDatabase(benchDatabaseUrl);
const secretKey = randomBytes(32).toString('base64');
const nodes: Node[] = [];
try {
  // Setup in this process on the same database: an API, its customers and keys.
  const handle = await openDatabase({ url: database.url, poolSize: 2 });
  await migrate(handle.db);
  const services = buildServices({ config: loadConfig({ SECRET_KEY: secretKey, DATA_DIR: '.bench-data', LOG_LEVEL: 'silent' }), database: handle, clock: systemClock, redis: null }, () => {}, (error) => console.error(error));
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: 'Two Nodes Bench', preset: 'payg' });
  if (!created.ok) throw new Error(created.code);
  const apiId = created.value.api.id;
  const secret = created.value.secret;
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  const now = new Date();
  await sql.query(`update apis set platform_plan = 'scale' where id = $1`, [apiId]);
  await sql.query(
    `insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro)
     select 'cus_b' || g, $1, 'Customer ' || g, 'c' || g || '@bench.test', 'active', $2, $2, 1000000000 from generate_series(1, $3) g`,
    [apiId, now, CUSTOMERS],
  );
  await sql.query(
    `insert into usage_policies (id, api_id, customer_id, price_per_request_micro, rps, monthly_quota, billing_model, source, billable_status_codes, created_at)
     select gen_random_uuid(), $1, id, 1000, 10, null, 'payg', 'payg', '{200,201,202,204}', $2 from customers where api_id = $1`,
    [apiId, now],
  );
  await sql.query(`update customers c set usage_policy_id = u.id from usage_policies u where u.customer_id = c.id and c.api_id = $1`, [apiId]);
  await sql.query(
    `insert into customer_keys (id, api_id, customer_id, name, prefix, key_hash, created_at)
     select gen_random_uuid(), $1, c.id, 'key', 'bench_', encode(sha256(c.id::bytea), 'hex'), $2 from customers c where c.api_id = $1`,
    [apiId, now],
  );
  const keys = (await sql.query(`select k.id, c.usage_policy_id from customer_keys k join customers c on c.id = k.customer_id where k.api_id = $1`, [apiId])).rows as { id: string; usage_policy_id: string }[];
  await sql.query('analyze');
  await sql.end();
  await handle.close();

  const [portA, portB] = [await freePort(), await freePort()];
  const base = `http://localhost:${portA}`;
  const env = { DATABASE_URL: database.url, SECRET_KEY: secretKey, BASE_URL: base, LOG_LEVEL: 'warn', ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) };
  nodes.push(startNode('a', portA, env), startNode('b', portB, env));
  for (const node of nodes) {
    for (let tries = 0; (await callNode(node.port, `${base}/readyz`).catch(() => null))?.status !== 200; tries++) {
      if (tries > 300) throw new Error(`node ${node.name} not ready:\n${node.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const hour = now.toISOString().slice(0, 13) + ':00:00Z';
  let cursor = 0;
  function report(): string {
    const items = Array.from({ length: ITEMS }, () => {
      const key = keys[cursor++ % keys.length]!;
      return { idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: key.usage_policy_id, status_code: 200, count: 1, period_start: hour };
    });
    return JSON.stringify({ items });
  }

  async function run(label: string, ports: number[]) {
    const latencies: number[] = [];
    let sent = 0;
    let turn = 0;
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (performance.now() < until) {
          const body = report();
          const t0 = performance.now();
          const answer = await callNode(ports[turn++ % ports.length]!, `${base}/sdk/v1/usage`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body });
          if (answer.status !== 200) throw new Error(`usage answered ${answer.status}: ${answer.text.slice(0, 200)}`);
          latencies.push(performance.now() - t0);
          sent += ITEMS;
        }
      }),
    );
    const stats = summarize(latencies);
    const perS = sent / SECONDS;
    console.log(`  ${label}: ${fmt(perS, 0)} items/s   p50 ${fmt(stats.p50)} ms   p99 ${fmt(stats.p99)} ms per report of ${ITEMS}`);
    return perS;
  }

  console.log(`usage ingestion over HTTP, ${SENDERS} senders, ${SECONDS} s each, ${CUSTOMERS} customers on one PostgreSQL`);
  await run('warm-up (both nodes)', [portA, portB]);
  const one = await run('one node ', [portA]);
  const two = await run('two nodes', [portA, portB]);
  console.log(`  ratio two nodes / one: ${fmt(two / one, 2)}x`);
} finally {
  await Promise.allSettled(nodes.map((node) => node.kill('SIGTERM')));
  await database.drop();
}
