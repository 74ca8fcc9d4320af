// An MCP server that agents sign in to: an MCP client (Claude Code, VS Code, the MCP SDKs) finds the
// API's sign-in service through this server's protected resource metadata, registers itself (or
// names its client ID metadata document), and the person signs up or signs in and consents in the
// browser. Every request is then metered to the customer the person belongs to; customers' API keys
// keep working too.
//
// In the console: turn on apps people connect (sign-in settings), register a server whose resource
// URL is GATEHOUSE_RESOURCE_URL with the permission read:weather, and give people a role holding it.
// Then (after `npm run build` in the Gatehouse repository):
//   GATEHOUSE_SECRET_KEY=mas_… GATEHOUSE_BASE_URL=http://localhost:8080 \
//   GATEHOUSE_RESOURCE_URL=http://localhost:3000/mcp npx tsx packages/sdk/examples/mcp-oauth-server.ts
// and point an MCP client at http://localhost:3000/mcp. PORT changes the port it listens on.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { createMeter } from '@gatehouse/sdk';
import { customerOf, withMcpSignIn } from '@gatehouse/sdk/mcp';

const meter = createMeter();

function weatherServer(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.0.0' });
  server.registerTool('forecast', { description: "Tomorrow's weather", inputSchema: { city: z.string() } }, ({ city }, extra) => ({
    content: [{ type: 'text', text: `Sunny in ${city}, for ${customerOf(extra).id}` }],
  }));
  return server;
}

// Stateless streamable HTTP: a fresh server per request. Metadata, 401 challenges, token checks,
// the 403 for a missing permission and metering all happen in withMcpSignIn.
const mcp = withMcpSignIn(meter, async (req, res) => {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const server = weatherServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}, { toolPermissions: { forecast: 'read:weather' } });

const port = Number(process.env.PORT ?? 3000);
createServer(mcp).listen(port, () => {
  console.log(`MCP server for ${mcp.guard.resource} on port ${port}; metadata at ${mcp.guard.metadataUrl}`);
});
meter.ready.then(() => {
  if (!mcp.guard.registered) console.warn(`${mcp.guard.resource} is not a registered server of this API: register it in the console (sign-in, servers)`);
});

process.once('SIGTERM', () => void meter.close().then(() => process.exit(0)));
process.once('SIGINT', () => void meter.close().then(() => process.exit(0)));
