// Hostile input of about a megabyte, without credentials, to every console operation of the
// OpenAPI document and every endpoint of a tenant host (issue 11: "a request of 1 MB of any shape
// to any route, without credentials, is answered within 100 ms on this machine"). Prints the
// worst latency per route, worst first, the worst route per shape, a baseline of GET /healthz
// measured throughout the same run, and the ratio; then whether /healthz waits while the worst
// requests are in flight. It prints figures and asserts nothing: timings belong here, not in tests.
//
// The app runs in this process (buildApp from src, through tsx) on PostgreSQL in a fresh schema,
// PGlite when none answers. Bodies are built before anything is timed; requests go one at a time
// over keep-alive connections, after one small request per route (first-use work is not the
// input's cost). BENCH_HOSTILE_REPEAT (3) sends each route and shape that many times;
// BENCH_HOSTILE_ONLY=<text> keeps routes whose name contains it.
//
// Run: node scripts/run-bench.mjs hostile
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { systemClock } from '../packages/server/src/platform/clock.js';
import { openDatabase } from '../packages/server/src/platform/db/database.js';
import { migrate } from '../packages/server/src/platform/db/migrate.js';
import { formShapes, jsonShapes, TARGET_BYTES, type Shape } from './hostile-payloads.js';
import { benchDatabaseUrl, fmt, percentile } from './support.js';

const REPEAT = Number(process.env.BENCH_HOSTILE_REPEAT ?? 3);
const ONLY = process.env.BENCH_HOSTILE_ONLY;
const GOAL_MS = 100;
/** A request still unanswered after this long is recorded at this value. */
const GIVE_UP_MS = 60_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function database() {
  const admin = new pg.Client({ connectionString: benchDatabaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return { handle: await openDatabase({ url: null }), kind: 'PGlite', drop: async () => {} };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  return {
    handle: await openDatabase({ url: benchDatabaseUrl, schema, poolSize: 5 }),
    kind: 'PostgreSQL',
    drop: async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

interface Target {
  route: string;
  method: string;
  path: string;
  host: string;
  shapes: Shape[];
}

interface Answer {
  status: number;
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

function send(port: number, method: string, path: string, host: string, shape: Shape | null, onSent?: () => void): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { host };
    if (shape) Object.assign(headers, { 'content-type': shape.contentType, 'content-length': String(shape.body.length) });
    const outgoing = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    outgoing.setTimeout(GIVE_UP_MS, () => outgoing.destroy());
    // A server may answer (401, 413) and close before the body is all sent: the answer still counts.
    outgoing.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    if (onSent) outgoing.on('finish', onSent);
    outgoing.end(shape?.body);
  });
}

// ---- The app, with one API so that its tenant host answers.
const db = await database();
await migrate(db.handle.db);
const port = await freePort();
const config = loadConfig({ PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: '.bench-data', LOG_LEVEL: 'silent' });
const { app, services } = await buildApp({ config, database: db.handle, clock: systemClock, redis: null, logger: false });
await app.listen({ port, host: '127.0.0.1' });
const owner = await services.db.transaction().execute(async (trx) => {
  const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
  return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
});
const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
const created = await services.apis.create(caller, owner.id, { name: 'Hostile Bench', preset: 'payg' });
if (!created.ok) throw new Error(created.code);
const consoleHost = `127.0.0.1:${port}`;
const tenantHost = `${created.value.api.slug}.localhost:${port}`;

// ---- Every console operation (from the document the app serves) and every tenant endpoint.
type Schema = { type?: string; properties?: Record<string, Schema>; anyOf?: Schema[] };
const doc = app.swagger() as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>> };
const typeOf = (schema: Schema | undefined) => schema?.type ?? schema?.anyOf?.find((s) => s.type !== 'null')?.type;
const targets: Target[] = [];
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, operation] of Object.entries(item)) {
    if (!['get', 'put', 'post', 'patch', 'delete'].includes(method)) continue;
    const properties = Object.entries(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {});
    const text = properties.find(([, s]) => typeOf(s) === 'string')?.[0] ?? properties[0]?.[0] ?? 'name';
    const list = properties.find(([, s]) => typeOf(s) === 'array')?.[0] ?? text;
    const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}_0123456789abcdefghij`);
    targets.push({ route: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path: concrete, host: consoleHost, shapes: jsonShapes({ text, list }) });
  }
}
const interaction = '0123456789abcdefghijABCDEFGHIJabcdefghij012';
const tenantRoutes: [string, string][] = [
  ['GET', '/.well-known/openid-configuration'], ['GET', '/.well-known/oauth-authorization-server'], ['GET', '/oauth/jwks'], ['GET', '/branding/logo'],
  ['GET', '/oauth/authorize'], ['GET', `/oauth/authorize/resume/${interaction}`], ['POST', '/oauth/par'], ['POST', '/oauth/token'], ['GET', '/oauth/userinfo'],
  ['POST', '/oauth/userinfo'], ['POST', '/oauth/revoke'], ['POST', '/oauth/introspect'], ['GET', '/oauth/logout'], ['POST', '/oauth/logout'], ['POST', '/oauth/register'],
  ['GET', `/interaction/${interaction}`], ...['password', 'code/send', 'code', 'signup/send', 'signup', 'choose', 'consent'].map((action): [string, string] => ['POST', `/interaction/${interaction}/${action}`]),
];
for (const [method, path] of tenantRoutes) {
  targets.push({ route: `${method} ${path.replace(interaction, '{token}')} (tenant)`, method, path, host: tenantHost, shapes: [...formShapes(), ...jsonShapes({ text: 'redirect_uris', list: 'redirect_uris' })] });
}
const selected = targets.filter((target) => !ONLY || target.route.includes(ONLY));

// ---- Baseline: GET /healthz, sampled before and between the hostile requests.
const healthz: number[] = [];
const sampleHealthz = async (times: number) => {
  for (let i = 0; i < times; i++) healthz.push((await send(port, 'GET', '/healthz', consoleHost, null)).ms);
};
// A megabyte to a path nobody serves: what moving the bytes costs, with no parsing.
const floorShape = jsonShapes({ text: 'name', list: 'name' })[0]!;
const floor: number[] = [];

// A shared machine's load moves every figure; it is printed so runs can be compared fairly.
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
console.log(`${selected.length} routes × ${selected[0]?.shapes.length ?? 0} shapes of ~${(TARGET_BYTES / 1e6).toFixed(1)} MB, ${REPEAT}× each, without credentials, on ${db.kind}; goal ${GOAL_MS} ms; load average ${load()}`);
// One small request per route first: what a route does once (a signing key made on the first JWKS
// read, compiled code) is not the cost of the input.
for (const target of selected) await send(port, target.method, target.path, target.host, null);
await sampleHealthz(50);

interface Result {
  route: string;
  worst: number;
  worstShape: string;
  worstStatus: number;
  byShape: Map<string, number>;
}
const results: Result[] = [];
const started = performance.now();
for (const target of selected) {
  const result: Result = { route: target.route, worst: 0, worstShape: '', worstStatus: 0, byShape: new Map() };
  for (let round = 0; round < REPEAT; round++) {
    for (const shape of target.shapes) {
      const answer = await send(port, target.method, target.path, target.host, shape);
      result.byShape.set(shape.name, Math.max(result.byShape.get(shape.name) ?? 0, answer.ms));
      if (answer.ms > result.worst) Object.assign(result, { worst: answer.ms, worstShape: shape.name, worstStatus: answer.status });
    }
  }
  results.push(result);
  await sampleHealthz(2);
  floor.push((await send(port, 'POST', '/no-such-path', consoleHost, floorShape)).ms);
}
const elapsedS = (performance.now() - started) / 1000;

// ---- Tables.
const sortedHealthz = [...healthz].sort((a, b) => a - b);
const baseline = percentile(sortedHealthz, 50);
const sortedFloor = [...floor].sort((a, b) => a - b);
results.sort((a, b) => b.worst - a.worst);
const width = Math.max(...results.map((r) => r.route.length));
console.log(`\nWorst latency per route (${fmt(elapsedS, 0)} s of requests, load average then ${load()}; ! = over ${GOAL_MS} ms):`);
console.log(`${'route'.padEnd(width)}  worst ms  ×baseline  status  worst shape`);
for (const r of results) {
  console.log(`${r.route.padEnd(width)}  ${fmt(r.worst).padStart(8)}  ${fmt(r.worst / baseline, 0).padStart(9)}  ${String(r.worstStatus).padStart(6)}  ${r.worstShape}${r.worst > GOAL_MS ? '  !' : ''}`);
}
console.log('\nWorst route per shape:');
const shapeNames = [...new Set(results.flatMap((r) => [...r.byShape.keys()]))];
for (const shape of shapeNames) {
  const worst = results.filter((r) => r.byShape.has(shape)).reduce((a, b) => ((a.byShape.get(shape) ?? 0) >= (b.byShape.get(shape) ?? 0) ? a : b));
  const all = results.map((r) => r.byShape.get(shape)).filter((ms): ms is number => ms !== undefined).sort((a, b) => a - b);
  console.log(`  ${shape.padEnd(18)} ${fmt(worst.byShape.get(shape)!).padStart(8)} ms  ${worst.route}   (median route ${fmt(percentile(all, 50))} ms)`);
}
const over = results.filter((r) => r.worst > GOAL_MS);
console.log(`\nBaseline GET /healthz: p50 ${fmt(baseline, 2)} ms, p99 ${fmt(percentile(sortedHealthz, 99), 2)} ms (${healthz.length} samples through the run)`);
console.log(`1 MB to an unserved path (404, no parsing): p50 ${fmt(percentile(sortedFloor, 50), 2)} ms, max ${fmt(sortedFloor.at(-1) ?? 0, 2)} ms`);
console.log(`Worst: ${fmt(results[0]?.worst ?? 0)} ms (${results[0]?.route}, ${results[0]?.worstShape}) = ${fmt((results[0]?.worst ?? 0) / baseline, 0)}× the /healthz p50; ${over.length} of ${results.length} routes over ${GOAL_MS} ms`);

// ---- Head-of-line: /healthz sent once each of the worst requests has been written, while it is being handled.
console.log('\n/healthz while one of the worst requests is in flight (3 tries each):');
for (const r of results.slice(0, 5)) {
  const target = selected.find((t) => t.route === r.route)!;
  const shape = target.shapes.find((s) => s.name === r.worstShape)!;
  const waits: number[] = [];
  let heavyWorst = 0;
  for (let i = 0; i < 3; i++) {
    let probe: Promise<number> = Promise.resolve(0);
    const heavy = send(port, target.method, target.path, target.host, shape, () => {
      const asked = performance.now();
      // Measured from when it was asked for: a blocked event loop delays the sending too.
      probe = new Promise((resolve) => setTimeout(() => void send(port, 'GET', '/healthz', consoleHost, null).then(() => resolve(performance.now() - asked)), 1));
    });
    heavyWorst = Math.max(heavyWorst, (await heavy).ms);
    waits.push(await probe);
  }
  console.log(`  ${r.route} (${r.worstShape}, ${fmt(heavyWorst)} ms): /healthz answered in ${waits.map((w) => fmt(w, 1)).join(', ')} ms`);
}

await app.close();
await db.handle.close();
await db.drop();
agent.destroy();
