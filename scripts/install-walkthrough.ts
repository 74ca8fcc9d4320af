// A new user's first run, from the packages as npm would deliver them (issue 25): the three
// packages are packed, installed from their tarballs in an empty folder (their dependencies from
// the registry), `npx gatehouse` (the command of `@gatehouse/server`) serves on an embedded database there, an owner signs up and
// registers an API through the console API, and the SDK README's Express example, installed from
// its tarball with Express into another empty project, meters a request of a customer against it.
//
//   npm run build && node --import tsx scripts/install-walkthrough.ts [--node /path/to/node]…
//
// Each --node runs the whole flow on that Node binary (npm, npx and both servers run on it);
// without one, on this process's Node. `scripts/pack-and-run.mjs` runs it on Node 22 and 24 in CI.
// GH_PACKS=<folder> uses tarballs packed already. Exits 1 on any mismatch.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import semver from 'semver';

const root = join(import.meta.dirname, '..');
const started = performance.now();
const seconds = (since = started) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const step = (text: string) => console.log(`  - ${text}`);
const children: ChildProcess[] = [];
const folders: string[] = [];

class Mismatch extends Error {}
function expect(what: string, ok: boolean, detail = ''): void {
  if (!ok) throw new Mismatch(`${what}${detail ? `: ${detail}` : ''}`);
}

function nodeBinaries(): string[] {
  const args = process.argv.slice(2);
  const nodes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--node' && args[i + 1]) nodes.push(args[++i]!);
    else throw new Error(`usage: install-walkthrough.ts [--node /path/to/node]… (got ${args[i]})`);
  }
  return nodes.length ? nodes : [process.execPath];
}

/** Runs a command to its end with `node` first on PATH (so npm, npx and bins run on it). */
function run(node: string, command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env, PATH: `${dirname(node)}:${process.env.PATH}` }, timeout: 300_000 });
  if (result.status !== 0) throw new Mismatch(`${command} ${args.join(' ')} in ${cwd} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A long-running process whose output is kept, for the readiness check and failure messages. */
function start(node: string, command: string, args: string[], cwd: string, env: Record<string, string>) {
  // A process group of its own: npx runs the server under a shell, and stopping must reach it.
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env, PATH: `${dirname(node)}:${process.env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  const process_ = { child, output: '' };
  child.stdout!.on('data', (chunk) => (process_.output += chunk));
  child.stderr!.on('data', (chunk) => (process_.output += chunk));
  return process_;
}

/** Signals the whole process group of a started process (npx, its shell and the server). */
function stop(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

async function until<T>(what: string, within: number, read: () => Promise<T | undefined>, alive?: { child: ChildProcess; output: string }): Promise<T> {
  const deadline = Date.now() + within;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (alive && alive.child.exitCode !== null) throw new Mismatch(`${what}: the process exited ${alive.child.exitCode}:\n${alive.output}`);
    if (Date.now() > deadline) throw new Mismatch(`${what}: not within ${within / 1000} s${alive ? `; its output:\n${alive.output}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** npm pack of the three packages (prepack puts the console web app into `@gatehouse/server`). */
function pack(): { dir: string; server: string; sdk: string; protocol: string } {
  let dir = process.env.GH_PACKS;
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'gh-packs-'));
    folders.push(dir);
    const packed = spawnSync('npm', ['pack', '-w', 'packages/protocol', '-w', 'packages/sdk', '-w', 'packages/server', '--pack-destination', dir, '--silent'], { cwd: root, encoding: 'utf8' });
    if (packed.status !== 0) throw new Mismatch(`npm pack failed:\n${packed.stderr}`);
  }
  const find = (pattern: RegExp) => {
    const name = readdirSync(dir).find((file) => pattern.test(file));
    if (!name) throw new Mismatch(`no tarball matching ${pattern} in ${dir}`);
    return join(dir, name);
  };
  return { dir, server: find(/^gatehouse-server-/), sdk: find(/^gatehouse-sdk-/), protocol: find(/^gatehouse-protocol-/) };
}

/** Every package of an installed tree supports each Node version `engines` names. */
function checkEngines(folder: string, declared: string): number {
  let checked = 0;
  const visit = (modules: string) => {
    let names: string[];
    try {
      names = readdirSync(modules);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) {
        visit(join(modules, name));
        continue;
      }
      const dir = join(modules, name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; version: string; engines?: { node?: string } };
      const range = manifest.engines?.node;
      if (range) {
        checked++;
        expect(`engines: ${manifest.name}@${manifest.version} needs node ${range}, narrower than our ${declared}`, semver.subset(declared, range));
      }
      visit(join(dir, 'node_modules'));
    }
  };
  visit(join(folder, 'node_modules'));
  return checked;
}

/** The console API as the owner who signs up: a cookie jar and X-Requested-With. */
function consoleClient(base: string) {
  const cookies = new Map<string, string>();
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api${path}`, {
      method,
      headers: { 'x-requested-with': 'install-walkthrough', ...(body === undefined ? {} : { 'content-type': 'application/json' }), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    const json = await response.json().catch(() => null);
    if (!response.ok) throw new Mismatch(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json as any;
  };
}

/** The first ```js block of the section `## <heading>` of a README. */
function readmeBlock(readme: string, heading: string): string {
  const section = readme.indexOf(`\n## ${heading}\n`);
  expect(`the SDK README has a section "${heading}"`, section >= 0);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(section));
  expect(`the section "${heading}" has a js block`, block !== null);
  return block![1]!;
}

async function walk(node: string, packs: ReturnType<typeof pack>) {
  const since = performance.now();
  const version = run(node, node, ['--version'], root).trim();
  console.log(`\nNode ${version} (${node})`);
  const declared = (JSON.parse(readFileSync(join(root, 'packages', 'server', 'package.json'), 'utf8')) as { version: string; engines: { node: string } });
  expect(`Node ${version} is one the packages support (${declared.engines.node})`, semver.satisfies(version, declared.engines.node));

  // 1. The server, from its tarballs, in an empty folder. --engine-strict: a dependency that does
  // not support this Node fails the install instead of warning.
  const serverDir = mkdtempSync(join(tmpdir(), 'gh-install-server-'));
  folders.push(serverDir);
  let at = performance.now();
  run(node, 'npm', ['install', '--engine-strict', '--no-audit', '--no-fund', '--loglevel=error', packs.protocol, packs.server], serverDir);
  step(`npm install of the @gatehouse/server and @gatehouse/protocol tarballs in an empty folder: ${seconds(at)}`);
  const engines = checkEngines(serverDir, declared.engines.node);
  step(`every one of the ${engines} installed packages that names a Node version supports ${declared.engines.node}`);
  const shownVersion = run(node, 'npx', ['--no-install', 'gatehouse', '--version'], serverDir).trim();
  expect('gatehouse --version', shownVersion === declared.version, shownVersion);

  const port = await freePort();
  const base = `http://localhost:${port}`;
  at = performance.now();
  const server = start(node, 'npx', ['--no-install', 'gatehouse'], serverDir, { PORT: String(port), LOG_LEVEL: 'warn' });
  await until('gatehouse answers /readyz', 120_000, async () => ((await fetch(`${base}/readyz`)).status === 200 && server.output.includes('Next:') ? true : undefined), server);
  step(`npx gatehouse: ready in ${seconds(at)}`);
  const firstRun = server.output;
  expect('it names its data folder', firstRun.includes(`database embedded PGlite in ${join(serverDir, '.data', 'pglite')}`), firstRun);
  expect('it prints the console address', firstRun.includes(`console       ${base}\n`), firstRun);
  expect('it prints the dev outbox address', firstRun.includes(`dev outbox    ${base}/dev/mail`), firstRun);
  expect('it prints the next step', /Next: open .* and create your account/.test(firstRun), firstRun);
  const consoleHtml = await (await fetch(`${base}/`)).text();
  expect('the console web app is served from the package', /<script type="module"[^>]+src="\/assets\//.test(consoleHtml), consoleHtml.slice(0, 300));
  step(`it printed its data folder, ${base} for the console, the dev outbox and the next step; the console web app answers at /`);

  // 2. An owner, as the next step says: sign up with the code from the dev outbox, register an API.
  const call = consoleClient(base);
  const email = `owner-${Date.now()}@example.com`;
  await call('POST', '/auth/signup', { email });
  const code = await until('the sign-up code in the dev outbox', 20_000, async () => {
    const { mails } = (await (await fetch(`${base}/dev/mail.json`)).json()) as { mails: { to: string; text: string }[] };
    return mails.find((mail) => mail.to === email)?.text.match(/\b\d{6}\b/)?.[0];
  });
  const { ticket } = await call('POST', '/auth/signup/verify', { email, code });
  const { workspace_id: workspace } = await call('POST', '/auth/signup/complete', { ticket, name: 'Ivy Installer', password: 'correct horse battery' });
  const { api, secret } = await call('POST', `/workspaces/${workspace}/apis`, { name: 'Forecasts', preset: 'payg' });
  expect('a new API is on the self-hosted plan', api.plan.code === 'self_hosted', api.plan.code);
  const customer = await call('POST', `/apis/${api.id}/customers`, { name: 'Acme', email: 'billing@acme.example' });
  const { key } = await call('POST', `/apis/${api.id}/customers/${customer.id}/keys`, { name: 'production' });
  step(`signed up ${email} with the mailed code, registered ${api.name} (${api.plan.name} plan), added customer ${customer.id} with a key`);

  // 3. The SDK README's Express example, unchanged, in another empty project.
  const appDir = mkdtempSync(join(tmpdir(), 'gh-install-app-'));
  folders.push(appDir);
  at = performance.now();
  run(node, 'npm', ['install', '--engine-strict', '--no-audit', '--no-fund', '--loglevel=error', 'express', packs.protocol, packs.sdk], appDir);
  step(`npm install express and the @gatehouse/sdk and @gatehouse/protocol tarballs in an empty project: ${seconds(at)}`);
  const example = readmeBlock(readFileSync(join(appDir, 'node_modules', '@gatehouse', 'sdk', 'README.md'), 'utf8'), 'Express');
  writeFileSync(join(appDir, 'server.mjs'), example);
  const appPort = await freePort();
  const app = start(node, node, ['server.mjs'], appDir, { GATEHOUSE_SECRET_KEY: secret, GATEHOUSE_BASE_URL: base, PORT: String(appPort) });
  const appBase = `http://127.0.0.1:${appPort}`;
  await until('the Express example answers', 60_000, async () => ((await fetch(`${appBase}/forecast`)).status > 0 ? true : undefined), app);
  const keyless = await fetch(`${appBase}/forecast`);
  expect('a request without a key gets 401', keyless.status === 401, String(keyless.status));
  const keyed = await fetch(`${appBase}/forecast`, { headers: { 'x-api-key': key } });
  const answer = (await keyed.json()) as { customer?: string };
  expect('a request with the key reaches the route', keyed.status === 200 && answer.customer === customer.id, JSON.stringify(answer));
  step(`the README's Express example (${example.split('\n').filter(Boolean).length} lines) answers 401 without a key and 200 {"customer":"${customer.id}",…} with it`);

  // 4. Gatehouse meters it: one request this month, charged at the payg price.
  const metered = await until('Gatehouse counts the request', 30_000, async () => {
    const detail = await call('GET', `/apis/${api.id}/customers/${customer.id}`);
    return detail.month_requests >= 1 ? detail : undefined;
  });
  expect('exactly one request is counted', metered.month_requests === 1, String(metered.month_requests));
  expect('the request is charged once', metered.balance_micro === customer.balance_micro - api.price_per_request_micro, `${metered.balance_micro} after ${customer.balance_micro}`);
  step(`Gatehouse metered it: month_requests 1, balance ${customer.balance_micro} → ${metered.balance_micro} micro units`);

  for (const child of [app.child, server.child]) stop(child, 'SIGTERM');
  console.log(`  OK on Node ${version} in ${seconds(since)}`);
}

let failed = false;
try {
  const versions = spawnSync(process.execPath, [join(root, 'scripts', 'set-version.mjs'), '--check'], { encoding: 'utf8' });
  expect('the three packages share one version', versions.status === 0, versions.stderr);
  console.log(versions.stdout.trim());
  let at = performance.now();
  const packs = pack();
  console.log(`packed ${[packs.server, packs.sdk, packs.protocol].map((file) => file.slice(packs.dir.length + 1)).join(', ')} in ${seconds(at)}`);
  for (const node of nodeBinaries()) await walk(node, packs);
  console.log(`\nOK in ${seconds()}`);
} catch (error) {
  failed = true;
  console.error(`\nMISMATCH ${error instanceof Mismatch ? error.message : (error as Error).stack}`);
} finally {
  for (const child of children) stop(child, 'SIGKILL');
  if (!process.env.GH_KEEP) for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
