// One hello-world server for sdk-http.bench.ts, in a process of its own so the load generator
// does not share its event loop: node:http or Fastify, bare or with the SDK in front (the meter, or
// the verifier of end-user keys). It answers the parent (IPC) with its port and the headers each
// request carries (a key of its fake Gatehouse; for the verifier, a Bearer end-user key its
// in-process issuer knows), on 'cpu' with the CPU time it has used, and on 'stop' with what the
// meter admitted and reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { formatApiKey, KEY_ALPHABET } from '@gatehouse/protocol';
import { createMeter, createVerifier } from '@gatehouse/sdk';
import { gatehousePlugin, verify as verifyFastify } from '@gatehouse/sdk/fastify';
import { verify as verifyNode, withMeter } from '@gatehouse/sdk/node';
import { fakeGatehouse } from './sdk-support.js';

export type ServerKind = 'node' | 'fastify';
/**
 * Without the SDK; the meter with its journal on disk (the default); the meter with usage in
 * memory; the verifier of end-user keys (answers cached, as a resource server's steady state).
 */
export type Variant = 'bare' | 'journal' | 'memory' | 'verifier';
export type ServerMessage =
  | { type: 'listening'; port: number; headers: Record<string, string>[] }
  | { type: 'cpu'; micros: number; introspections: number }
  | { type: 'warmed'; introspections: number }
  | { type: 'profiled'; profile: string }
  | { type: 'stopped'; admitted: number; denied: number; reported: number; errors: string[] };

const [kind, variant] = process.argv.slice(2) as [ServerKind, Variant];
const gatehouse = fakeGatehouse({ customers: 1_000, keysPerCustomer: 2 });
const errors: string[] = [];
const journalDir = variant === 'journal' ? mkdtempSync(join(tmpdir(), 'gh-bench-http-')) : null;
const meter = variant === 'bare' || variant === 'verifier' ? null : createMeter({ secret: 'mas_bench', baseUrl: 'http://gatehouse.invalid', fetch: gatehouse.fetch, journalDir, ...(process.env.BENCH_COMMIT_MS ? { commitIntervalMs: Number(process.env.BENCH_COMMIT_MS) } : {}), ...(process.env.BENCH_FSYNC_MS ? { fsyncIntervalMs: Number(process.env.BENCH_FSYNC_MS) } : {}), onError: (e) => errors.push(e.message) });
await meter?.ready;

// The verifier's issuer answers introspection in-process, as verifier.bench.ts's does: each key is
// introspected once (during the warm-up) and then judged from the verifier's cache.
const endUserKeys = Array.from({ length: 2_000 }, () => formatApiKey('wx', [...randomBytes(40)].map((b) => KEY_ALPHABET[b % 62]).join('')));
const keyIndex = new Map(endUserKeys.map((key, i) => [key, i]));
const issuerFetch: typeof fetch = async (_input, init) => {
  const i = keyIndex.get(new URLSearchParams(String(init?.body)).get('token')!);
  const body = i === undefined ? { active: false } : { active: true, token_use: 'api_key', key_id: `key_${i}`, sub: `per_${i}`, scope: 'read:weather', aud: 'https://api.bench.example/', iss: 'http://bench.localhost:8080', iat: 1 };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'max-age=3600' } });
};
const verifier = variant === 'verifier' ? createVerifier({ issuer: 'http://bench.localhost:8080', resource: 'https://api.bench.example/', clientId: 'rs_bench', clientSecret: 'bench', fetch: issuerFetch }) : null;
// Every key introspected before the server listens: a warm-up by load alone may not reach all
// 2,000 keys on a busy machine, and then the timed runs would measure introspections.
if (verifier) {
  for (const key of endUserKeys) {
    const result = await verifier.check({ authorization: `Bearer ${key}`, clientAddress: '127.0.0.1', scopes: ['read:weather'] });
    if (!result.ok) throw new Error(`warm-up refused: ${JSON.stringify(result)}`);
  }
}

const hello = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('hello world');
};

let port: number;
let close: () => Promise<void>;
if (kind === 'node') {
  const server = createServer(meter ? withMeter(meter, hello) : verifier ? verifyNode(verifier, hello, { scopes: ['read:weather'] }) : hello);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((resolve) => server.close(() => resolve()));
} else {
  const app = Fastify({ logger: false });
  if (meter) await app.register(gatehousePlugin(meter));
  if (verifier) app.addHook('onRequest', verifyFastify(verifier, { scopes: ['read:weather'] }));
  app.get('/', async () => 'hello world');
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  close = () => app.close();
}

let profiler: Session | undefined;
const send = (message: ServerMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
process.on('disconnect', () => process.exit());
process.on('message', async (message) => {
  if (message === 'cpu') {
    const used = process.cpuUsage();
    await send({ type: 'cpu', micros: used.user + used.system, introspections: verifier?.metrics().introspections ?? 0 });
    return;
  }
  if (message === 'warm') {
    // Every key checked once: those whose answer expired (30 s, spec 4.4) since are introspected
    // again now, before the timed run, as a key used more often than every 30 s always is.
    const before = verifier?.metrics().introspections ?? 0;
    if (verifier) for (const key of endUserKeys) await verifier.check({ authorization: `Bearer ${key}`, clientAddress: '127.0.0.1', scopes: ['read:weather'] });
    await send({ type: 'warmed', introspections: (verifier?.metrics().introspections ?? 0) - before });
    return;
  }
  if (message === 'profile-start') {
    // V8's sampling profiler over the timed load only (start-up and warm-up left out).
    profiler ??= new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
    await profiler.post('Profiler.start');
    await send({ type: 'profiled', profile: '' });
    return;
  }
  if (message === 'profile-stop') {
    const { profile } = await profiler!.post('Profiler.stop');
    profiler!.disconnect();
    await send({ type: 'profiled', profile: JSON.stringify(profile) });
    return;
  }
  if (message !== 'stop') return;
  await close();
  await meter?.close();
  const admissions = meter?.metrics().admissions ?? {};
  const admitted = admissions.admitted ?? 0;
  const denied = Object.values(admissions).reduce((sum, n) => sum + n, 0) - admitted;
  if (journalDir) rmSync(journalDir, { recursive: true, force: true });
  await send({ type: 'stopped', admitted, denied, reported: gatehouse.reportedRequests(), errors });
  process.disconnect();
});
const headers = verifier ? endUserKeys.map((key) => ({ authorization: `Bearer ${key}` })) : gatehouse.keys.map((key) => ({ 'x-api-key': key }));
await send({ type: 'listening', port, headers });
