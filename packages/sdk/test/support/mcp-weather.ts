// An MCP server built with @gatehouse/sdk/mcp's withMcpSignIn, on a free port, registered as a
// server of an API whose sign-in service has apps people connect turned on (the README's example,
// with the test app's clock).
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { customerOf, withMcpSignIn, type McpRequest, type McpSignInOptions } from '../../src/adapters/mcp.js';
import { createMeter, type Meter, type MeterOptions } from '../../src/index.js';
import type { ProtectedResource } from '../../src/signin/protected-resource.js';
import type { IssuerFixture } from '../../../server/test/support/issuer.js';
import type { ApiFixture } from '../../../server/test/support/money.js';
import { sdkSecretOf } from '../../../server/test/support/portal.js';

export interface WeatherMcp {
  /** The MCP endpoint, also the server's resource as registered. */
  url: string;
  meter: Meter;
  guard: ProtectedResource;
  api: ApiFixture;
  serverId: string;
  /** A role holding read:weather at this server. */
  readerRoleId: string;
  /** HTTP methods the MCP handler saw (after the meter admitted them). */
  seen: string[];
  errors: Error[];
  close(): Promise<void>;
}

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('forecast', { description: "Tomorrow's weather", inputSchema: { city: z.string() } }, ({ city }, extra) => ({
    content: [{ type: 'text', text: JSON.stringify({ city, forecast: 'sunny', customer: customerOf(extra).id, person: extra.authInfo?.extra?.person ?? null, scopes: extra.authInfo?.scopes }) }],
  }));
  server.registerTool('set-station', { description: 'Move the weather station', inputSchema: { station: z.string() } }, ({ station }) => ({
    content: [{ type: 'text', text: `moved to ${station}` }],
  }));
  server.registerTool('whoami', { description: 'The metered customer' }, (extra) => ({
    content: [{ type: 'text', text: customerOf(extra).id }],
  }));
  return server;
}

/**
 * Starts the server, registers it at `<url>` with read:weather and write:weather, and a role
 * holding read:weather. `forecast` needs read:weather, `set-station` write:weather, `whoami` nothing.
 */
export async function startWeatherMcp(f: IssuerFixture, options: { meter?: MeterOptions; signIn?: McpSignInOptions } = {}): Promise<WeatherMcp> {
  const secret = await sdkSecretOf(f);
  const sdk = f.t.sdkClient();
  sdk.bearer = secret;
  const api: ApiFixture = { owner: f.owner, apiId: f.apiId, slug: f.slug, secret, sdk };
  // No rate limit: an MCP session opens with a burst of requests, and rate limits have their own tests.
  const patched = await f.owner.client.patch(`/apis/${f.apiId}`, { rps: 0 });
  assert.equal(patched.status, 200, patched.text);

  const seen: string[] = [];
  const errors: Error[] = [];
  let serve: (req: McpRequest, res: ServerResponse) => unknown = (_req, res) => void res.writeHead(503).end();
  const http: Server = createServer((req, res) => void serve(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;

  const registered = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, {
    name: 'Weather MCP', resource_url: url, permissions: [{ name: 'read:weather', description: 'Read forecasts' }, { name: 'write:weather', description: 'Move stations' }],
  });
  assert.equal(registered.status, 200, registered.text);
  const role = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: `forecaster-${registered.body.id}`, permissions: [{ server_id: registered.body.id, permission: 'read:weather' }] });
  assert.equal(role.status, 200, role.text);

  const meter = createMeter({ secret, baseUrl: f.t.url, journalDir: null, now: () => f.t.clock.now().getTime(), onError: (error) => errors.push(error), ...options.meter });
  const handler = withMcpSignIn(meter, async (req: McpRequest, res: ServerResponse) => {
    seen.push(req.method ?? '');
    // Stateless streamable HTTP: a fresh server and transport per POST; no GET stream.
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const server = weatherServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }, { resource: url, toolPermissions: { forecast: 'read:weather', 'set-station': ['read:weather', 'write:weather'] }, ...options.signIn });
  serve = handler;
  await meter.ready;
  return {
    url, meter, guard: handler.guard, api, serverId: registered.body.id, readerRoleId: role.body.id, seen, errors,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await meter.close();
    },
  };
}

/** Gives a person roles through the console, as the owner would. */
export async function giveRoles(f: IssuerFixture, personId: string, roleIds: string[]) {
  const put = await f.owner.client.put(`/apis/${f.apiId}/signin/people/${personId}/roles`, { role_ids: roleIds });
  assert.equal(put.status, 200, put.text);
}

/** The person of the API with this address, through the console's people list. */
export async function personByEmail(f: IssuerFixture, email: string): Promise<{ id: string }> {
  const list = await f.owner.client.get(`/apis/${f.apiId}/signin/people?q=${encodeURIComponent(email)}`);
  assert.equal(list.status, 200, list.text);
  const people = (list.body.people ?? list.body) as { id: string; email: string }[];
  const found = people.find((p) => p.email === email);
  assert.ok(found, `${email} is a person of the API: ${list.text.slice(0, 300)}`);
  return found;
}
