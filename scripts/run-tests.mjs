// Runs every test file with node:test: first on embedded PGlite, then, when TEST_DATABASE_URL is
// set, again on that PostgreSQL (DESIGN section 10). Each pass ends with where its time went (the
// slowest files, time outside tests) and the run with its total.
//
//   node scripts/run-tests.mjs [--prepare] [fragment ...]
//
// --prepare   builds and type-checks first, the two side by side (what `npm test` does)
// fragment    runs only the test files whose path contains one of them (`npm test -- money/`)
// GH_TEST_CONCURRENCY  test processes at a time (default 3)
// GH_TEST_GROUP        test files at most in one process, one after the other (default 8;
//                      1 gives each file its own process, as before issue 22's grouping)
// GH_TEST_TSX=1        loads the TypeScript sources through tsx instead of compiling them once
// GH_TEST_FILE_TIMEOUT_S  a file still running after this many seconds is killed (default 300)
// GH_TEST_NODE_ARGS    extra node arguments for the test processes (`--cpu-prof --cpu-prof-dir=…`)
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileTests, filesWithoutStorage } from './test-runner/compile.mjs';
import { ALONE_FILES } from './test-runner/alone.mjs';
import { killAll, runFiles } from './test-runner/pool.mjs';
import { minutes, passSummary, seconds } from './test-runner/summary.mjs';

// Files per process by default: see docs/decisions.md, "Tests: several files per process (issue 22)".
const GROUP_DEFAULT = 8;
const ALONE = new Set(ALONE_FILES.keys());
const root = join(import.meta.dirname, '..');
process.chdir(root);
const runStarted = performance.now();
const args = process.argv.slice(2);
const prepare = args.includes('--prepare');
const fragments = args.filter((arg) => arg !== '--prepare');
const concurrency = Number(process.env.GH_TEST_CONCURRENCY ?? 3);
const groupSize = Math.max(1, Number(process.env.GH_TEST_GROUP ?? GROUP_DEFAULT));
const viaTsx = process.env.GH_TEST_TSX === '1';
// A bound for hung files, not a budget: the slowest file takes under a minute on a quiet machine,
// and several times that on a machine shared with other work.
const fileTimeoutS = Number(process.env.GH_TEST_FILE_TIMEOUT_S ?? 300);
const overhead = []; // [what, ms]: time spent before any test file starts

let pgTemplate = null; // the run's PostgreSQL template database, dropped at the end
process.on('SIGINT', () => {
  killAll();
  if (pgTemplate) postgresTemplate('drop');
  process.exit(130);
});

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

/** Runs an npm script, its output kept until it ends so two side by side don't interleave. */
function npmRun(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ script, code, ms: performance.now() - started, output: Buffer.concat(output).toString('utf8') }));
  });
}

const files = readdirSync('packages')
  .map((pkg) => join('packages', pkg, 'test'))
  .filter((dir) => { try { return statSync(dir).isDirectory(); } catch { return false; } })
  .flatMap(testFiles)
  .filter((file) => fragments.length === 0 || fragments.some((fragment) => file.includes(fragment)))
  .sort();
if (files.length === 0) {
  console.error(`no test file matches ${fragments.join(' or ')}`);
  process.exit(1);
}

const scratch = mkdtempSync(join(tmpdir(), 'gh-test-run-'));
let compiled = null;
/**
 * Compiles the tests and sources into their mirror. After the build: the mirror links each build
 * output folder that exists when it is made (packages/console-web/dist, which the console's tests
 * and the server's web-app route read), and a fresh clone has them only after the build.
 */
async function compile() {
  if (viaTsx) return;
  const started = performance.now();
  compiled = await compileTests(root);
  overhead.push(['compile TypeScript (esbuild)', performance.now() - started]);
}
/** How node loads a TypeScript file of the repository: compiled, or through tsx. */
const loadable = (file) => (compiled ? join(compiled.dir, file.replace(/\.ts$/, '.js')) : file);
const nodeArgs = [...(viaTsx ? ['--import', 'tsx'] : []), '--enable-source-maps'];
// Extra arguments for the test processes only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see
// where a file's CPU goes (node refuses --cpu-prof in NODE_OPTIONS).
const testNodeArgs = [...nodeArgs, ...(process.env.GH_TEST_NODE_ARGS ?? '').split(' ').filter(Boolean)];

/** Runs a support script of the tests to its end; its output is kept until then. */
function supportScript(what, file, ...scriptArgs) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, loadable(file), ...scriptArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ script: what, code, ms: performance.now() - started, output: Buffer.concat(output).toString('utf8') }));
  });
}

const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
// One migrated PGlite data directory for the whole run: loading it beats initdb in every file. On
// PostgreSQL, one migrated database per run, which each test app copies (harness.ts). Both are
// made while the type check runs, after the build: the compiled sources import the workspace
// packages (@gatehouse/protocol) by their built dist/, which a fresh clone has only after it.
const template = join(scratch, 'template.tar');
pgTemplate = databases.includes('postgres') ? `gh_tpl_${randomBytes(6).toString('hex')}` : null;
const started = performance.now();
const built = prepare ? npmRun('build') : Promise.resolve(null);
const templates = built.then(async (build) => (build && build.code !== 0 ? [] : (await compile(), Promise.all([
  supportScript('PGlite template', 'packages/server/test/support/make-pglite-template.ts', template),
  ...(pgTemplate ? [supportScript('PostgreSQL template', 'packages/server/test/support/make-postgres-template.ts', 'create', pgTemplate)] : []),
]))));
// The type check reads no build output (tsconfig.check.json), so it runs beside the build.
const [build, check, made] = await Promise.all([built, prepare ? npmRun('check') : null, templates]);
const steps = [...(build ? [build] : []), ...(check ? [check] : []), ...made];
for (const step of steps) {
  process.stdout.write(step.output);
  console.log(`${step.script}: ${step.code === 0 ? 'done' : 'FAILED'} in ${seconds(step.ms)}`);
  overhead.push([step.script, step.ms]);
}
overhead.push([`${steps.map((step) => step.script).join(', ')} side by side (wall)`, performance.now() - started]);
if (steps.some((step) => step.code !== 0)) {
  if (pgTemplate) postgresTemplate('drop');
  process.exit(1);
}

function postgresTemplate(action) {
  const started = performance.now();
  const done = spawnSync(process.execPath, [...nodeArgs, loadable('packages/server/test/support/make-postgres-template.ts'), action, pgTemplate], { stdio: 'inherit' });
  overhead.push([`PostgreSQL template (${action})`, performance.now() - started]);
  if (done.status !== 0) process.exit(1);
}

// Longest files first, so the run does not end waiting on one slow file started last: by the last
// run's times on this checkout (.test-durations.json, beside the sources so that `npm ci` keeps it),
// and for files not timed yet by what usually makes a file long (a browser, the fuzz suite, a
// metered SDK process), then by size.
const durationsFile = '.test-durations.json';
let durations = {};
try { durations = JSON.parse(readFileSync(durationsFile, 'utf8')); } catch { /* first run */ }
const guessMs = (file) => (/console-web\/test\/|-browser|\/fuzz\/|sdk\/test\/meter/.test(file) ? 60_000 : 10_000) + statSync(file).size / 10;
const byDuration = (db) => (a, b) => (durations[db]?.[b] ?? guessMs(b)) - (durations[db]?.[a] ?? guessMs(a)) || a.localeCompare(b);

// Files that storage cannot change run once, on the last database of the run (docs/decisions.md,
// "Tests"): the SDK's tests (the SDK against a real server, whose storage the server's own tests
// cover on both); the fuzz suite (thousands of malformed inputs at the HTTP edge, the same code on
// both; the storage side of hostile input is tested on both by test/platform and test/issuer); the
// console web app's tests (its pages in a browser and its own logic; the console API under them is
// tested on both by the server's tests); and every file whose imports never reach the database.
const withoutStorage = new Set(filesWithoutStorage(root, files));
const onceOnly = (file) =>
  withoutStorage.has(file) ||
  file.startsWith(join('packages', 'sdk') + '/') ||
  file.startsWith(join('packages', 'console-web') + '/') ||
  file.includes(join('test', 'fuzz') + '/');

let failed = false;
const passes = [];
for (const db of databases) {
  const last = db === databases.at(-1);
  const runList = files.filter((file) => last || !onceOnly(file)).sort(byDuration(db));
  console.log(`\n=== ${runList.length} test files on ${db} ===`);
  const started = performance.now();
  const { results, processes, startMs, processCpuMs } = await runFiles({
    files: runList.map((file) => ({ file, run: loadable(file), alone: ALONE.has(file) })),
    nodeArgs: testNodeArgs,
    concurrency,
    groupSize,
    timeoutMs: fileTimeoutS * 1000,
    env: { ...process.env, GH_TEST_DB: db, GH_PGLITE_TEMPLATE: template, ...(pgTemplate ? { GH_PG_TEMPLATE: pgTemplate } : {}) },
    scratch,
    onGroup: ({ results: group, output, requeued }) => {
      const ok = group.every((r) => r.ok);
      for (const r of group) process.stdout.write(`\n${r.ok ? '✔' : '✖'} ${r.file} (${seconds(r.wallMs)}, CPU ${seconds(r.cpuMs)}, ${r.tests} tests)`);
      if (requeued.length) process.stdout.write(`\n↻ not reached in that process, run in another: ${requeued.join(', ')}`);
      process.stdout.write(`\n${ok ? indent(output) : output}`);
    },
  });
  const wallMs = performance.now() - started;
  passes.push([db, wallMs]);
  if (results.some((r) => !r.ok)) failed = true;
  durations[db] = { ...durations[db], ...Object.fromEntries(results.map((r) => [r.file, Math.round(r.wallMs)])) };
  console.log(passSummary({ db, results, wallMs, concurrency, groupSize, processes, startMs, processCpuMs }));
}

if (pgTemplate) postgresTemplate('drop');
writeFileSync(durationsFile, JSON.stringify(durations));
rmSync(scratch, { recursive: true, force: true });
if (compiled) rmSync(compiled.dir, { recursive: true, force: true });

console.log('\n── before the tests:');
for (const [what, ms] of overhead) console.log(`   ${seconds(ms).padStart(8)}  ${what}`);
const total = performance.now() - runStarted;
console.log(`── total ${minutes(total)}: ${passes.map(([db, ms]) => `${db} ${minutes(ms)}`).join(', ')}; ${failed ? 'FAILED' : 'all passed'}`);
process.exit(failed ? 1 : 0);

function indent(text) {
  return text.split('\n').map((line) => (line ? `  ${line}` : line)).join('\n');
}
