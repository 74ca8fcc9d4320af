// The owner's API in a console journey: the SDK README's node:http example (a hello world behind
// the real @gatehouse/sdk's `withMeter`) on a free port, metering against the test app with the
// API's SDK secret, on the app's own clock. It listens before it has a secret (its address goes
// into the API's settings first) and answers 503 until `meter(secret)` starts the SDK.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withMeter } from '../../../sdk/src/adapters/node.js';
import { createMeter, type Meter } from '../../../sdk/src/index.js';
import type { TestApp } from '../../../server/test/support/harness.js';

export interface MeteredHello {
  url: string;
  /** Starts the SDK with the secret: it fetches its snapshot at once. */
  meter(secret: string): Meter;
  close(): Promise<void>;
}

export async function meteredHello(t: TestApp): Promise<MeteredHello> {
  let meter: Meter | null = null;
  let handler: RequestListener = (_req, res) => void res.writeHead(503).end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    meter(secret) {
      meter = createMeter({ secret, baseUrl: t.url, journalDir: null, now: () => t.clock.now().getTime(), onError: () => {} });
      handler = withMeter(meter, (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ customer: req.gatehouse?.id, hello: 'world' }));
      });
      return meter;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await meter?.close();
    },
  };
}
