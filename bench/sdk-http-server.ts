// One hello-world server for sdk-http.bench.ts, in a process of its own so the load generator
// does not share its event loop: node:http or Fastify, bare or with the SDK in front. It answers
// the parent (IPC) with its port and the keys of its fake Gatehouse, on 'cpu' with the CPU time it
// has used, and on 'stop' with what the meter admitted and reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createMeter } from '@gatehouse/sdk';
import { gatehousePlugin } from '@gatehouse/sdk/fastify';
import { withMeter } from '@gatehouse/sdk/node';
import { fakeGatehouse } from './sdk-support.js';

export type ServerKind = 'node' | 'fastify';
/** Without the SDK; with it and its journal on disk (the default); with it and usage in memory. */
export type Variant = 'bare' | 'journal' | 'memory';
export type ServerMessage =
  | { type: 'listening'; port: number; keys: string[] }
  | { type: 'cpu'; micros: number }
  | { type: 'stopped'; admitted: number; denied: number; reported: number; errors: string[] };

const [kind, variant] = process.argv.slice(2) as [ServerKind, Variant];
const gatehouse = fakeGatehouse({ customers: 1_000, keysPerCustomer: 2 });
const errors: string[] = [];
const journalDir = variant === 'journal' ? mkdtempSync(join(tmpdir(), 'gh-bench-http-')) : null;
const meter = variant === 'bare' ? null : createMeter({ secret: 'mas_bench', baseUrl: 'http://gatehouse.invalid', fetch: gatehouse.fetch, journalDir, ...(process.env.BENCH_COMMIT_MS ? { commitIntervalMs: Number(process.env.BENCH_COMMIT_MS) } : {}), ...(process.env.BENCH_FSYNC_MS ? { fsyncIntervalMs: Number(process.env.BENCH_FSYNC_MS) } : {}), onError: (e) => errors.push(e.message) });
await meter?.ready;

const hello = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('hello world');
};

let port: number;
let close: () => Promise<void>;
if (kind === 'node') {
  const server = createServer(meter ? withMeter(meter, hello) : hello);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((resolve) => server.close(() => resolve()));
} else {
  const app = Fastify({ logger: false });
  if (meter) await app.register(gatehousePlugin(meter));
  app.get('/', async () => 'hello world');
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  close = () => app.close();
}

const send = (message: ServerMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
process.on('disconnect', () => process.exit());
process.on('message', async (message) => {
  if (message === 'cpu') {
    const used = process.cpuUsage();
    await send({ type: 'cpu', micros: used.user + used.system });
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
await send({ type: 'listening', port, keys: gatehouse.keys });
