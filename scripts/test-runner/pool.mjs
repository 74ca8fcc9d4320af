// Runs test files in node processes, a few processes at a time and several files in each
// (group-entry.mjs, one after the other), and answers what each file did: its wall time, the time
// its tests took (from the timing reporter), its CPU, its test count and whether it passed.
//
// A file still running after the file timeout is killed with its process and fails; the files of
// its group that had not started yet go back to the queue and run in another process. The same
// happens when a process dies in the middle of a file (process.exit, a crash): that file fails,
// the ones after it run elsewhere.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const REPORTER = join(import.meta.dirname, 'timing-reporter.mjs');
const ENTRY = join(import.meta.dirname, 'group-entry.mjs');
const running = new Set();
let counter = 0;

/** Kills every test process still running, with whatever it started (each runs in its own group). */
export function killAll() {
  for (const child of running) {
    try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

/**
 * @param {object} options
 * @param {{ file: string, run: string, alone?: boolean }[]} options.files  `file` as reported, `run`
 *   the path node loads, `alone` for a file that gets a process of its own
 * @param {string[]} options.nodeArgs  arguments before the entry (e.g. --import tsx)
 * @param {number} options.concurrency  processes at a time
 * @param {number} options.groupSize  files at most in one process
 * @param {number} options.timeoutMs  a file still running after this is killed and fails
 * @param {Record<string, string>} options.env
 * @param {string} options.scratch  a folder for the reporters' files
 * @param {(group: { results: FileResult[], output: string, wallMs: number, requeued: string[] }) => void} options.onGroup
 * @returns {Promise<{ results: FileResult[], processes: number, startMs: number, processCpuMs: number }>}
 */
export async function runFiles({ files, nodeArgs, concurrency, groupSize, timeoutMs, env, scratch, onGroup }) {
  const queue = [...files];
  const results = [];
  let processes = 0;
  let startMs = 0; // wall time of the processes outside any file: node's start, the entry
  let processCpuMs = 0;
  const take = () => {
    const first = queue.shift();
    if (!first || first.alone) return first ? [first] : [];
    const group = [first];
    while (group.length < groupSize && queue.length) {
      const at = queue.findIndex((f) => !f.alone);
      if (at < 0) break;
      group.push(...queue.splice(at, 1));
    }
    return group;
  };
  const worker = async () => {
    for (let group = take(); group.length; group = take()) {
      processes++;
      const done = await runGroup(group, { nodeArgs, timeoutMs, env, timings: join(scratch, `${++counter}.jsonl`) });
      processCpuMs += done.processCpuMs ?? 0;
      startMs += Math.max(0, done.wallMs - done.results.reduce((sum, r) => sum + r.wallMs, 0));
      results.push(...done.results);
      // Files a dead process never reached run in another, ahead of the rest (they were next).
      queue.unshift(...group.filter((f) => done.requeued.includes(f.file)));
      onGroup(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { results, processes, startMs, processCpuMs };
}

function runGroup(group, { nodeArgs, timeoutMs, env, timings }) {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${timings}`,
      ENTRY, ...group.map((f) => `${f.file}=${f.run}`)],
    // fd 3: the entry's line per file start and end (GH_TEST_PROGRESS_FD).
    { env: { ...env, GH_TEST_PROGRESS_FD: '3' }, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true },
  );
  running.add(child);
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const progress = new Map(); // file → { startedAt, end?: { wallMs, cpuMs } }
  let current = null;
  let timedOut = null;
  let timer = null;
  // node:test's --test-timeout applied to a whole file under --test (Node 20); the same bound here,
  // counted from each file's start.
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = current;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, timeoutMs);
  };
  arm();
  let pending = '';
  child.stdio[3].on('data', (chunk) => {
    pending += chunk.toString('utf8');
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const event = JSON.parse(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (event.start) {
        current = event.start;
        progress.set(event.start, { startedAt: performance.now() });
        arm();
      } else if (event.end) {
        progress.get(event.end).end = event;
        current = null;
      }
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const wallMs = performance.now() - started;
      const lines = readEvents(timings);
      // Events in order; a depth-0 line is the suite of one file and closes it.
      const perFile = new Map();
      let open = [];
      for (const e of lines.filter((l) => l.name !== undefined)) {
        if (e.nesting === 0) {
          perFile.set(e.name, { suite: e, events: open });
          open = [];
        } else open.push(e);
      }
      const processCpuMs = lines.find((e) => e.cpuMs !== undefined)?.cpuMs;
      let text = Buffer.concat(output).toString('utf8');
      const results = [];
      const requeued = [];
      // Files not reached run again in another process, unless this one reached none (then the
      // entry itself is broken, and another process would fare no better).
      const reachedAny = progress.size > 0;
      for (const { file } of group) {
        const step = progress.get(file);
        if (!step) {
          if (reachedAny) requeued.push(file);
          else {
            text += `\n✖ ${file}: never started (its process ended with ${signal ?? code})\n`;
            results.push(failure(file, 0, 'never started'));
          }
          continue;
        }
        if (!step.end) {
          const ranMs = performance.now() - step.startedAt;
          const why = timedOut === file ? `killed after ${timeoutMs / 1000} s` : `its process ended with ${signal ?? code} during it`;
          text += `\n✖ ${file}: ${why}\n`;
          results.push(failure(file, ranMs, why, perFile.get(file)?.events ?? open));
          continue;
        }
        const { suite, events = [] } = perFile.get(file) ?? {};
        const tests = events.filter((e) => !e.suite);
        const topLevelMs = events.filter((e) => e.nesting === 1).reduce((sum, e) => sum + e.ms, 0);
        results.push({
          file,
          ok: suite?.ok ?? false,
          wallMs: step.end.wallMs,
          testMs: Math.min(topLevelMs, step.end.wallMs),
          cpuMs: step.end.cpuMs,
          tests: tests.length,
          failed: tests.filter((e) => !e.ok).length,
          skipped: tests.filter((e) => e.skipped || e.todo).length,
        });
      }
      // A process that failed after its files all ended (an error thrown outside any test) fails
      // its last file, so that the run names one.
      const last = results.at(-1);
      if (!timedOut && code !== 0 && results.every((r) => r.ok) && last) {
        last.ok = false;
        text += `\n✖ ${last.file}: its process (files ${group.map((f) => f.file).join(', ')}) ended with ${signal ?? code} after its last file\n`;
      }
      if (processCpuMs !== undefined && group.length === 1 && results[0]?.cpuMs !== undefined) results[0].cpuMs = processCpuMs;
      resolve({ results, output: text, wallMs, requeued, processCpuMs });
    });
  });
}

function failure(file, wallMs, why, events = []) {
  const tests = events.filter((e) => !e.suite);
  return { file, ok: false, wallMs, testMs: 0, cpuMs: 0, tests: tests.length, failed: tests.filter((e) => !e.ok).length, skipped: 0, why };
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
