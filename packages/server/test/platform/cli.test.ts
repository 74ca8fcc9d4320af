// The `gatehouse` command as a person meets it (issue 25 items 1, 3 and 6): --help and --version,
// a bad setting stopped with one line, and `serve` on an empty data folder saying where its data
// is, what it migrated, where the console and the dev outbox are and what to do next; log lines
// pretty when asked (a terminal in development), JSON otherwise. Runs the built dist/main.js.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { freePort } from '../support/two-nodes.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const baseEnv = { PATH: process.env.PATH ?? '' };

function run(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [MAIN, ...args], { env: { ...baseEnv, DATA_DIR: mkdtempSync(join(tmpdir(), 'gh-cli-')), ...env }, encoding: 'utf8', timeout: 60_000 });
}

/** Runs `gatehouse serve` until it has printed its next step (or its report) and answered /readyz. */
async function serveUntilReady(dataDir: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN, 'serve'], { env: { ...baseEnv, PORT: String(port), DATA_DIR: dataDir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (const deadline = Date.now() + 110_000; ; ) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
      if (ready && output.includes('dev outbox')) {
        // One request, so a request log line is written too.
        await fetch(`http://127.0.0.1:${port}/healthz`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return output.replaceAll(String(port), '<port>');
      }
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`not ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

test('--version prints the package version; --help the commands; an unknown command the usage and exit 2', () => {
  const version = run(['--version']);
  assert.equal(version.status, 0);
  assert.equal(version.stdout, `${VERSION}\n`);
  const help = run(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: gatehouse \[command\]/);
  assert.match(help.stdout, /serve .*\n.*\n\s+migrate/);
  const unknown = run(['start']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^gatehouse: unknown command "start"\n\nUsage:/);
});

test('a bad LOG_LEVEL stops the process with one line naming the allowed levels; a good one runs', () => {
  const bad = run(['migrate'], { LOG_LEVEL: 'verbose' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr, 'gatehouse: bad setting LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent; got "verbose"\n');
  assert.equal(bad.stdout, '');
  const good = run(['migrate'], { LOG_LEVEL: 'warn' });
  assert.equal(good.status, 0, good.stderr);
  assert.match(good.stdout, /applied \d+ migrations/);
});

test('serve on an empty folder names it, migrates, prints the addresses and the next step; the next start is quieter', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-cli-serve-'));
  const first = await serveUntilReady(dataDir, { LOG_FORMAT: 'pretty' });
  assert.ok(first.includes(`database embedded PGlite in ${join(dataDir, 'pglite')}`), first);
  assert.match(first, /migrating…\napplied \d+ migrations \(\d+\.\d s\)/);
  assert.ok(first.includes('console       http://localhost:<port>\n'), first);
  assert.ok(first.includes('dev outbox    http://localhost:<port>/dev/mail'), first);
  assert.ok(first.includes('Next: open http://localhost:<port> and create your account'), first);
  // pino-pretty's line, not JSON.
  assert.match(first, /INFO.*request completed/);
  assert.equal(/^\{"level"/m.test(first), false, first);

  const second = await serveUntilReady(dataDir, {});
  assert.match(second, /migrations are current/);
  assert.equal(second.includes('Next:'), false, 'the next step is for the first run');
  assert.match(second, /^\{"level":30,.*"msg":"request completed"/m);
});
