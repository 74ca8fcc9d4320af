// End-user key introspection per second beside access token introspection, on the same issuer in
// the same run (issue 15): both asked by the same server's credentials at /oauth/introspect, each
// answer checked active. A key is one lookup by hash that also recomputes its scope; an access
// token is an RS256 signature check and one lookup of its grant.
//
// The issuer runs in a child process (key-introspection-server.ts, the built app on PostgreSQL, or
// PGlite when none answers); this process drives it over real HTTP with CONNECTIONS keep-alive
// connections, each sending its next request when the last one answered. A warm-up, then ROUNDS
// rounds of REQUESTS requests of each kind, the kinds taking turns to go first; medians.
//
// Run: npm run build && node scripts/run-bench.mjs key-introspection. BENCH_KEYS_REQUESTS,
// _WARMUP, _ROUNDS and _CONNECTIONS change the load.
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { basic, CODE_VERIFIER, REDIRECT_URI, type Credentials } from './issuer-support.js';
import type { KeyBenchChild, KeyBenchParent, KeyBenchReady } from './key-introspection-server.js';
import { fmt, percentile } from './support.js';

const CONNECTIONS = Number(process.env.BENCH_KEYS_CONNECTIONS ?? 10);
const REQUESTS = Number(process.env.BENCH_KEYS_REQUESTS ?? 2000);
const WARMUP = Number(process.env.BENCH_KEYS_WARMUP ?? 500);
const ROUNDS = Number(process.env.BENCH_KEYS_ROUNDS ?? 5);

type Kind = 'key' | 'token';
interface Run {
  opsPerS: number;
  p50: number;
  p99: number;
  cpuUs: number;
  databaseCpuUs: number | null;
  queries: number | null;
}

function next<T extends KeyBenchChild['type']>(child: ChildProcess, type: T): Promise<Extract<KeyBenchChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: KeyBenchChild) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<KeyBenchChild, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`the server exited (${code}) before '${type}'`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function post(pool: Pool, ready: KeyBenchReady, path: string, credentials: Credentials, form: Record<string, string>): Promise<any> {
  const response = await pool.request({
    method: 'POST',
    path,
    headers: { host: ready.host, authorization: basic(credentials), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const child = fork(fileURLToPath(new URL('./key-introspection-server.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] });
let pool: Pool | undefined;
try {
  const ready = await next(child, 'ready');
  pool = new Pool(`http://127.0.0.1:${ready.port}`, { connections: CONNECTIONS, pipelining: 1 });
  const tokens = await post(pool, ready, '/oauth/token', ready.app, { grant_type: 'authorization_code', code: ready.code, redirect_uri: REDIRECT_URI, code_verifier: CODE_VERIFIER });
  const presented: Record<Kind, string> = { key: ready.key, token: tokens.access_token };
  const expectedUse: Record<Kind, string> = { key: 'api_key', token: 'access_token' };

  const cpu = async () => {
    const answered = next(child, 'cpu');
    child.send({ type: 'cpu' } satisfies KeyBenchParent);
    return answered;
  };
  async function run(kind: Kind, count: number): Promise<Run> {
    const before = await cpu();
    const latencies = new Float64Array(count);
    let sent = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (sent < count) {
          const index = sent++;
          const t0 = performance.now();
          const body = await post(pool!, ready, '/oauth/introspect', ready.server, { token: presented[kind] });
          if (body.active !== true || body.token_use !== expectedUse[kind] || body.scope !== 'read:things') throw new Error(`${kind}: ${JSON.stringify(body)}`);
          latencies[index] = performance.now() - t0;
        }
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const after = await cpu();
    latencies.sort();
    return {
      opsPerS: count / elapsedS,
      p50: percentile(latencies as unknown as number[], 50),
      p99: percentile(latencies as unknown as number[], 99),
      cpuUs: (after.serverMicros - before.serverMicros) / count,
      databaseCpuUs: after.databaseMicros === null || before.databaseMicros === null ? null : (after.databaseMicros - before.databaseMicros) / count,
      queries: after.queries === null || before.queries === null ? null : (after.queries - before.queries) / count,
    };
  }

  console.log(`issuer on 127.0.0.1 (${ready.storage}), ${CONNECTIONS} connections, ${WARMUP} requests of warm-up, then ${ROUNDS} rounds of ${REQUESTS} requests per kind; medians`);
  console.log('  both by the same server credentials (client_secret_basic) at /oauth/introspect, rate limiter running with the spec 8 rules lifted');
  const kinds: Kind[] = ['key', 'token'];
  for (const kind of kinds) await run(kind, WARMUP);
  const runs: Record<Kind, Run[]> = { key: [], token: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) runs[kind].push(await run(kind, REQUESTS));
  }
  const of = (kind: Kind, field: keyof Run) => {
    const values = runs[kind].map((r) => r[field]);
    return values.some((value) => value === null) ? null : median(values as number[]);
  };
  for (const kind of kinds) console.log(`  ${kind}: ops/s per round: ${runs[kind].map((r) => fmt(r.opsPerS, 0)).join(' ')}`);
  console.log(`\n${'introspection of'.padEnd(22)} ${'ops/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'server CPU us/op'.padStart(17)} ${'PG CPU us/op'.padStart(13)} ${'queries/op'.padStart(11)}`);
  const labels: Record<Kind, string> = { key: 'an end-user key', token: 'an access token' };
  for (const kind of kinds) {
    const queries = of(kind, 'queries');
    const database = of(kind, 'databaseCpuUs');
    console.log(
      `${labels[kind].padEnd(22)} ${fmt(of(kind, 'opsPerS')!, 0).padStart(8)} ${fmt(of(kind, 'p50')!, 2).padStart(8)} ${fmt(of(kind, 'p99')!, 2).padStart(8)} ${fmt(of(kind, 'cpuUs')!, 0).padStart(17)}` +
        ` ${(database === null ? '-' : fmt(database, 0)).padStart(13)} ${(queries === null ? '-' : fmt(queries, 1)).padStart(11)}`,
    );
  }
  const ratio = (field: keyof Run) => {
    const key = of('key', field);
    const token = of('token', field);
    return key === null || token === null ? '-' : `${fmt(key / token, 2)}x`;
  };
  console.log(`${'key / token'.padEnd(22)} ${ratio('opsPerS').padStart(8)} ${ratio('p50').padStart(8)} ${ratio('p99').padStart(8)} ${ratio('cpuUs').padStart(17)} ${ratio('databaseCpuUs').padStart(13)}`);
  console.log('\nserver CPU: the issuer process only; PG CPU: its pool\'s PostgreSQL backends, read from /proc (PostgreSQL shares the machine)');
} finally {
  await pool?.close();
  if (child.connected) {
    const stopped = next(child, 'stopped').catch(() => undefined);
    child.send({ type: 'stop' } satisfies KeyBenchParent);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  if (child.exitCode === null) child.kill();
}
