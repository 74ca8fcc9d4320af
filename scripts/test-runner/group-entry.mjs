// Runs several test files in one node process (scripts/run-tests.mjs, issue 22): each file is
// imported inside a suite named after it, so its top-level `before`/`after`/`test` attach to that
// suite and its hooks run around its tests only. Files run one after the other: the next file is
// imported only when the previous one has finished, hooks included, so nothing a file does at its
// top level runs beside another file's tests.
//
//   node group-entry.mjs <name>=<path to load> ...
//
// When GH_TEST_PROGRESS_FD is set, a line per file start and end goes to that descriptor (the
// runner's timer per file and its record of which file was running when a process died).
import { after, describe } from 'node:test';
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const progressFd = process.env.GH_TEST_PROGRESS_FD ? Number(process.env.GH_TEST_PROGRESS_FD) : null;
delete process.env.GH_TEST_PROGRESS_FD; // the files' own child processes must not write to it
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const progress = (event) => {
  if (progressFd !== null) writeSync(progressFd, `${JSON.stringify(event)}\n`);
};

// A file's suite is over when its last `after` hook ran; but node stops at the first `after` hook
// that throws, so the timing reporter (in this process) also says when a top-level suite ended.
const ended = new Map();
globalThis[Symbol.for('gatehouse.test.fileEnded')] = (name) => ended.get(name)?.();

for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf('=');
  const [name, path] = [arg.slice(0, at), arg.slice(at + 1)];
  const started = { t: performance.now(), cpu: cpu() };
  progress({ start: name });
  await new Promise((resolve) => {
    ended.set(name, resolve);
    describe(name, async () => {
      try {
        await import(pathToFileURL(path).href);
      } finally {
        after(() => resolve());
      }
    });
  });
  ended.delete(name);
  progress({ end: name, wallMs: performance.now() - started.t, cpuMs: cpu() - started.cpu });
}
