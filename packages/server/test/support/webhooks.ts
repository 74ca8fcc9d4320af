// A receiver of webhooks for tests: a real HTTP server on loopback that keeps every request's raw
// body and headers, answers with whatever the test says, and checks Standard Webhooks signatures
// with the `standardwebhooks` library, as an owner's receiver would.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { TestClient } from './client.js';
import type { TestApp } from './harness.js';
import type { ApiFixture } from './money.js';

export interface Received {
  id: string;
  timestamp: number;
  signatures: string[];
  raw: string;
  body: { type: string; timestamp: string; data: { object: Record<string, any>; previous?: Record<string, any>; reason?: string } };
  headers: IncomingMessage['headers'];
  path: string;
}

/** What the receiver answers: a status and a body, or `hold` to never answer. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hold';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides each answer (default 200 "ok"); gets the request and how many came before it. */
  answer: (request: Received, index: number) => Answer;
  /** Resolves once `count` requests have arrived (real time, bounded). */
  waitFor(count: number, withinMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const held: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => ({ status: 200, body: 'ok' }),
    async waitFor(count, withinMs = 15_000) {
      const deadline = Date.now() + withinMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${receiver.received.length} of ${count} requests within ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return receiver.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const received: Received = {
        id: String(request.headers['webhook-id'] ?? ''),
        timestamp: Number(request.headers['webhook-timestamp'] ?? 0),
        signatures: String(request.headers['webhook-signature'] ?? '').split(' ').filter(Boolean),
        raw,
        body: JSON.parse(raw || '{}'),
        headers: request.headers,
        path: request.url ?? '/',
      };
      const index = receiver.received.length;
      receiver.received.push(received);
      const answer = receiver.answer(received, index);
      if (answer === 'hold') {
        held.push(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/** The signature the `standardwebhooks` library makes for this request with this secret. */
export function librarySignature(secret: string, request: Received): string {
  return new Webhook(secret).sign(request.id, new Date(request.timestamp * 1000), request.raw);
}

/** Whether a request carries a valid signature by this secret (the library's own signing, compared). */
export function signedBy(secret: string, request: Received): boolean {
  return request.signatures.includes(librarySignature(secret, request));
}

/** The library's full check (signature and a 5-minute window around the real clock). */
export function libraryVerifies(secret: string, request: Received): boolean {
  try {
    new Webhook(secret).verify(request.raw, { 'webhook-id': request.id, 'webhook-timestamp': String(request.timestamp), 'webhook-signature': request.signatures.join(' ') });
    return true;
  } catch {
    return false;
  }
}

export interface Endpoint {
  id: string;
  secret: string;
  url: string;
}

/** Registers an endpoint through the console; answers it with its one-time secret. */
export async function addEndpoint(client: TestClient, apiId: string, url: string, extra: Record<string, unknown> = {}): Promise<Endpoint> {
  const answer = await client.post(`/apis/${apiId}/webhooks`, { url, ...extra });
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  return { id: answer.body.id, secret: answer.body.secret, url };
}

/**
 * Every event of an API through the catch-up listing, oldest first (all pages). The listing shows
 * an event once every transaction older than it has ended, anywhere on the database server (other
 * tests' included): with `atLeast`, it is read again (up to 10 s) until it holds that many.
 */
export async function listEvents(api: Pick<ApiFixture, 'owner' | 'apiId'>, query = '', atLeast = 0): Promise<ListedEvent[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events: ListedEvent[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await api.owner.client.get(`/apis/${api.apiId}/events?limit=200${query}${after ? `&after=${after}` : ''}`);
      assert.equal(page.status, 200, page.text);
      events.push(...page.body.events);
      if (!page.body.has_more) break;
      after = events.at(-1)!.id;
    }
    if (events.length >= atLeast || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The API's events as stored, committed ones at once, in the listing's order (tests of causes). */
export async function storedEvents(t: TestApp, apiId: string): Promise<ListedEvent[]> {
  const rows = await t.services.db.selectFrom('webhook_events').select(['id', 'payload']).where('api_id', '=', apiId).where('endpoint_id', 'is', null).orderBy('xid').orderBy('seq').execute();
  return rows.map((row) => ({ id: row.id, ...(JSON.parse(row.payload) as { type: string; timestamp: string; data: any }) }));
}

export interface ListedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: any;
}

/**
 * Records which events causes raise: `raisedBy(cause)` answers the events listed after the cause
 * that were not listed before it (by id: the listing keeps 30 days, and a cause may move the
 * clock), in order, and keeps their types in `seen`.
 */
export function eventRecorder(read: () => Promise<ListedEvent[]>, belongs: (event: ListedEvent) => boolean = () => true) {
  const seen = new Set<string>();
  return {
    seen,
    async raisedBy(cause: () => Promise<unknown>): Promise<ListedEvent[]> {
      const before = new Set((await read()).map((e) => e.id));
      await cause();
      const raised = (await read()).filter((e) => !before.has(e.id) && belongs(e));
      for (const event of raised) seen.add(event.type);
      return raised;
    },
  };
}

/** Delivers everything due (several rounds) and checks each listed event reached the receiver, signed. */
export async function assertAllDelivered(t: TestApp, receiver: Receiver, endpoint: Endpoint, events: ListedEvent[]): Promise<void> {
  for (let round = 0; round < 20 && (await t.services.webhookDelivery.deliverDue()).attempted > 0; round++);
  const received = new Map(receiver.received.map((r) => [r.id, r]));
  for (const event of events) {
    const request = received.get(event.id);
    assert.ok(request, `${event.type} ${event.id} was delivered`);
    assert.ok(signedBy(endpoint.secret, request), `${event.type} is signed`);
    assert.deepEqual(request.body, { type: event.type, timestamp: event.timestamp, data: event.data });
  }
}

/** The event types each test/webhooks/event-causes-*.test.ts file raises by their causes. */
export const CAUSES = {
  customers: ['customer.created', 'customer.updated', 'customer.status_changed', 'customer.deleted', 'customer.balance_low', 'customer.balance_depleted', 'customer.balance_recovered', 'credit.added', 'usage.threshold_reached'],
  keysAndApi: ['key.created', 'key.revoked', 'sdk.connected', 'sdk.disconnected', 'platform.allowance_threshold'],
  payments: ['credit.added', 'payment.succeeded', 'payment.failed', 'auto_recharge.failed'],
  subscriptions: ['credit.added', 'payment.succeeded', 'payment.failed', 'subscription.created', 'subscription.plan_changed', 'subscription.renewed', 'subscription.past_due', 'subscription.canceled'],
} as const;
