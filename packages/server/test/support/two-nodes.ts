// Two real server processes (node dist/main.js serve) on one PostgreSQL database and one Redis,
// as behind a load balancer: the same BASE_URL and SECRET_KEY on both, each on its own port.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A database of its own (not a schema of the shared one): advisory locks (migrations, jobs) and
 * LISTEN/NOTIFY channels are per database, so other tests running at the same time cannot take
 * this test's locks or hear its notifications.
 */
export async function freshPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gh_two_nodes_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export interface Node {
  name: string;
  port: number;
  process: ChildProcess;
  /** What the process wrote to stderr and stdout (for failure messages). */
  output(): string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `gatehouse serve`; resolves once the process runs (not yet ready: see `waitReady`). */
export function startNode(name: string, port: number, env: Record<string, string>): Node {
  const child = spawn(process.execPath, [MAIN, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), DATA_DIR: mkdtempSync(join(tmpdir(), `gh-${name}-`)), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr!.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    name,
    port,
    process: child,
    output: () => output,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * An HTTP request to one node, with the Host of `url` (the load balancer's name, which every
 * node serves), as the balancer would forward it. fetch cannot set Host, so node:http does it.
 */
export function callNode(port: number, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: init.method ?? 'GET', path: target.pathname + target.search, headers: { ...init.headers, host: target.host }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
    req.end(init.body);
  });
}

/** A fetch for the SDK that sends each call to the next node in turn (a round-robin balancer). */
export function roundRobinFetch(ports: () => number[]): typeof fetch {
  let next = 0;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const list = ports();
    const port = list[next++ % list.length]!;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
    const answer = await callNode(port, url, { method: init?.method ?? 'GET', headers, ...(typeof init?.body === 'string' ? { body: init.body } : {}) });
    const out = new Headers();
    for (const [key, value] of Object.entries(answer.headers)) if (typeof value === 'string') out.set(key, value);
    return new Response(answer.status === 304 || answer.status === 204 ? null : answer.text, { status: answer.status, headers: out });
  }) as typeof fetch;
}

/** Polls `check` until it holds; fails with its last answer after `withinMs`. */
export async function seenWithin<T>(withinMs: number, read: () => Promise<T>, holds: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + withinMs;
  let last: T;
  for (;;) {
    last = await read();
    if (holds(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${withinMs} ms; last: ${JSON.stringify(last).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
