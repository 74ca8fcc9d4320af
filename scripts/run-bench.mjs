// Runs every benchmark in bench/ (or those whose name contains the argument), one after another.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const filter = process.argv[2];
const files = readdirSync('bench').filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter))).sort();
let failed = false;
for (const file of files) {
  console.log(`\n### ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
