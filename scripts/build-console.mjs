// Builds the console web app (packages/console-web) with Vite when its sources changed since the
// last build, and not otherwise: `npm start` runs the build every time and should cost nothing
// when there is nothing to do. The stamp is a hash of every input of the build; beside each
// built file go its gzip and brotli copies, which the server sends as they are.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '..');
const app = join(root, 'packages', 'console-web');
const dist = join(app, 'dist');
const stampFile = join(dist, '.build-stamp');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

// The inputs: the app's sources and configuration, and the versions of what it is built with.
const inputs = [
  ...files(join(app, 'src')),
  ...files(join(app, 'public')),
  join(app, 'index.html'),
  join(app, 'vite.config.ts'),
  join(app, 'tsconfig.json'),
  join(app, 'package.json'),
  join(root, 'package-lock.json'),
].sort();
const hash = createHash('sha256');
for (const path of inputs) hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
const stamp = hash.digest('hex');

if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && existsSync(join(dist, 'index.html'))) {
  console.log('console web app: up to date');
  process.exit(0);
}

const started = Date.now();
const vite = join(createRequire(join(app, 'package.json')).resolve('vite/package.json'), '..', 'bin', 'vite.js');
const built = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: app, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

let raw = 0;
let gzipped = 0;
for (const path of files(dist)) {
  if (!/\.(js|css|html|svg|json|txt)$/.test(path)) continue;
  const body = readFileSync(path);
  const gz = gzipSync(body, { level: 9 });
  writeFileSync(`${path}.gz`, gz);
  writeFileSync(`${path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  if (path.endsWith('.js')) {
    raw += body.length;
    gzipped += gz.length;
  }
}
writeFileSync(stampFile, stamp);
console.log(`console web app: built in ${((Date.now() - started) / 1000).toFixed(1)} s; JavaScript ${(raw / 1024).toFixed(0)} KB, ${(gzipped / 1024).toFixed(0)} KB gzipped`);
