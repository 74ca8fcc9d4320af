// A metered MCP server: customers send their Gatehouse key in x-api-key or as `Authorization: Bearer`.
// Run with GATEHOUSE_SECRET_KEY=mas_… (and GATEHOUSE_BASE_URL) set; MCP clients connect to http://localhost:3000/mcp.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { createMeter } from '@gatehouse/sdk';
import { customerOf, withMcpMeter } from '@gatehouse/sdk/mcp';

const meter = createMeter();

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('forecast', { description: "Tomorrow's weather", inputSchema: { city: z.string() } }, ({ city }, extra) => ({
    content: [{ type: 'text', text: `Sunny in ${city}, for ${customerOf(extra).id}` }],
  }));
  return server;
}

// Stateless streamable HTTP: a fresh server per request. Every request is metered; denials are answered for you.
createServer(withMcpMeter(meter, async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const server = weatherServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
})).listen(3000);

process.once('SIGTERM', () => void meter.close().then(() => process.exit(0)));
