// One SDK process of bench/sync-scale.bench.ts: reads the snapshot, follows changes, and says on
// stdout when the admission decision of a watched key turns as expected (the moment the change
// was applied: checked from the meter's onChanges hook), with the epoch milliseconds of it.
//
// argv[2] is JSON { secret, baseUrl, follow }. stdin lines: `watch <key> admitted|refused`,
// `cpu` (answers `cpu <µs user+system>`). stdout: `ready <ms> <rss bytes>`,
// `turned <key> <epoch ms> <epoch ms the changes answer's head arrived> <longest GC pause in the last 5 s, ms>`:
// the answer's arrival splits a propagation into the server's part (commit to answer) and the
// SDK's (answer to decision).
import { createInterface } from 'node:readline';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { createMeter, type Admission } from '../packages/sdk/src/index.js';

const { secret, baseUrl, follow } = JSON.parse(process.argv[2]!) as { secret: string; baseUrl: string; follow: boolean };
const watches = new Map<string, 'admitted' | 'refused'>();
let answerAt = 0;
const timedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (String(input).includes('/sdk/v1/changes')) answerAt = Date.now();
  return response;
};
const pauses: { at: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ at: Date.now(), ms: entry.duration });
  while (pauses.length > 100) pauses.shift();
}).observe({ entryTypes: ['gc'] });
const longestPause = () => Math.max(0, ...pauses.filter((p) => p.at > Date.now() - 5_000).map((p) => p.ms));

function check() {
  for (const [key, want] of watches) {
    const decision = meter.admitNow({ key }) as Admission | Promise<Admission>;
    if (decision instanceof Promise) continue;
    if (decision.ok) decision.finish(404); // not billable: the probe charges nothing
    if ((decision.ok ? 'admitted' : 'refused') === want) {
      watches.delete(key);
      process.stdout.write(`turned ${key} ${Date.now()} ${answerAt} ${longestPause().toFixed(0)}\n`);
    }
  }
}

const started = performance.now();
const meter = createMeter({ secret, baseUrl, journalDir: null, followChanges: follow, fetch: timedFetch, onChanges: check, onError: (e) => process.stderr.write(`sdk: ${e.message}\n`) });
await meter.ready;
const readyMs = performance.now() - started;
(globalThis as { gc?: () => void }).gc?.();
process.stdout.write(`ready ${readyMs.toFixed(0)} ${process.memoryUsage().rss}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, key, want] = line.split(' ');
  if (command === 'watch') {
    watches.set(key!, want as 'admitted' | 'refused');
    check();
  } else if (command === 'cpu') {
    const cpu = process.cpuUsage();
    process.stdout.write(`cpu ${cpu.user + cpu.system}\n`);
  } else if (command === 'quit') {
    void meter.close().then(() => process.exit(0));
  }
});
