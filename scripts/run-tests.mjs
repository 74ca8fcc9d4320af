// Runs every test file with node:test through tsx: first on embedded PGlite, then, when
// TEST_DATABASE_URL is set, again on that PostgreSQL (DESIGN section 10).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function testFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'support') out.push(...testFiles(path));
    } else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv[2];
const files = readdirSync('packages')
  .map((pkg) => join('packages', pkg, 'test'))
  .filter((dir) => { try { return statSync(dir).isDirectory(); } catch { return false; } })
  .flatMap(testFiles)
  .filter((file) => !filter || file.includes(filter))
  .sort();

const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
// One migrated PGlite data directory for the whole run: loading it beats initdb in every file.
const template = join(mkdtempSync(join(tmpdir(), 'gh-pglite-')), 'template.tar');
const made = spawnSync(process.execPath, ['--import', 'tsx', 'packages/server/test/support/make-pglite-template.ts', template], { stdio: 'inherit' });
if (made.status !== 0) process.exit(1);
let failed = false;
// The SDK's tests exercise the SDK against a real server; the server's storage is covered on both
// databases by its own tests, so they run once: on the last database of the run. The fuzz suite
// (test/fuzz) runs once too: it throws thousands of malformed inputs at the HTTP edge, which is the
// same code on both databases, and PGlite is the same PostgreSQL engine; the storage side of
// hostile input ("refused and changes nothing") is tested on both by test/platform and test/issuer.
const onceOnly = (file) => file.startsWith(join('packages', 'sdk')) || file.includes(join('test', 'fuzz') + '/');
for (const db of databases) {
  const last = db === databases.at(-1);
  const runFiles = files.filter((file) => last || !onceOnly(file));
  console.log(`\n=== ${runFiles.length} test files on ${db} ===`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${process.env.GH_TEST_CONCURRENCY ?? 3}`, '--test-timeout=120000', ...runFiles],
    { stdio: 'inherit', env: { ...process.env, GH_TEST_DB: db, GH_PGLITE_TEMPLATE: template } },
  );
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
