// The README's examples, run as written (issue 4: "a working five-line Express example and a
// working MCP example"). Each code block is read from packages/sdk/README.md, saved as a module
// and run in a child process against a real Gatehouse, configured the way the README says (the
// two environment variables), with one change: the port it listens on. The child imports
// `@gatehouse/sdk` by its package name, so it runs the built package, as a user would.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { patchApi } from './support/gatehouse.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

let t: TestApp;
let api: ApiFixture;
let customer: { id: string };
let key: string;
const children: ChildProcess[] = [];
const folders: string[] = [];

before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Readme Weather' });
  await patchApi(api, { rps: 0 }); // an MCP session opens with a burst of requests
  customer = await createCustomer(t, api);
  key = (await createKey(api, customer.id)).key;
});
after(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await t.close();
});

/** The first ```js block after the README heading `## <heading>`. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const section = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(section >= 0, `README has a section "${heading}"`);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(section));
  assert.ok(block, `the section "${heading}" has a js block`);
  return block[1]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Runs `code` (which listens on 3000, or on PORT when set) on a free port, in a folder of its own inside the package,
 * so that its imports resolve like an installed project's and its journal lands in that folder.
 * Resolves with the base URL once the server answers.
 */
async function runExample(code: string, env: (port: number) => Record<string, string> = () => ({})): Promise<string> {
  assert.match(code, /\.listen\((process\.env\.PORT \?\? )?3000\)/);
  const port = await freePort();
  const folder = mkdtempSync(join(packageRoot, '.readme-example-'));
  folders.push(folder);
  const file = join(folder, 'server.mjs');
  writeFileSync(file, code.replace('.listen(3000)', '.listen(Number(process.env.PORT))'));
  const child = spawn(process.execPath, [file], {
    cwd: folder,
    env: { ...process.env, GATEHOUSE_SECRET_KEY: api.secret, GATEHOUSE_BASE_URL: t.url, PORT: String(port), ...env(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 200; tries++) {
    assert.equal(child.exitCode, null, `the example exited: ${stderr}`);
    const up = await fetch(base).then(
      () => true,
      () => false,
    );
    if (up) return base;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`the example never answered: ${stderr}`);
}

/** Waits (up to 20 s) until Gatehouse shows at least `requests` requests of the customer this month. */
async function untilReported(requests: number): Promise<number> {
  let seen = 0;
  for (let tries = 0; tries < 100; tries++) {
    seen = (await customerDetail(api, customer.id)).month_requests as number;
    if (seen >= requests) return seen;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`Gatehouse shows ${seen} requests, expected ${requests}`);
}

test('"Express": a keyless request gets 401 before the route, a keyed one the route, and Gatehouse counts it', async () => {
  const base = await runExample(readmeBlock('Express'));

  const keyless = await fetch(`${base}/forecast`);
  assert.equal(keyless.status, 401);
  assert.equal(keyless.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
  assert.equal(((await keyless.json()) as { error: string }).error, 'missing_key');

  const before = (await customerDetail(api, customer.id)).month_requests as number;
  const answer = await fetch(`${base}/forecast`, { headers: { 'x-api-key': key } });
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { customer: customer.id, forecast: 'sunny' });
  assert.equal(await untilReported(before + 1), before + 1, 'the keyed request, once; the refused one is not reported');
});

test('"MCP": an MCP client with the key as Bearer calls the tool as its customer; without a key it cannot connect', async () => {
  const base = await runExample(readmeBlock('MCP'));
  const before = (await customerDetail(api, customer.id)).month_requests as number;

  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  const tools = await client.listTools();
  assert.deepEqual(tools.tools.map((tool) => tool.name), ['forecast']);
  const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
  assert.deepEqual(result.content, [{ type: 'text', text: `Sunny in Oslo, for ${customer.id}` }]);
  await client.close();

  const stranger = new Client({ name: 'readme-test', version: '1.0.0' });
  await assert.rejects(stranger.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`))), /401|missing_key/);

  // initialize, its notification, tools/list and tools/call at least, all metered.
  assert.ok((await untilReported(before + 4)) >= before + 4);
});

test('"An MCP server that agents sign in to": metadata naming the issuer, a 401 challenge pointing at it, and keys still work', async () => {
  const base = await runExample(readmeBlock('An MCP server that agents sign in to'), (port) => ({ GATEHOUSE_RESOURCE_URL: `http://127.0.0.1:${port}/mcp` }));
  const { portal_url: issuer } = (await api.owner.client.get(`/apis/${api.apiId}`)).body as { portal_url: string };
  const metadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
  assert.equal(metadata.status, 200);
  // No server is registered at this URL: it advertises openid, which the issuer always accepts.
  assert.deepEqual(await metadata.json(), { resource: `${base}/mcp`, authorization_servers: [issuer], scopes_supported: ['openid'], bearer_methods_supported: ['header'] });

  const keyless = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
  assert.equal(keyless.status, 401);
  assert.equal(keyless.headers.get('www-authenticate'), `Bearer scope="read:weather", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);

  const before = (await customerDetail(api, customer.id)).month_requests as number;
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  const result = await client.callTool({ name: 'forecast', arguments: {} });
  assert.deepEqual(result.content, [{ type: 'text', text: `Sunny, for ${customer.id}` }]);
  await client.close();
  assert.ok((await untilReported(before + 3)) >= before + 3);
});
