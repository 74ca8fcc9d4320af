// npm start with: UNSAFE_OUTBOUND_PRIVATE=true
//
// Events to owners end to end against a running server (issue 24 item 8), as a new owner would try
// them:
//
//   UNSAFE_OUTBOUND_PRIVATE=true DATA_DIR=$(mktemp -d) npm start     # in one terminal
//   node --import tsx scripts/events-walkthrough.ts                   # in another (GATEHOUSE=http://localhost:8080)
//
// UNSAFE_OUTBOUND_PRIVATE lets the server deliver to this script's receiver on 127.0.0.1 (endpoints
// are public https addresses otherwise). The script serves a receiver that checks every delivery
// with the `standardwebhooks` library; an owner signs up, registers an API and the receiver,
// creates a customer, credits it, and lets one metered request (a hello world metered by
// @gatehouse/sdk) take its balance below the low-balance line. The receiver must see
// customer.created, credit.added and customer.balance_low with valid signatures, and
// GET /api/apis/{api}/events?after= must list the same event ids. Exits 1 on any mismatch.
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { consoleCall, expect, failures, finish, G, listen, serveHello, signUpOwner, sleep, step, tag } from './walkthrough-kit.js';

interface Delivery {
  id: string;
  type: string;
  valid: boolean;
  object: Record<string, any>;
}

// The receiver: every request is kept with whether the library accepted its signature.
const receiver = await listen();
const deliveries: Delivery[] = [];
let secret = '';
receiver.server.on('request', (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const headers = req.headers as IncomingHttpHeaders & Record<string, string>;
    let valid = false;
    try {
      new Webhook(secret).verify(raw, headers);
      valid = true;
    } catch {
      // recorded as invalid below
    }
    const body = JSON.parse(raw || '{}') as { type?: string; data?: { object?: Record<string, unknown> } };
    deliveries.push({ id: String(headers['webhook-id']), type: String(body.type), valid, object: body.data?.object ?? {} });
    res.writeHead(valid ? 204 : 400).end();
  });
});

async function until<T>(what: string, read: () => T | undefined, withinMs = 20_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not arrive within ${withinMs / 1000} s (was the server started with UNSAFE_OUTBOUND_PRIVATE=true?)`);
    await sleep(100);
  }
}

try {
  const email = `owner-${tag}@example.com`;
  const workspace = await signUpOwner(email);
  const { api, secret: sdkSecret } = await consoleCall('POST', `/workspaces/${workspace}/apis`, { name: `Events ${tag}`, preset: 'payg' });
  step(`owner ${email} registered ${api.name} (payg: 0.001 a request, 1.00 of welcome credit, low-balance line ${(api.low_balance_micro / 1e6).toFixed(2)})`);

  const endpoint = await consoleCall('POST', `/apis/${api.id}/webhooks`, { url: `${receiver.url}/gatehouse`, description: 'events walkthrough' });
  secret = endpoint.secret;
  step(`registered the receiver ${endpoint.url} as ${endpoint.id}, every event type; secret ${secret.slice(0, 10)}… shown once`);

  const customer = await consoleCall('POST', `/apis/${api.id}/customers`, { name: 'Acme', email: `billing-${tag}@acme.example` });
  await consoleCall('POST', `/apis/${api.id}/customers/${customer.id}/credit`, { amount_micro: 500, note: 'A little extra', ref: `extra-${tag}` });
  const key = await consoleCall('POST', `/apis/${api.id}/customers/${customer.id}/keys`, { name: 'production' });
  step(`customer ${customer.id} created and credited 500 micro units: balance 1000500, 500 above the line`);

  // One metered request through the SDK: 1,000 micro units charged, 500 below the line.
  const hello = await listen();
  const meter = serveHello(hello.server, api, sdkSecret);
  const answer = await fetch(hello.url, { headers: { [api.key_header]: key.key } });
  expect('the metered request', answer.status, 200);
  await meter.flush();
  const after = await consoleCall('GET', `/apis/${api.id}/customers/${customer.id}`);
  expect('the balance after one request', after.balance_micro, 999_500);
  step(`GET ${hello.url} with the key: ${answer.status}; usage reported, balance ${after.balance_micro}`);

  const low = await until('customer.balance_low', () => deliveries.find((d) => d.type === 'customer.balance_low'));
  const seenTypes = ['customer.created', 'credit.added', 'customer.balance_low'];
  for (const type of seenTypes) {
    const ofType = deliveries.filter((d) => d.type === type);
    expect(`${type} delivered`, ofType.length > 0, true);
    expect(`${type} signatures valid`, ofType.every((d) => d.valid), true);
  }
  const credits = deliveries.filter((d) => d.type === 'credit.added').map((d) => `${d.object.kind} +${d.object.amount_micro} (balance_seq ${d.object.balance_seq})`);
  step(`the receiver verified ${deliveries.length} deliveries with the standardwebhooks library: ${[...new Set(deliveries.map((d) => d.type))].join(', ')}`);
  step(`credit.added: ${credits.join(', ')}`);
  step(`customer.balance_low: balance ${low.object.balance_micro} below ${low.object.low_balance_micro} (balance_seq ${low.object.balance_seq})`);
  expect('balance_low balance', low.object.balance_micro, 999_500);

  // Catch-up: the events listing from the first event's id on, page by page, holds the same ids.
  // (It shows an event once every older transaction on the database has ended: read until it has them all.)
  const received = [...new Set(deliveries.map((d) => d.id))].sort();
  let listed: { id: string; type: string }[] = [];
  for (let tries = 0; tries < 50 && listed.length < received.length; tries++, await sleep(200)) {
    const first = (await consoleCall('GET', `/apis/${api.id}/events?limit=1`)).events[0];
    if (!first) continue;
    listed = [first];
    for (let page = await consoleCall('GET', `/apis/${api.id}/events?after=${first.id}&limit=2`); ; ) {
      listed.push(...page.events);
      if (!page.has_more) break;
      page = await consoleCall('GET', `/apis/${api.id}/events?after=${listed.at(-1)!.id}&limit=2`);
    }
  }
  expect('ids listed by GET /events?after= and ids received', JSON.stringify(listed.map((e) => e.id).sort()), JSON.stringify(received));
  step(`GET /api/apis/${api.id}/events?after=… (pages of 2): ${listed.map((e) => e.type).join(', ')}`);
  step(`the same ${listed.length} ids as the receiver got: ${failures.length === 0 ? 'yes' : 'no'}`);
  const deliveryPage = await consoleCall('GET', `/apis/${api.id}/webhooks/${endpoint.id}/deliveries`);
  const firstTry = deliveryPage.deliveries.filter((d: { status: string; attempts: number }) => d.status === 'succeeded' && d.attempts === 1).length;
  expect('every delivery succeeded at its first attempt', firstTry, deliveryPage.deliveries.length);
  step(`GET …/webhooks/${endpoint.id}/deliveries: ${deliveryPage.deliveries.length} deliveries, ${firstTry} succeeded at the first attempt (status ${deliveryPage.deliveries[0].status_code})`);
  await meter.close();
  hello.server.close();
} catch (error) {
  failures.push(String(error instanceof Error ? error.message : error));
} finally {
  receiver.server.close();
}
finish();
console.log(`OK (against ${G})`);
process.exit(0);
