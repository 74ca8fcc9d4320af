// One SDK process of bench/sync-scale.bench.ts: reads the snapshot, follows changes, and says on
// stdout when the admission decision of a watched key turns as expected (the moment the change
// was applied: checked from the meter's onChanges hook), with the epoch milliseconds of it.
//
// argv[2] is JSON { secret, baseUrl, follow }. stdin lines: `watch <key> admitted|refused`,
// `cpu` (answers `cpu <µs user+system>`). stdout: `ready <ms> <rss bytes>`, `turned <key> <epoch ms>`.
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { createMeter, type Admission } from '../packages/sdk/src/index.js';

const { secret, baseUrl, follow } = JSON.parse(process.argv[2]!) as { secret: string; baseUrl: string; follow: boolean };
const watches = new Map<string, 'admitted' | 'refused'>();

function check() {
  for (const [key, want] of watches) {
    const decision = meter.admitNow({ key }) as Admission | Promise<Admission>;
    if (decision instanceof Promise) continue;
    if (decision.ok) decision.finish(404); // not billable: the probe charges nothing
    if ((decision.ok ? 'admitted' : 'refused') === want) {
      watches.delete(key);
      process.stdout.write(`turned ${key} ${Date.now()}\n`);
    }
  }
}

const started = performance.now();
const meter = createMeter({ secret, baseUrl, journalDir: null, followChanges: follow, onChanges: check, onError: (e) => process.stderr.write(`sdk: ${e.message}\n`) });
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
