// The SDK README's examples (packages/sdk/README.md: node:http, Express, Fastify, Hono, MCP) with
// this API's values filled in: where Gatehouse runs and the header customers send their key in.
// The secret is never written into code: the code reads it from GATEHOUSE_SECRET_KEY.

export interface SnippetValues {
  /** Where Gatehouse runs: the console's own origin. */
  baseUrl: string;
  keyHeader: string;
}

export interface Snippet {
  id: string;
  label: string;
  install: string;
  code: string;
}

/** A single-quoted JavaScript string literal, as the rest of the code is written. */
export const js = (value: string) => `'${value.replace(/[\\']/g, '\\$&').replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;

/** A word for a POSIX shell: single-quoted, with single quotes closed and escaped. */
export const shellWord = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

function meter(values: SnippetValues) {
  return `const meter = createMeter({
  secret: process.env.GATEHOUSE_SECRET_KEY,
  baseUrl: ${js(values.baseUrl)},
  keyHeader: ${js(values.keyHeader)},
});`;
}

export function snippets(values: SnippetValues): Snippet[] {
  return [
    {
      id: 'node',
      label: 'node:http',
      install: 'npm install @gatehouse/sdk',
      code: `import { createServer } from 'node:http';
import { createMeter } from '@gatehouse/sdk';
import { withMeter } from '@gatehouse/sdk/node';

${meter(values)}
createServer(withMeter(meter, (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ customer: req.gatehouse.id, hello: 'world' }));
})).listen(3000);`,
    },
    {
      id: 'express',
      label: 'Express',
      install: 'npm install @gatehouse/sdk express',
      code: `import express from 'express';
import { createMeter } from '@gatehouse/sdk';
import { gatehouse } from '@gatehouse/sdk/express';

${meter(values)}
const app = express();
app.use(gatehouse(meter));
app.get('/', (req, res) => res.json({ customer: req.gatehouse.id, hello: 'world' }));
app.listen(3000);`,
    },
    {
      id: 'fastify',
      label: 'Fastify',
      install: 'npm install @gatehouse/sdk fastify',
      code: `import Fastify from 'fastify';
import { createMeter } from '@gatehouse/sdk';
import { gatehousePlugin } from '@gatehouse/sdk/fastify';

${meter(values)}
const app = Fastify();
await app.register(gatehousePlugin(meter));
app.get('/', async (request) => ({ customer: request.gatehouse.id, hello: 'world' }));
await app.listen({ port: 3000 });`,
    },
    {
      id: 'hono',
      label: 'Hono',
      install: 'npm install @gatehouse/sdk hono @hono/node-server',
      code: `import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createMeter } from '@gatehouse/sdk';
import { gatehouse } from '@gatehouse/sdk/hono';

${meter(values)}
const app = new Hono();
app.use('*', gatehouse(meter));
app.get('/', (c) => c.json({ customer: c.get('gatehouse').id, hello: 'world' }));
serve({ fetch: app.fetch, port: 3000 });`,
    },
    {
      id: 'mcp',
      label: 'MCP',
      install: 'npm install @gatehouse/sdk @modelcontextprotocol/sdk zod',
      code: `import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { createMeter } from '@gatehouse/sdk';
import { customerOf, withMcpMeter } from '@gatehouse/sdk/mcp';

${meter(values)}

function helloServer() {
  const server = new McpServer({ name: 'hello', version: '1.0.0' });
  server.registerTool('hello', { description: 'Says hello', inputSchema: { name: z.string() } }, ({ name }, extra) => ({
    content: [{ type: 'text', text: \`Hello \${name}, from \${customerOf(extra).id}\` }],
  }));
  return server;
}

// Stateless: a fresh server and transport per request. MCP clients send the key as
// Authorization: Bearer <key>, or in the key header.
createServer(withMcpMeter(meter, async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const server = helloServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
})).listen(3000);`,
    },
  ];
}

/** The shell line that puts the secret where the code reads it (the secret itself is typed by the owner). */
export const ENV_LINE = 'export GATEHOUSE_SECRET_KEY=mas_…   # the SDK secret above';

/** A request to the owner's API with the test key, as a customer's would be. */
export function curlLine(baseUrl: string, keyHeader: string, testKey: string): string {
  return `curl -i -H ${shellWord(`${keyHeader}: ${testKey}`)} ${shellWord(baseUrl)}`;
}
