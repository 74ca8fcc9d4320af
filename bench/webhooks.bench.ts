// Webhook deliveries per second to a local receiver (issue 24 item 7), on PostgreSQL: events raised
// through the outbox, then delivered by the delivery loop (claim with SKIP LOCKED, sign with the
// Standard Webhooks library, POST through the outbound guard, record the outcome). Baselines of
// the same run: the same signed POSTs sent by undici alone, one connection per request as the
// loop makes them, and over a keep-alive pool.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { raiseEvents } from '../packages/server/src/webhooks/outbox.js';
import { benchServices, fmt } from './support.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PARALLEL = 16;

const bench = await benchServices({ UNSAFE_OUTBOUND_PRIVATE: 'true' });
const { services } = bench;
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
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const }, ip: '127.0.0.1', userAgent: 'bench' };
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
} finally {
  receiver.close();
  await bench.close();
}
