// Issue 4's exactness goal through real separate processes: a steady run of several seconds from
// several customers through two metered servers (child processes) sharing Redis, with random
// statuses; afterwards every balance is its starting credit less billable requests times the
// price, to the micro unit, and month_requests is the number of requests served. Real Redis at
// REDIS_URL (skipped without it), real server and database.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, usageEntries, type ApiFixture } from '../../server/test/support/money.js';
import { addCredit, patchApi, seeded } from './support/gatehouse.js';
import { killAll, startMeteredProcess, type MeteredProcess } from './support/processes.js';

const url = process.env.REDIS_URL ?? '';
const skip = url ? false : 'REDIS_URL is not set';
let t: TestApp;
let api: ApiFixture;
before(async () => {
  if (skip) return;
  t = await startTestApp();
  api = await createApi(t, { name: 'Two Processes' });
  await patchApi(api, { rps: 0 }); // payg: 1,000 micro a request
});
after(async () => {
  killAll();
  await t?.close();
});

const PRICE = 1_000;
const BILLABLE = new Set([200, 201, 202, 204]); // the payg preset's billable_status_codes
const STATUSES = [200, 200, 201, 204, 404, 500, 429, 400];
const RUN_MS = 5_000;
const CLIENTS = 8;

test('a steady run through two processes sharing Redis, random statuses: balances and month_requests exact', { skip }, async (context) => {
  const customers: { customer: { id: string }; balance: number; keys: { key: string }[]; served: number; billable: number }[] = [];
  for (const name of ['Ada', 'Brook', 'Cyd', 'Dale', 'Eve']) {
    const customer = await createCustomer(t, api, name);
    const balance = await addCredit(api, customer.id, 100_000_000); // far more than the run spends
    const keys = [await createKey(api, customer.id, 'a'), await createKey(api, customer.id, 'b')];
    customers.push({ customer, balance, keys, served: 0, billable: 0 });
  }
  const clockOffsetMs = t.clock.now().getTime() - Date.now();
  // Reports every 300 ms: deliveries run while requests keep coming, in both processes.
  const config = { secret: api.secret, baseUrl: t.url, redisUrl: url, clockOffsetMs, options: { reportIntervalMs: 300 } };
  const processes: MeteredProcess[] = [await startMeteredProcess(config), await startMeteredProcess(config)];

  const random = seeded(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const end = Date.now() + RUN_MS;
  const client = async () => {
    while (Date.now() < end) {
      const who = pick(customers);
      const status = pick(STATUSES);
      const res = await fetch(`${pick(processes).url}/status/${status}`, { headers: { 'x-api-key': pick(who.keys).key } });
      const text = await res.text();
      // Every request is admitted (no rate, no quota, credit to spare): it gets the status it asked for.
      assert.equal(res.status, status, text);
      who.served += 1;
      if (BILLABLE.has(status)) who.billable += 1;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  // SIGTERM: each process closes its meter, which delivers what is left.
  for (const p of processes) assert.equal(await p.stop(), 0);

  const served = customers.reduce((sum, c) => sum + c.served, 0);
  assert.ok(served > 100, `a steady run, not a handful (${served} requests)`);
  context.diagnostic(`${served} requests of ${customers.length} customers through 2 processes`);
  for (const { customer, balance, served, billable } of customers) {
    const detail = await customerDetail(api, customer.id);
    assert.equal(detail.balance_micro, balance - billable * PRICE, `${detail.name}'s balance`);
    assert.equal(detail.month_requests, served, `${detail.name}'s month_requests`);
    const entries = await usageEntries(api, customer.id);
    assert.equal(entries.reduce((sum, e) => sum + e.requests, 0), served, `${detail.name}'s usage entries`);
  }
});
