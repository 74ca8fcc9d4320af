// Runs test files as separate node processes, a few at a time, and answers what each did: its
// wall time, the time its tests took (from the timing reporter), its test count and its output.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const REPORTER = join(import.meta.dirname, 'timing-reporter.mjs');
const running = new Set();
let counter = 0;

/** Kills every test file still running, with whatever it started (each runs in its own group). */
export function killAll() {
  for (const child of running) {
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

/**
 * @param {object} options
 * @param {{ file: string, run: string }[]} options.files  `file` as reported, `run` the path node loads
 * @param {string[]} options.nodeArgs  arguments before the file (e.g. --import tsx)
 * @param {number} options.concurrency
 * @param {number} options.timeoutMs  a file still running after it is killed and fails
 * @param {Record<string, string>} options.env
 * @param {string} options.scratch  a folder for the reporters' files
 * @param {(result: FileResult) => void} options.onDone
 */
export async function runFiles({ files, nodeArgs, concurrency, timeoutMs, env, scratch, onDone }) {
  const queue = [...files];
  const results = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = await runFile(next, { nodeArgs, timeoutMs, env, timings: join(scratch, `${++counter}.jsonl`) });
      results.push(result);
      onDone(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return results;
}

function runFile({ file, run }, { nodeArgs, timeoutMs, env, timings }) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${timings}`, run],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  running.add(child);
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  let timedOut = false;
  // node:test's --test-timeout applied to a whole file under --test (Node 20); the same bound here.
  const timer = setTimeout(() => {
    timedOut = true;
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const wallMs = performance.now() - started;
      const lines = readEvents(timings);
      const events = lines.filter((e) => e.name !== undefined);
      const cpuMs = lines.find((e) => e.cpuMs !== undefined)?.cpuMs ?? 0;
      const tests = events.filter((e) => !e.suite);
      const topLevelMs = events.filter((e) => e.nesting === 0).reduce((sum, e) => sum + e.ms, 0);
      let text = Buffer.concat(output).toString('utf8');
      if (timedOut) text += `\n✖ ${file}: killed after ${timeoutMs / 1000} s\n`;
      else if (code !== 0 && !tests.some((e) => !e.ok)) text += `\n✖ ${file}: exited with ${signal ?? code}\n`;
      resolve({
        file,
        ok: code === 0 && !timedOut,
        wallMs,
        testMs: Math.min(topLevelMs, wallMs),
        cpuMs,
        tests: tests.length,
        failed: tests.filter((e) => !e.ok).length,
        skipped: tests.filter((e) => e.skipped || e.todo).length,
        output: text,
      });
    });
  });
}

function readEvents(path) {
  try {
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    rmSync(path, { force: true });
    return lines.map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}
