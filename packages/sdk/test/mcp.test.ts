import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { customerOf, withMcpMeter, type McpRequest } from '../src/adapters/mcp.js';
import { createMeter, type Meter } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, type ApiFixture } from '../../server/test/support/money.js';

const PRICE_MICRO = 1_000; // the payg preset
const WELCOME_MICRO = 1_000_000;
const BILLABLE = new Set([200, 201, 202, 204]); // the payg preset's billable statuses

let t: TestApp;
let api: ApiFixture;
let meter: Meter;
const meterErrors: Error[] = [];

before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Weather MCP' });
  // No rate limit: an MCP session opens with a burst of requests, and rate limits have their own tests.
  const patched = await api.owner.client.patch(`/apis/${api.apiId}`, { rps: 0 });
  assert.equal(patched.status, 200, patched.text);
  meter = createMeter({
    secret: api.secret,
    baseUrl: t.url,
    journalDir: mkdtempSync(join(tmpdir(), 'gh-sdk-mcp-')),
    now: () => t.clock.now().getTime(),
    onError: (error) => meterErrors.push(error),
  });
  await meter.ready;
});
after(async () => {
  await meter?.close();
  await t.close();
});

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Who the metered customer is' }, (extra) => ({
    content: [{ type: 'text', text: JSON.stringify({ customer: customerOf(extra).id, clientId: extra.authInfo?.clientId }) }],
  }));
  server.registerTool('forecast', { description: "Tomorrow's weather", inputSchema: { city: z.string() } }, ({ city }, extra) => ({
    content: [{ type: 'text', text: `${city}: sunny, for ${customerOf(extra).id}` }],
  }));
  return server;
}

/** Stateless streamable HTTP: a fresh server and transport per POST; no GET stream. */
async function statelessMcp(req: McpRequest, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const server = weatherServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** Stateful streamable HTTP: one transport per session, a GET SSE stream, DELETE ends the session. */
function statefulMcp() {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return async (req: McpRequest, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, fresh) });
      fresh.onclose = () => void (fresh.sessionId && sessions.delete(fresh.sessionId));
      await weatherServer().connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res);
  };
}

async function listen(handler: (req: McpRequest, res: ServerResponse) => Promise<void>) {
  let handled = 0;
  const server = createServer(withMcpMeter(meter, (req: McpRequest, res: ServerResponse) => (handled++, handler(req, res))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    handled: () => handled,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}

/** The MCP client's fetch, counted: every HTTP request it makes and the status it got. */
function countingFetch() {
  const answers: { method: string; status: number }[] = [];
  let inFlight = 0;
  const fetchFn = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    inFlight++;
    try {
      const response = await fetch(url, init);
      answers.push({ method: init?.method ?? 'GET', status: response.status });
      return response;
    } finally {
      inFlight--;
    }
  };
  // The client opens its GET stream without awaiting it: wait until every request has its answer head.
  const settled = async () => {
    for (let i = 0; i < 200 && inFlight > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(inFlight, 0, 'every MCP request answered');
  };
  return { fetch: fetchFn, answers, settled };
}

async function connect(url: URL, headers: Record<string, string>, counter = countingFetch()) {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: counter.fetch });
  const client = new Client({ name: 'gatehouse-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, counter };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[])[0]!.text;

async function assertMetered(customerId: string, answers: { status: number }[]) {
  await meter.flush();
  const detail = await customerDetail(api, customerId);
  const billable = answers.filter((a) => BILLABLE.has(a.status)).length;
  assert.equal(detail.month_requests, answers.length, 'every HTTP request of the MCP client is counted');
  assert.equal(detail.balance_micro, WELCOME_MICRO - billable * PRICE_MICRO, 'billable requests charged at the price');
}

test('tool handlers get the customer; every request of a stateless MCP server is metered, key in a header or as a Bearer token', async () => {
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const server = await listen(statelessMcp);
  try {
    const viaHeader = await connect(server.url, { 'x-api-key': key.key });
    const tools = await viaHeader.client.listTools();
    assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['forecast', 'whoami']);
    const whoami = JSON.parse(textOf(await viaHeader.client.callTool({ name: 'whoami', arguments: {} })));
    assert.deepEqual(whoami, { customer: customer.id, clientId: customer.id });
    assert.equal(textOf(await viaHeader.client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })), `Oslo: sunny, for ${customer.id}`);
    await viaHeader.counter.settled();
    await viaHeader.client.close();

    const viaBearer = await connect(server.url, { authorization: `Bearer ${key.key}` });
    const answer = JSON.parse(textOf(await viaBearer.client.callTool({ name: 'whoami', arguments: {} })));
    assert.equal(answer.customer, customer.id);
    await viaBearer.counter.settled();
    await viaBearer.client.close();

    const answers = [...viaHeader.counter.answers, ...viaBearer.counter.answers];
    // initialize, notifications/initialized (202), the GET stream refused (405), then the three calls.
    const seen = viaHeader.counter.answers.map((a) => `${a.method} ${a.status}`).sort();
    assert.deepEqual(seen, ['GET 405', 'POST 200', 'POST 200', 'POST 200', 'POST 200', 'POST 202']);
    assert.equal(server.handled(), answers.length);
    await assertMetered(customer.id, answers);
  } finally {
    await server.close();
  }
});

test('a stateful MCP session is metered too: its long-lived GET stream is counted when it opens, and DELETE counts', async () => {
  const customer = await createCustomer(t, api, 'Stateful Co');
  const key = await createKey(api, customer.id);
  const server = await listen(statefulMcp());
  try {
    const session = await connect(server.url, { 'x-api-key': key.key });
    assert.equal(textOf(await session.client.callTool({ name: 'forecast', arguments: { city: 'Lima' } })), `Lima: sunny, for ${customer.id}`);
    await session.counter.settled();
    assert.ok(session.counter.answers.some((a) => a.method === 'GET' && a.status === 200), 'the GET SSE stream is open');
    // Delivered while the GET stream is still open: its 200 was recorded when its head went out.
    await assertMetered(customer.id, session.counter.answers);
    await session.transport.terminateSession();
    await session.client.close();
    assert.equal(session.counter.answers.at(-1)?.method, 'DELETE');
    await assertMetered(customer.id, session.counter.answers);
  } finally {
    await server.close();
  }
});

test('a request without a key or with an unknown key is refused 401 before the MCP server sees it', async () => {
  const server = await listen(statelessMcp);
  try {
    const refused: Record<string, string>[] = [{}, { 'x-api-key': 'wthr_' + 'A'.repeat(46) }, { authorization: `Bearer ${randomUUID()}` }];
    for (const headers of refused) {
      const counter = countingFetch();
      await assert.rejects(connect(server.url, headers, counter), (error) => error instanceof StreamableHTTPError && error.code === 401);
      assert.deepEqual(counter.answers.map((a) => a.status), [401]);
    }
    const raw = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    assert.equal(raw.status, 401);
    assert.match(raw.headers.get('www-authenticate') ?? '', /^Bearer/);
    assert.deepEqual(await raw.json(), { error: 'missing_key', message: 'An API key is required in the x-api-key header.' });
    assert.equal(server.handled(), 0);
  } finally {
    await server.close();
  }
});

test('customerOf refuses a request that did not come through withMcpMeter', () => {
  assert.throws(() => customerOf({}), /withMcpMeter/);
  assert.throws(() => customerOf({ authInfo: { extra: {} } }), /withMcpMeter/);
});

test('the meter reported no error along the way', () => {
  assert.deepEqual(meterErrors.map((error) => error.message), []);
});
