// A metered node:http server in a process of its own, for tests that need real separate processes
// (issue 4: two SDK processes sharing Redis; a process killed before delivery). It answers every
// admitted request with the status named in its path (`/status/404`), never answers `/hang`, prints `listening <port>`,
// and on SIGTERM closes the server and the meter (delivering what it can) and exits 0.
//
// argv[2] is JSON: { secret, baseUrl, redisUrl?, journalDir?, clockOffsetMs, cutUsage?, options? },
// `options` being more meter options (numbers and flags).
// With cutUsage every usage report fails before it leaves, so usage stays queued.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createMeter } from '../../src/index.js';
import { withMeter } from '../../src/adapters/node.js';

const config = JSON.parse(process.argv[2]!) as {
  secret: string;
  baseUrl: string;
  redisUrl?: string;
  journalDir?: string | null;
  clockOffsetMs: number;
  cutUsage?: boolean;
  options?: Record<string, number | boolean>;
};

const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
const cutFetch: typeof fetch = async (input, init) => {
  if (config.cutUsage && init?.method === 'POST') throw new TypeError('usage delivery cut off by the test');
  return fetch(input, init);
};
const meter = createMeter({
  secret: config.secret,
  baseUrl: config.baseUrl,
  journalDir: config.journalDir ?? null,
  now: () => Date.now() + config.clockOffsetMs,
  fetch: cutFetch,
  onError: () => {},
  ...(redis ? { redis } : {}),
  ...config.options,
});
await meter.ready;

const server = createServer(
  withMeter(meter, (req, res) => {
    // Admitted and never answered: a request in flight when the test kills the process.
    if (req.url === '/hang') return;
    const status = Number(/^\/status\/(\d{3})$/.exec(req.url ?? '')?.[1] ?? 200);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ served: true, customer: req.gatehouse!.id }));
  }),
);
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);

process.once('SIGTERM', async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await meter.close();
  redis?.disconnect();
  process.exit(0);
});
