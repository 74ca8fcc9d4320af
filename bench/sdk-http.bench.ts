// Requests per second and latency of a hello-world server with the SDK in front, beside the same
// server without it, driven by autocannon in the same run: node:http (withMeter, verify) and Fastify
// (gatehousePlugin, verify). Goal (issue 28, item 5): the metered server and the one behind the
// verifier keep >= 95 % of the bare one's rps (issue 4 asked 90 %).
//
// Each server runs in a child process (bench/sdk-http-server.ts) on 127.0.0.1, autocannon in this
// one: bare, the SDK with its defaults (journal on disk), the SDK with journalDir: null, which
// shows what the journal costs, and the verifier of end-user keys (Bearer keys, answers cached). Where `taskset` is there, autocannon keeps the first CPU and every
// server the last one, with all its threads (the SDK's journal I/O included), so a server's
// requests per second are those of one core and the load generator never competes with it.
//
// Two kinds of noise are fought: identical processes differ by up to ±5 % in speed (where the
// heap and code land), so each variant runs in BENCH_HTTP_PROCESSES processes (5); and a shared
// machine's speed drifts, so all of them run side by side and are measured in turn, a few seconds
// each, over many rounds, each round comparing a variant's processes with the bare ones of the
// same moment; the medians of those per-round ratios are reported. Every request carries one of
// the 2,000 keys of the fake Gatehouse's snapshot, in turn, so no two requests in a row share a
// usage bucket (each group commit journals one record per request's bucket; they merge only
// across the delivery interval). BENCH_COMMIT_MS sets commitIntervalMs in the servers and
// BENCH_FSYNC_MS fsyncIntervalMs, to compare settings. The fake Gatehouse answers usage reports
// inside the server process: its own small share of CPU counts against the SDK. Latency is taken
// per response (autocannon's histogram keeps whole milliseconds only); the server's CPU time per
// request is read from its process, and unlike requests per second it does not depend on how fast
// the load generator is, so each variant's CPU per request over the bare server's of the same
// trio is printed beside the rps ratio. The verifier's answers are kept fresh between runs (see
// KEEP_FRESH): its timed runs measure the cached path, and the introspections they still made are
// printed.
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { ServerKind, ServerMessage, Variant } from './sdk-http-server.js';
import { buildSdk, fmt, median } from './sdk-support.js';
import { cpuShares, type CpuProfile, type Owner } from './cpu-profile-share.js';

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 1);
const WARMUP_SECONDS = Number(process.env.BENCH_HTTP_WARMUP_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 8);
const PROCESSES = Number(process.env.BENCH_HTTP_PROCESSES ?? 5);
const CONNECTIONS = 10;
/**
 * The verifier's answers live 30 s (spec 4.4) while each server is measured a second at a time
 * among many: left alone, most keys' answers have expired between two of its runs, and a run
 * pays a re-introspection of every key it sends (a workload of keys each used less than once per
 * 30 s). By default every key is checked, untimed, before each run of the verifier, so its runs
 * measure the cached path, as for keys used more often than every 30 s; the introspections left
 * in timed runs are printed, and BENCH_HTTP_KEEP_FRESH=0 measures the other workload.
 */
const KEEP_FRESH = process.env.BENCH_HTTP_KEEP_FRESH !== '0';
/**
 * Seconds of load per server under V8's profiler (0: not profiled). Requests per second of a
 * hello world measure the machine when other work shares it; the SDK's share of the server's own
 * CPU samples does not depend on how fast that CPU is today: at s % of a request's CPU, a server
 * bound by its CPU keeps 100 - s % of its rate. Profiled separately from the timed runs (the
 * profiler slows what it samples).
 */
const PROFILE_SECONDS = Number(process.env.BENCH_HTTP_PROFILE_SECONDS ?? 5);

interface Run {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** The server process's CPU time per request, in microseconds. */
  cpuUs: number;
  /** Introspections the verifier made during the timed run. */
  introspections: number;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Pins a process (all its threads) to one CPU, when taskset is there and there are two CPUs or more. */
function pin(pid: number, cpu: number): boolean {
  if (process.env.BENCH_HTTP_PIN === '0' || cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function nextMessage(child: ChildProcess, type: ServerMessage['type']): Promise<ServerMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ServerMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`the server exited (${code}) before '${type}'`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function load(port: number, headers: Record<string, string>[], seconds: number): Promise<Omit<Run, 'cpuUs' | 'introspections'>> {
  // One request per key, sent in turn on every connection.
  const requests = headers.map((h) => ({ method: 'GET' as const, path: '/', headers: h }));
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: seconds, requests }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTimeMs) => latencies.push(responseTimeMs));
  });
  if (result.errors || result.non2xx) throw new Error(`${result.errors} errors and ${result.non2xx} non-2xx answers`);
  const sorted = Float64Array.from(latencies).sort();
  return { rps: result.requests.total / result.duration, p50: percentile(sorted, 50), p99: percentile(sorted, 99), requests: result.requests.total };
}

async function cpuOf(child: ChildProcess): Promise<{ micros: number; introspections: number }> {
  const answer = nextMessage(child, 'cpu');
  child.send('cpu');
  const message = await answer;
  return message.type === 'cpu' ? message : { micros: Number.NaN, introspections: Number.NaN };
}

async function keepFresh(server: Server): Promise<void> {
  if (!KEEP_FRESH || server.variant !== 'verifier') return;
  const warmed = nextMessage(server.child, 'warmed');
  server.child.send('warm');
  await warmed;
}

interface Server {
  variant: Variant;
  child: ChildProcess;
  port: number;
  headers: Record<string, string>[];
}

async function startServer(kind: ServerKind, variant: Variant, serverCpu: number): Promise<Server> {
  const child = fork(fileURLToPath(new URL('./sdk-http-server.ts', import.meta.url)), [kind, variant], { execArgv: ['--import', 'tsx'] });
  const listening = await nextMessage(child, 'listening');
  if (listening.type !== 'listening') throw new Error('unexpected message');
  pin(child.pid!, serverCpu);
  await load(listening.port, listening.headers, WARMUP_SECONDS);
  return { variant, child, port: listening.port, headers: listening.headers };
}

async function measure(server: Server): Promise<Run> {
  await keepFresh(server);
  const before = await cpuOf(server.child);
  const loaded = await load(server.port, server.headers, SECONDS);
  const after = await cpuOf(server.child);
  return { ...loaded, cpuUs: (after.micros - before.micros) / loaded.requests, introspections: after.introspections - before.introspections };
}

async function profiled(server: Server): Promise<{ profile: CpuProfile; requests: number }> {
  await keepFresh(server);
  const started = nextMessage(server.child, 'profiled');
  server.child.send('profile-start');
  await started;
  const { requests } = await load(server.port, server.headers, PROFILE_SECONDS);
  const stopped = nextMessage(server.child, 'profiled');
  server.child.send('profile-stop');
  const message = await stopped;
  if (message.type !== 'profiled') throw new Error('unexpected message');
  return { profile: JSON.parse(message.profile) as CpuProfile, requests };
}

async function stopServer(server: Server): Promise<void> {
  const stopped = nextMessage(server.child, 'stopped');
  server.child.send('stop');
  const report = await stopped;
  if (server.child.exitCode === null) server.child.kill();
  if (report.type === 'stopped' && server.variant !== 'bare' && server.variant !== 'verifier') {
    // Every answered request was admitted and reported once; warm-up included.
    if (report.errors.length) throw new Error(`meter errors: ${report.errors.join('; ')}`);
    if (report.denied || report.reported !== report.admitted) throw new Error(`${report.admitted} admitted, ${report.denied} denied, ${report.reported} reported`);
  }
}

buildSdk();
const variants: [Variant, string][] = [
  ['bare', 'bare'],
  ['journal', 'SDK, journal (default)'],
  ['memory', 'SDK, journalDir: null'],
  ['verifier', 'SDK verifier (keys)'],
];
const serverCpu = cpus().length - 1;
const pinned = pin(process.pid, 0);
console.log(
  `hello world on 127.0.0.1, ${CONNECTIONS} connections, ${SECONDS} s per run after ${WARMUP_SECONDS} s of warm-up, ${PROCESSES} processes per variant, ` +
    `${ROUNDS} rounds; ${cpus().length} CPUs, ${pinned ? `autocannon on CPU 0 and the servers on CPU ${serverCpu}` : 'not pinned'}, load average ${loadavg().map((l) => fmt(l, 1)).join(' ')}`,
);
for (const [kind, label] of [['node', 'node:http, withMeter / verify'], ['fastify', 'Fastify, gatehousePlugin / verify']] as const) {
  const runs = Object.fromEntries(variants.map(([variant]) => [variant, [] as Run[]])) as Record<Variant, Run[]>;
  /** Per variant: its requests per second over the bare server's, for each trio measured back to back. */
  const ratios = Object.fromEntries(variants.map(([variant]) => [variant, [] as number[]])) as Record<Variant, number[]>;
  /** Per variant: its server CPU per request over the bare server's, for each trio. */
  const cpuRatios = Object.fromEntries(variants.map(([variant]) => [variant, [] as number[]])) as Record<Variant, number[]>;
  /** One trio per process number: a bare server and one of each SDK variant. */
  const trios: Server[][] = [];
  for (let p = 0; p < PROCESSES; p++) {
    const trio: Server[] = [];
    for (const [variant] of variants) trio.push(await startServer(kind, variant, serverCpu));
    trios.push(trio);
  }
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (let p = 0; p < PROCESSES; p++) {
        const trio = trios[(p + round) % PROCESSES]!;
        const rps: number[] = [];
        const cpu: number[] = [];
        // Back to back, in an order that turns each round: no variant always runs first or last.
        for (let i = 0; i < trio.length; i++) {
          const v = (i + round) % trio.length;
          const run = await measure(trio[v]!);
          runs[variants[v]![0]].push(run);
          rps[v] = run.rps;
          cpu[v] = run.cpuUs;
        }
        for (let v = 1; v < trio.length; v++) {
          ratios[variants[v]![0]].push((100 * rps[v]!) / rps[0]!);
          cpuRatios[variants[v]![0]].push((100 * cpu[v]!) / cpu[0]!);
        }
      }
    }
    if (PROFILE_SECONDS > 0) {
      // Each variant's first process, profiled under the same load once the rounds are done.
      console.log(`\n${label}: where each server's CPU went over ${PROFILE_SECONDS} s of load under V8's profiler (load average ${loadavg().map((l) => fmt(l, 1)).join(' ')})`);
      console.log(`  ${''.padEnd(24)}   SDK %  handler %  framework %  fake Gatehouse %  GC %  rest %   SDK us/req (of)`);
      for (const [v, [variant, name]] of variants.entries()) {
        const server = trios[0]![v]!;
        const { profile, requests } = await profiled(server);
        const shares = cpuShares(profile);
        const pct = (owner: Owner) => fmt((100 * shares.us[owner]) / shares.totalUs, 2);
        console.log(
          `  ${name.padEnd(24)} ${pct('sdk').padStart(7)} ${pct('handler').padStart(10)} ${pct('framework').padStart(12)} ${pct('fake').padStart(17)} ${pct('gc').padStart(5)} ${pct('rest').padStart(7)}` +
            `   ${fmt(shares.us.sdk / requests, 2)} (${fmt(shares.totalUs / requests, 1)})`,
        );
        if (variant !== 'bare') console.log(`    SDK, most self time: ${shares.sdkTop.slice(0, 6).map(([fn, us]) => `${fn} ${fmt((100 * us) / shares.totalUs, 2)} %`).join('; ')}`);
      }
      console.log('  SDK %: the share of the server\'s CPU samples in the SDK\'s code and what it called (GC left out: "GC %" is every owner\'s); goal: <= 5 %, what keeps >= 95 % of the bare rate on a CPU-bound server');
    }
  } finally {
    for (const server of trios.flat()) await stopServer(server);
  }
  const of = (variant: Variant, field: keyof Run) => median(runs[variant].map((r) => r[field]));
  console.log(`\n${label}`);
  console.log(`  ${''.padEnd(24)}    req/s  % of bare   p50 ms (added)     p99 ms (added)   server CPU us/req (added)`);
  for (const [variant, name] of variants) {
    const added = (field: keyof Run, digits: number) => {
      const difference = of(variant, field) - of('bare', field);
      return variant === 'bare' ? '' : `(${difference < 0 ? '' : '+'}${fmt(difference, digits)})`;
    };
    const share = variant === 'bare' ? '100.0 %' : `${fmt(median(ratios[variant]), 1)} %`;
    console.log(
      `  ${name.padEnd(24)} ${fmt(of(variant, 'rps'), 0).padStart(8)} ${share.padStart(10)}` +
        `   ${fmt(of(variant, 'p50'), 3)} ${added('p50', 3).padEnd(10)}   ${fmt(of(variant, 'p99'), 3)} ${added('p99', 3).padEnd(10)}` +
        `   ${fmt(of(variant, 'cpuUs'), 1).padStart(6)} ${added('cpuUs', 1)}`,
    );
  }
  for (const [variant, name] of variants.slice(1)) {
    const sorted = [...ratios[variant]].sort((a, b) => a - b);
    const quartile = (q: number) => fmt(sorted[Math.floor(q * (sorted.length - 1))]!, 0);
    console.log(`  ${name}: % of bare over ${sorted.length} trios: quartiles ${quartile(0.25)}, ${quartile(0.5)}, ${quartile(0.75)} (range ${quartile(0)}..${quartile(1)}); server CPU per request ${fmt(median(cpuRatios[variant]), 1)} % of bare's (median over trios)`);
  }
  const timed = runs.verifier.reduce((sum, r) => sum + r.requests, 0);
  const introspected = runs.verifier.reduce((sum, r) => sum + r.introspections, 0);
  console.log(`  verifier: ${introspected} introspections in ${timed} timed requests (${fmt((1000 * introspected) / timed, 2)} per 1,000); answers ${KEEP_FRESH ? 'kept fresh by an untimed check of every key before each run' : 'left to expire between runs (BENCH_HTTP_KEEP_FRESH=0)'}`);
  console.log('  % of bare: median over trios (a bare server and one of each SDK variant measured back to back) of req/s over the bare one\'s; goal: >= 95 % (issue 28)');
}
