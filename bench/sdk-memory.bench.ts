// What the SDK's in-memory state costs per customer and per key (issue 27): a snapshot of
// BENCH_CUSTOMERS customers (default 100,000) with two keys each, in the full shape the server
// writes (token_key_id, sync_cursor), served over node:http from this process; each figure comes
// from a fresh child process that loads it, then collects garbage and reads its memory.
//   sdk    : createMeter, as an SDK starts (the snapshot read and applied as the SDK does it now)
//   whole  : the baseline in the same run: the body read whole as text, JSON.parse, then applied
//            (what the SDK did before this bench was written)
// Printed: heap after load (after a full GC) per customer, peak RSS, RSS after load, load time.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { buildSdk, fmt } from './sdk-support.js';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const MB = 1024 * 1024;
const mode = process.argv[2];

if (mode === 'sdk' || mode === 'whole') {
  const baseUrl = process.argv[3]!;
  const gc = (globalThis as { gc?: () => void }).gc!;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const t = performance.now();
  let hold: unknown;
  if (mode === 'sdk') {
    const { createMeter } = await import('@gatehouse/sdk');
    const meter = createMeter({ secret: 'mas_bench', baseUrl, journalDir: null, followChanges: false, syncIntervalMs: 3_600_000, onError: () => {} });
    await meter.ready;
    hold = meter;
  } else {
    const { MeterState } = await import('../packages/sdk/src/state.js');
    const text = await (await fetch(`${baseUrl}/sdk/v1/snapshot?shape=full`)).text();
    const state = new MeterState();
    state.apply(JSON.parse(text), Date.now(), Date.now());
    hold = state;
  }
  const ms = performance.now() - t;
  gc();
  gc();
  const m = process.memoryUsage();
  process.stdout.write(JSON.stringify({ ms, heap: m.heapUsed - heapBefore, rss: m.rss, rssBefore, peak: process.resourceUsage().maxRSS * 1024, held: hold !== undefined }) + '\n');
  process.exit(0);
}

buildSdk();
// The snapshot text, written as the server writes it (snapshot-stream.ts), in chunks.
const t0 = performance.now();
const now = Date.now();
const generatedAt = new Date(now).toISOString();
const periodEnd = new Date(now + 30 * 86_400_000).toISOString();
const validUntil = new Date(now + 365 * 86_400_000).toISOString();
const limit = 1_000_000_000;
const head = `{"generated_at":"${generatedAt}","tenant_id":"api_bench","tenant_name":"Bench","tenant_status":"active","billable_status_codes":[200,201,202,204],"platform_monthly_limit":${limit},"platform_monthly_used":0,"platform_monthly_remaining":${limit},"platform_period_end":"${periodEnd}","platform_hard_cap":false,"platform_monthly_allowance":{"limit":${limit},"used":0,"remaining":${limit},"period_start":"${generatedAt}","period_end":"${periodEnd}","hard_cap":false},"customers":[`;
// Built as buffers: at a million customers the text is past V8's longest string.
const chunks: Buffer[] = [Buffer.from(head)];
let part: string[] = [];
let first = true;
const flush = () => {
  if (part.length === 0) return;
  chunks.push(Buffer.from((first ? '' : ',') + part.join(',')));
  first = false;
  part = [];
};
for (let c = 1; c <= CUSTOMERS; c++) {
  part.push(JSON.stringify({ id: `cus_b${c}`, status: 'active', credit_balance_micro: 1_000_000_000 + c, balance_seq: 1, month_requests: c % 7, usage_policy_id: randomUUID(), policy_valid_until: validUntil, effective: { rps: 0, price_per_request_micro: 1000, monthly_quota: null, billing_model: 'payg', source: 'payg' }, token_key_id: randomUUID() }));
  if (part.length === 1000) flush();
}
flush();
chunks.push(Buffer.from('],"keys":['));
first = true;
for (let c = 1; c <= CUSTOMERS; c++) {
  for (let k = 1; k <= 2; k++) part.push(JSON.stringify({ id: randomUUID(), customer_id: `cus_b${c}`, key_hash: createHash('sha256').update(`cus_b${c}:${k}`).digest('hex') }));
  if (part.length >= 1000) flush();
}
flush();
chunks.push(Buffer.from('],"signin":null,"members":[],"sync_cursor":"12345"}'));
const snapshot = Buffer.concat(chunks);
chunks.length = 0;
console.log(`snapshot of ${CUSTOMERS} customers / ${2 * CUSTOMERS} keys: ${fmt(snapshot.length / 1e6)} MB, made in ${fmt((performance.now() - t0) / 1000)} s`);

const server = createServer((req, res) => {
  if (req.url?.startsWith('/sdk/v1/snapshot')) {
    res.writeHead(200, { 'content-type': 'application/json', etag: '"bench"' });
    // Written in 64 KiB pieces, as a stream arrives.
    let at = 0;
    const more = () => {
      while (at < snapshot.length) {
        const piece = snapshot.subarray(at, at + 65_536);
        at += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    more();
  } else {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function child(which: string) {
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/sdk-memory.bench.ts', which, baseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d));
    p.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`${which} exited ${code}`))));
  });
  return JSON.parse(out.trim().split('\n').pop()!) as { ms: number; heap: number; rss: number; rssBefore: number; peak: number };
}

const runs = (process.env.BENCH_MODES ?? 'whole,sdk').split(',');
const results: Record<string, Awaited<ReturnType<typeof child>>> = {};
for (const which of runs) {
  const r = await child(which).catch((error: Error) => (console.log(`  ${which}: ${error.message}`), null));
  if (!r) continue;
  results[which] = r;
  console.log(
    `  ${which.padEnd(6)} load ${fmt(r.ms, 0)} ms   heap after load ${fmt(r.heap / MB, 0)} MB (${fmt(r.heap / CUSTOMERS, 0)} bytes per customer with its 2 keys)   ` +
      `RSS after ${fmt(r.rss / MB, 0)} MB, peak ${fmt(r.peak / MB, 0)} MB (${fmt(r.rssBefore / MB, 0)} MB before)`,
  );
}
if (results.whole && results.sdk) {
  console.log(`  sdk / whole: heap ${fmt(results.sdk.heap / results.whole.heap, 2)}x, peak RSS ${fmt(results.sdk.peak / results.whole.peak, 2)}x, load time ${fmt(results.sdk.ms / results.whole.ms, 2)}x`);
}
console.log(`load average ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}`);
server.close();
