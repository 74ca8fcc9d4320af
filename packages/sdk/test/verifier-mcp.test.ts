// Issue 15 item 6: MCP servers accept people's end-user keys as well as access tokens, both through
// withMcpSignIn (the meter's design, with a verifier added) and through the MCP adapter's verify;
// and the Fastify and Hono adapters' verify, on the same real Gatehouse.
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { z } from 'zod';
import { verify as fastifyVerify } from '../src/adapters/fastify.js';
import { verify as honoVerify } from '../src/adapters/hono.js';
import type { Principal } from '../src/index.js';
import { createKey, keyHolder } from '../../server/test/support/end-user-keys.js';
import type { IssuerFixture } from '../../server/test/support/issuer.js';
import { customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { sdkSecretOf } from '../../server/test/support/portal.js';
import { customerOf, verify, withMcpSignIn, type McpRequest } from '../src/adapters/mcp.js';
import { createMeter, type Meter } from '../src/index.js';
import { unknownKey } from './support/gatehouse.js';
import { startKeysIssuer, verifierFor } from './support/verifier.js';

let f: IssuerFixture;
let api: ApiFixture;
let meter: Meter;
let http: Server;
let url: string;
let server: { clientId: string; secret: string; resource: string };
let roleId: string;
let serve: (req: McpRequest, res: ServerResponse) => unknown = (_req, res) => void res.writeHead(503).end();

function weather(req: McpRequest, res: ServerResponse) {
  const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
  mcp.registerTool('forecast', { description: 'Forecast', inputSchema: { city: z.string() } }, ({ city }, extra) => ({
    content: [{ type: 'text', text: JSON.stringify({ city, person: extra.authInfo?.extra?.person, customer: extra.authInfo?.extra?.gatehouse ? customerOf(extra).id : null }) }],
  }));
  mcp.registerTool('set-station', { description: 'Move', inputSchema: { station: z.string() } }, ({ station }) => ({ content: [{ type: 'text', text: station }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void mcp.close());
  return mcp.connect(transport).then(() => transport.handleRequest(req, res));
}

before(async () => {
  f = await startKeysIssuer('Verified MCP API');
  const secret = await sdkSecretOf(f);
  const sdk = f.t.sdkClient();
  sdk.bearer = secret;
  api = { owner: f.owner, apiId: f.apiId, slug: f.slug, secret, sdk };
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { rps: 0 })).status, 200);
  http = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const registered = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Weather MCP', resource_url: url, permissions: [{ name: 'read:weather' }, { name: 'write:weather' }] });
  assert.equal(registered.status, 200, registered.text);
  server = { clientId: registered.body.client_id, secret: registered.body.client_secret, resource: url };
  const role = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: 'mcp reader', permissions: [{ server_id: registered.body.id, permission: 'read:weather' }] });
  assert.equal(role.status, 200, role.text);
  roleId = role.body.id;
  meter = createMeter({ secret, baseUrl: f.t.url, journalDir: null, now: () => f.t.clock.now().getTime(), onError: () => {} });
  await meter.ready;
});
after(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  await meter?.close();
  await f?.t.close();
});

async function memberKey() {
  const holder = await keyHolder(f, { roles: [roleId] });
  await f.t.services.customerMembers.joinOnVisit(f.apiId, holder.person);
  const [membership] = await f.t.services.customerMembers.membershipsOf(f.apiId, holder.person.id);
  assert.ok(membership);
  const { secret } = await createKey(holder.api, f, { resources: [url], permissions: ['read:weather'] });
  return { personId: holder.person.id, customerId: membership.customer_id as string, secret };
}

const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

async function post(body: unknown, authorization?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), text: await response.text() };
}

test('withMcpSignIn with a verifier: an end-user key calls a tool, metered to the person\'s customer; a missing permission is 403; an unknown key 401', async () => {
  const { verifier } = await verifierFor(f, { server });
  serve = withMcpSignIn(meter, weather, { resource: url, verifier, toolPermissions: { forecast: 'read:weather', 'set-station': 'write:weather' } });
  const person = await memberKey();
  await meter.flush();
  const before = (await customerDetail(api, person.customerId)).month_requests as number;
  const ok = await post(call('forecast', { city: 'Oslo' }), `Bearer ${person.secret}`);
  assert.equal(ok.status, 200, ok.text);
  assert.ok(ok.text.includes(person.customerId) && ok.text.includes(person.personId), ok.text);
  await meter.flush();
  assert.equal((await customerDetail(api, person.customerId)).month_requests, before + 1);
  const forbidden = await post(call('set-station', { station: 'Bergen' }), `Bearer ${person.secret}`);
  assert.equal(forbidden.status, 403, forbidden.text);
  assert.match(forbidden.challenge ?? '', /error="insufficient_scope", scope="write:weather", resource_metadata=/);
  const unknown = await post(call('forecast', { city: 'Oslo' }), `Bearer ${unknownKey()}`);
  assert.equal(unknown.status, 401, unknown.text);
  assert.match(unknown.challenge ?? '', /error="invalid_token"/);
});

test('the MCP adapter\'s verify: metadata names the issuer; a key is admitted with its tool permissions, and metered when the verifier meters', async () => {
  const { verifier } = await verifierFor(f, { server, meter });
  serve = verify(verifier, weather, { toolPermissions: { forecast: 'read:weather', 'set-station': 'write:weather' } });
  const metadata = await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`);
  assert.equal(metadata.status, 200);
  const body = (await metadata.json()) as { resource: string; authorization_servers: string[] };
  assert.equal(body.resource, url);
  assert.deepEqual(body.authorization_servers, [f.issuer]);
  const person = await memberKey();
  const ok = await post(call('forecast', { city: 'Oslo' }), `Bearer ${person.secret}`);
  assert.equal(ok.status, 200, ok.text);
  assert.ok(ok.text.includes(person.customerId), ok.text);
  const forbidden = await post(call('set-station', { station: 'Bergen' }), `Bearer ${person.secret}`);
  assert.equal(forbidden.status, 403);
  const none = await post(call('forecast', { city: 'Oslo' }));
  assert.equal(none.status, 401);
  assert.match(none.challenge ?? '', /^Bearer error="invalid_token", scope="read:weather write:weather", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
});

test('Fastify and Hono: verify admits a key with the permission, 403 without it, 401 with none', async () => {
  const person = await memberKey();
  const { verifier } = await verifierFor(f, { server, meter });
  const app = Fastify();
  app.get('/whoami', { onRequest: fastifyVerify(verifier, { scopes: ['read:weather'] }) }, async (request) => (request as { principal?: Principal }).principal);
  app.get('/stations', { onRequest: fastifyVerify(verifier, { scopes: ['write:weather'] }) }, async () => ({ moved: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const ok = await fetch(`${base}/whoami`, { headers: { authorization: `Bearer ${person.secret}` } });
    assert.equal(ok.status, 200);
    assert.deepEqual(((await ok.json()) as Principal).customerId, person.customerId);
    const forbidden = await fetch(`${base}/stations`, { headers: { authorization: `Bearer ${person.secret}` } });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="write:weather"');
    assert.equal((await fetch(`${base}/whoami`)).status, 401);
  } finally {
    await app.close();
  }
  const hono = new Hono<{ Variables: { principal: Principal } }>();
  hono.get('/whoami', honoVerify(verifier, { scopes: ['read:weather'] }), (c) => c.json(c.get('principal')));
  hono.get('/stations', honoVerify(verifier, { scopes: ['write:weather'] }), (c) => c.json({ moved: true }));
  const ok = await hono.request('/whoami', { headers: { authorization: `Bearer ${person.secret}` } });
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as Principal).sub, person.personId);
  const forbidden = await hono.request('/stations', { headers: { authorization: `Bearer ${person.secret}` } });
  assert.equal(forbidden.status, 403);
  assert.equal(forbidden.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="write:weather"');
  const none = await hono.request('/whoami');
  assert.equal(none.status, 401);
  assert.equal(none.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
});
