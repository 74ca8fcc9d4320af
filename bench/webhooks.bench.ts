// Webhook deliveries per second to a local receiver (issue 24 item 7), on PostgreSQL: events raised
// through the outbox, then delivered by the delivery loop (claim with SKIP LOCKED, sign with the
// Standard Webhooks library, POST through the outbound guard, record the outcome). Baselines of
// the same run: the same signed POSTs sent by undici alone, one connection per request as the
// loop makes them, and over a keep-alive pool.
//
// Then what events cost usage ingestion: reports of 1,000 items over 1,000 customers whose
// balances cross no line (the common case: the crossing checks ride in the report's statements),
// against the same reports where every customer's balance falls below its low-balance line (a
// customer.balance_low event each, written in the report's transaction). bench/sdk-sync.bench.ts
// measures ingestion before and after at 100,000 customers.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { randomUUID } from 'node:crypto';
import { raiseEvents } from '../packages/server/src/webhooks/outbox.js';
import { benchServices, fmt, summarize } from './support.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PARALLEL = 16;

const CUSTOMERS = 1_000;
const REPORTS = Number(process.env.BENCH_REPORTS ?? 10);

const bench = await benchServices({ UNSAFE_OUTBOUND_PRIVATE: 'true' });
const { services, admin, schema } = bench;
const sqlIn = (text: string, values: unknown[] = []) => admin.query(`set search_path to ${schema}`).then(() => admin.query(text, values));
let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204);
    res.end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

try {
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: 'Webhooks Bench', preset: 'payg' });
  if (!created.ok) throw new Error(created.code);
  const apiId = created.value.api.id;
  const endpoint = await services.webhooks.create(caller, apiId, { url });
  const object = (i: number) => ({ object: 'customer', id: `cus_bench${i}`, name: `Customer ${i}`, email: `c${i}@bench.test`, status: 'active', balance_micro: 1_000_000 - i, balance_seq: i, updated_seq: i });

  const loop: number[] = [];
  const fresh: number[] = [];
  const pooled: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The events, raised in transactions of 100 (not timed: raising is the changes' cost).
    const at = new Date();
    for (let i = 0; i < EVENTS; i += 100) {
      await services.db.transaction().execute((trx) =>
        raiseEvents(trx, apiId, at, Array.from({ length: Math.min(100, EVENTS - i) }, (_, j) => ({ type: 'customer.updated' as const, data: { object: object(i + j), previous: { name: 'before' } } }))),
      );
    }
    const before = received;
    let t0 = performance.now();
    let attempted = 0;
    while (attempted < EVENTS) attempted += (await services.webhookDelivery.deliverDue()).attempted;
    loop.push(EVENTS / ((performance.now() - t0) / 1000));
    if (received - before !== EVENTS) throw new Error(`the receiver got ${received - before} of ${EVENTS}`);

    // Baselines: the same bodies, signed the same way, POSTed by undici alone.
    const payload = JSON.stringify({ type: 'customer.updated', timestamp: at.toISOString(), data: { object: object(1), previous: { name: 'before' } } });
    const webhook = new Webhook(endpoint.secret);
    const post = async (dispatcher: Agent) => {
      const now = new Date();
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        body: payload,
        headers: { 'content-type': 'application/json', 'webhook-id': 'evt_bench', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': webhook.sign('evt_bench', now, payload) },
      });
      await response.body.dump();
    };
    const inParallel = async (send: () => Promise<void>) => {
      let next = 0;
      await Promise.all(Array.from({ length: PARALLEL }, async () => {
        while (next++ < EVENTS) await send();
      }));
    };
    t0 = performance.now();
    await inParallel(async () => {
      const agent = new Agent();
      await post(agent);
      void agent.close();
    });
    fresh.push(EVENTS / ((performance.now() - t0) / 1000));
    const pool = new Agent({ connections: PARALLEL });
    t0 = performance.now();
    await inParallel(() => post(pool));
    pooled.push(EVENTS / ((performance.now() - t0) / 1000));
    await pool.close();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [ours, baseline, keepAlive] = [median(loop), median(fresh), median(pooled)];
  console.log(`webhook deliveries: ${ROUNDS} rounds of ${EVENTS} events to one local receiver (medians)`);
  console.log(`  delivery loop (claim, sign, POST, record): ${fmt(ours, 0)} deliveries/s   rounds: ${loop.map((v) => fmt(v, 0)).join(', ')}`);
  console.log(`  baseline, undici, a connection per POST:   ${fmt(baseline, 0)} POSTs/s   rounds: ${fresh.map((v) => fmt(v, 0)).join(', ')}`);
  console.log(`  baseline, undici, keep-alive pool:         ${fmt(keepAlive, 0)} POSTs/s   rounds: ${pooled.map((v) => fmt(v, 0)).join(', ')}`);
  console.log(`  ratio loop / connection per POST: ${fmt(ours / baseline, 2)}x   loop / keep-alive: ${fmt(ours / keepAlive, 2)}x`);

  // ---- Ingestion with and without balance crossings (the endpoint above listens to every type).
  const now = new Date();
  await sqlIn(
    `insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro, balance_seq)
     select 'cus_w' || g, $1, 'Customer ' || g, 'w' || g || '@bench.test', 'active', $2, $2, 1000000000, 5 from generate_series(1, $3) g`,
    [apiId, now, CUSTOMERS],
  );
  await sqlIn(
    `insert into usage_policies (id, api_id, customer_id, price_per_request_micro, rps, monthly_quota, billing_model, source, billable_status_codes, created_at)
     select gen_random_uuid(), $1, id, 1000, 10, null, 'payg', 'payg', '{200,201,202,204}', $2 from customers where api_id = $1`,
    [apiId, now],
  );
  await sqlIn(`update customers c set usage_policy_id = u.id from usage_policies u where u.customer_id = c.id and c.api_id = $1`, [apiId]);
  await sqlIn(`insert into customer_keys (id, api_id, customer_id, name, prefix, key_hash, created_at) select gen_random_uuid(), $1, c.id, 'key', 'bench_', encode(sha256(c.id::bytea), 'hex'), $2 from customers c where c.api_id = $1`, [apiId, now]);
  await sqlIn('analyze');
  const keys = (await sqlIn(`select k.id, c.usage_policy_id from customer_keys k join customers c on c.id = k.customer_id where k.api_id = $1 order by k.id`, [apiId])).rows as { id: string; usage_policy_id: string }[];
  const hour = now.toISOString().slice(0, 13) + ':00:00Z';
  const eventsOf = async () => Number((await sqlIn(`select count(*) from webhook_events where api_id = $1 and type = 'customer.balance_low'`, [apiId])).rows[0].count);
  async function ingestRun(crossing: boolean) {
    const times: number[] = [];
    const eventsBefore = await eventsOf();
    for (let r = 0; r < REPORTS + 2; r++) {
      // Not timed: every balance set just above the line (1.00) or far above it.
      await sqlIn(`update customers set balance_micro = $2 where api_id = $1`, [apiId, crossing ? 1_000_500 : 1_000_000_000]);
      const items = keys.map((key) => ({ idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: key.usage_policy_id, status_code: 200, count: 1, period_start: hour }));
      const t0 = performance.now();
      const results = await services.usage.ingest(apiId, items);
      if (r >= 2) times.push(performance.now() - t0);
      if (results.some((x) => x.status !== 'accepted')) throw new Error('an item was not accepted');
    }
    return { p50: summarize(times).p50, events: (await eventsOf()) - eventsBefore };
  }
  const quiet = await ingestRun(false);
  const crossing = await ingestRun(true);
  const quiet2 = await ingestRun(false);
  const crossing2 = await ingestRun(true);
  const [q50, c50] = [Math.min(quiet.p50, quiet2.p50), Math.min(crossing.p50, crossing2.p50)];
  console.log(`\nusage ingestion with an endpoint listening: ${REPORTS} reports of ${CUSTOMERS} items over ${CUSTOMERS} customers, two runs each`);
  console.log(`  no balance crosses a line:            p50 ${fmt(quiet.p50)} / ${fmt(quiet2.p50)} ms per report, ${quiet.events + quiet2.events} events`);
  console.log(`  every customer falls below its line:  p50 ${fmt(crossing.p50)} / ${fmt(crossing2.p50)} ms per report, ${crossing.events + crossing2.events} customer.balance_low events`);
  console.log(`  ratio crossing / quiet (best p50 of each): ${fmt(c50 / q50, 2)}x`);
} finally {
  receiver.close();
  await bench.close();
}
