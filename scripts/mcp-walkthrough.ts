// An MCP server that agents sign in to, end to end against a running server (`npm start`), as a
// new user would try it: `node --import tsx scripts/mcp-walkthrough.ts` (GATEHOUSE, default
// http://localhost:8080; run `npm run build` first, the example imports the built SDK).
// An owner signs up, creates an API with apps people connect turned on and registers the example's
// MCP endpoint as a server; packages/sdk/examples/mcp-oauth-server.ts runs; the MCP SDK's own client
// signs in through dynamic registration (a person signs up on the pages with the code from the dev
// outbox, the owner gives them a role, they allow the app), calls the tool, and the person's
// customer's month_requests must grow by exactly one. Exits 1 on any mismatch.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleCall, G, mailedCode, signUpOwner, sleep, step, tag } from './walkthrough-kit.js';
import { agentFetch, finishSignIn, MemoryOAuthProvider, signUpAndConsent, startSignIn } from '../packages/sdk/test/support/mcp-agent.js';

const REPORT_WAIT_MS = 20_000; // the example's meter reports every 5 s

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

// ---- The owner: an account, an API with apps people connect, the MCP server registered, a role.
const owner = `owner-${tag}@example.com`;
const ws = await signUpOwner(owner);
const { api, secret } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Weather MCP ${tag}` });
await consoleCall('PATCH', `/apis/${api.id}`, { rps: 0 }); // an MCP session opens with a burst of requests
await consoleCall('PATCH', `/apis/${api.id}/signin`, { connected_apps: 'on' });
const port = await freePort();
const resource = `http://localhost:${port}/mcp`;
const server = await consoleCall('POST', `/apis/${api.id}/signin/servers`, { name: 'Weather MCP', resource_url: resource, permissions: [{ name: 'read:weather', description: 'Read forecasts' }] });
const role = await consoleCall('POST', `/apis/${api.id}/signin/roles`, { name: 'forecaster', permissions: [{ server_id: server.id, permission: 'read:weather' }] });
step(`owner ${owner} created ${api.name} (issuer ${api.portal_url}), apps people connect on, server ${resource} with read:weather`);

// ---- The example MCP server, configured by its three variables.
// In a folder of its own: the example's meter keeps its usage journal in ./.gatehouse.
const example = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../packages/sdk/examples/mcp-oauth-server.ts', import.meta.url))], {
  cwd: mkdtempSync(join(tmpdir(), 'mcp-walkthrough-')),
  env: { ...process.env, GATEHOUSE_SECRET_KEY: secret, GATEHOUSE_BASE_URL: G, GATEHOUSE_RESOURCE_URL: resource, PORT: String(port) },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let exampleOutput = '';
example.stdout!.on('data', (chunk: Buffer) => (exampleOutput += chunk.toString()));
example.stderr!.on('data', (chunk: Buffer) => (exampleOutput += chunk.toString()));
const stopExample = () => example.exitCode === null && example.signalCode === null && example.kill('SIGTERM');
process.on('exit', stopExample);

let failed = false;
try {
  const metadataUrl = `http://localhost:${port}/.well-known/oauth-protected-resource/mcp`;
  let metadata: any = null;
  for (let tries = 0; tries < 100 && !metadata; tries++) {
    if (example.exitCode !== null) throw new Error(`the example exited: ${exampleOutput}`);
    metadata = await fetch(metadataUrl).then((r) => (r.ok ? r.json() : null), () => null);
    if (!metadata) await sleep(100);
  }
  if (!metadata) throw new Error(`the example never served its metadata: ${exampleOutput}`);
  step(`example running: ${exampleOutput.trim().split('\n')[0]}`);
  step(`protected resource metadata: ${JSON.stringify(metadata)}`);

  // ---- The agent: the MCP SDK's client, its requests counted (each admitted one is metered once).
  let admitted = 0;
  let inFlight = 0;
  const countingFetch = (async (url: string | URL, init?: RequestInit) => {
    const toMcp = String(url) === resource;
    if (toMcp) inFlight++;
    try {
      const response = await agentFetch(url, init);
      if (toMcp && response.status !== 401 && response.status !== 403) admitted++;
      return response;
    } finally {
      if (toMcp) inFlight--;
    }
  }) as typeof fetch;
  const provider = new MemoryOAuthProvider();
  const { transport, authorizationUrl } = await startSignIn(resource, provider, countingFetch);
  step(`the client got 401, read the metadata, registered itself as ${provider.client?.client_id} and opens ${authorizationUrl.origin}${authorizationUrl.pathname}?scope=${authorizationUrl.searchParams.get('scope')}&resource=${authorizationUrl.searchParams.get('resource')}`);

  const person = `person-${tag}@example.com`;
  let customerId = '';
  const { code } = await signUpAndConsent(api.portal_url, authorizationUrl, {
    email: person,
    code: () => mailedCode(person, /sign-up code/),
    beforeConsent: async () => {
      const { people } = await consoleCall('GET', `/apis/${api.id}/signin/people?q=${encodeURIComponent(person)}`);
      await consoleCall('PUT', `/apis/${api.id}/signin/people/${people[0].id}/roles`, { role_ids: [role.id] });
      const { customers } = await consoleCall('GET', `/apis/${api.id}/customers?q=${encodeURIComponent(person)}`);
      customerId = customers[0].id;
    },
  });
  step(`${person} signed up on the pages (code from the dev outbox), became customer ${customerId}, got the forecaster role, allowed the app`);
  const client = await finishSignIn(resource, provider, transport, code, countingFetch);
  step(`token: scope "${provider.tokens()?.scope}", expires in ${provider.tokens()?.expires_in} s; connected`);

  const monthRequests = async () => (await consoleCall('GET', `/apis/${api.id}/customers/${customerId}`)).month_requests as number;
  /** Waits until Gatehouse shows `expected` requests (the meter reports every 5 s), then answers what it shows. */
  async function reported(expected: number): Promise<number> {
    let seen = await monthRequests();
    for (const until = Date.now() + REPORT_WAIT_MS; seen < expected && Date.now() < until; seen = await monthRequests()) await sleep(500);
    return seen;
  }
  // The client opens its optional GET stream in the background after connecting; let it finish.
  for (let tries = 0; tries < 50 && inFlight > 0; tries++) await sleep(100);
  const before = await reported(admitted);
  if (before !== admitted) throw new Error(`before the tool call Gatehouse shows ${before} requests, the client made ${admitted}`);
  const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
  step(`tools/call forecast: ${JSON.stringify(result.content)}`);
  const after = await reported(before + 1);
  await sleep(6_000); // one more report interval: nothing else may arrive
  const settled = await monthRequests();
  step(`customer ${customerId} month_requests: ${before} before the call, ${settled} after`);
  await client.close();
  if (settled !== before + 1 || after !== before + 1) throw new Error(`month_requests grew by ${settled - before}, expected 1`);
  step('OK: the tool call shows in the customer\'s month_requests, once');
} catch (error) {
  failed = true;
  console.error(`FAILED: ${(error as Error).message}`);
  if (exampleOutput) console.error(`example output:\n${exampleOutput}`);
} finally {
  stopExample();
}
process.exit(failed ? 1 : 0);
