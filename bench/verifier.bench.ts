// The verifier's cached path (issue 15 item 8): checking an end-user key whose introspection answer
// is cached (a valid key, a needed permission, no meter), in ns per request, beside a bare SHA-256
// plus Map lookup measured in the same run. Goal: the check <= 2x that baseline.
//
// The issuer is a fetch answering introspection in-process: only the first check of each key asks
// it (untimed warm-up), and every timed check is answered from the cache (the run fails otherwise).
// Each figure is the median over rounds of the process's CPU time per operation, wall time beside
// it, as in sdk-admit.bench.ts.
import * as crypto from 'node:crypto';
import { formatApiKey, KEY_ALPHABET } from '@gatehouse/protocol';
import { createVerifier } from '@gatehouse/sdk';
import { buildSdk, fmt, median } from './sdk-support.js';

const KEYS = 2_000;
const SEGMENT = 500;
const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP_ROUNDS = 2;

buildSdk();
const random40 = () => [...crypto.randomBytes(40)].map((b) => KEY_ALPHABET[b % 62]).join('');
const keys = Array.from({ length: KEYS }, () => formatApiKey('wx', random40()));
const authorizations = keys.map((key) => `Bearer ${key}`);
const table = new Map(keys.map((key, i) => [crypto.createHash('sha256').update(key).digest('hex'), { sub: `per_${i}` }]));

let introspections = 0;
const issuer: typeof fetch = async (_input, init) => {
  introspections++;
  const key = new URLSearchParams(String(init?.body)).get('token')!;
  const i = keys.indexOf(key);
  const body = { active: true, token_use: 'api_key', key_id: `key_${i}`, sub: `per_${i}`, scope: 'read:weather write:weather', aud: 'https://api.bench.example/', iss: 'http://bench.localhost:8080', iat: 1 };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'max-age=30' } });
};
// A clock that stands still: every answer stays fresh for the whole run.
const verifier = createVerifier({ issuer: 'http://bench.localhost:8080', resource: 'https://api.bench.example/', clientId: 'rs_bench', clientSecret: 'bench', fetch: issuer, now: () => 1_700_000_000_000 });
for (const authorization of authorizations) {
  const result = await verifier.check({ authorization, clientAddress: '127.0.0.1', scopes: ['read:weather'] });
  if (!result.ok) throw new Error(`warm-up refused: ${JSON.stringify(result)}`);
}
if (introspections !== KEYS) throw new Error(`${introspections} introspections for ${KEYS} keys`);

interface Timing {
  cpuNs: number;
  wallNs: number;
}

async function timed(segment: (offset: number) => unknown): Promise<Timing> {
  let cpuUs = 0;
  let wallNs = 0n;
  for (let s = 0; s < SEGMENTS; s++) {
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    await segment(s * SEGMENT);
    wallNs += process.hrtime.bigint() - wall;
    const used = process.cpuUsage(cpu);
    cpuUs += used.user + used.system;
  }
  const ops = SEGMENTS * SEGMENT;
  return { cpuNs: (cpuUs * 1000) / ops, wallNs: Number(wallNs) / ops };
}

let found = 0;
function createHashSegment(offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    if (table.get(crypto.createHash('sha256').update(keys[i % KEYS]!).digest('hex')) !== undefined) found++;
  }
}
function oneShotSegment(offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    if (table.get(crypto.hash('sha256', keys[i % KEYS]!, 'hex')) !== undefined) found++;
  }
}
const scopes = ['read:weather'];
async function checkSegment(offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    const result = await verifier.check({ authorization: authorizations[i % KEYS], clientAddress: '127.0.0.1', scopes });
    if (!result.ok) throw new Error(`refused: ${result.status}`);
  }
}
function checkNowSegment(offset: number) {
  for (let i = offset; i < offset + SEGMENT; i++) {
    const result = verifier.checkNow({ authorization: authorizations[i % KEYS], clientAddress: '127.0.0.1', scopes });
    if (result instanceof Promise || !result.ok) throw new Error('checkNow did not answer from the cache');
  }
}

const names = ['createHash', 'oneShot', 'check', 'checkNow'] as const;
const results = Object.fromEntries(names.map((name) => [name, [] as Timing[]])) as Record<(typeof names)[number], Timing[]>;
for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
  // Interleaved, so drift in the machine's speed touches all alike.
  const a = await timed(createHashSegment);
  const b = await timed(oneShotSegment);
  const c = await timed(checkSegment);
  const d = await timed(checkNowSegment);
  if (round >= WARMUP_ROUNDS) {
    results.createHash.push(a);
    results.oneShot.push(b);
    results.check.push(c);
    results.checkNow.push(d);
  }
}
if (introspections !== KEYS) throw new Error(`the timed checks asked the issuer ${introspections - KEYS} times`);
if (found === 0) throw new Error('the baselines found no key');

const cpuOf = (values: Timing[]) => median(values.map((v) => v.cpuNs));
const wallOf = (values: Timing[]) => median(values.map((v) => v.wallNs));
console.log(`\nverifier, cached key: median of ${ROUNDS} rounds of ${SEGMENTS * SEGMENT} checks each, over ${KEYS} keys`);
console.log(`  ${''.padEnd(46)}   CPU ns/op  wall ns/op  vs createHash  vs crypto.hash`);
const row = (name: string, values: Timing[], compared: boolean) => {
  const ratios = compared ? `${fmt(cpuOf(values) / cpuOf(results.createHash), 2).padStart(12)}x ${fmt(cpuOf(values) / cpuOf(results.oneShot), 2).padStart(13)}x` : '';
  console.log(`  ${name.padEnd(46)} ${fmt(cpuOf(values), 0).padStart(11)} ${fmt(wallOf(values), 0).padStart(11)} ${ratios}`);
};
row('baseline: createHash + Map.get', results.createHash, false);
row('stricter: crypto.hash + Map.get', results.oneShot, false);
row('await verifier.check (Bearer, checksum, scope)', results.check, true);
row('verifier.checkNow (the adapters\' path)', results.checkNow, true);
console.log(`  goal: check <= 2x createHash + Map.get (CPU ratio ${fmt(cpuOf(results.check) / cpuOf(results.createHash), 2)}x; wall ${fmt(wallOf(results.check) / wallOf(results.createHash), 2)}x)`);
await verifier.close();
