// `npm run build` (and so `npm start`): compiles the TypeScript projects that changed since the
// last build (tsc -b is incremental: an unchanged project costs a timestamp check), then the console
// web app when its sources changed (build-console.mjs). It says which it is doing, so a start that
// compiles is not a start that hangs.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const projects = ['packages/protocol', 'packages/server', 'packages/sdk'];
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const started = performance.now();
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

const child = spawn(process.execPath, [tsc, '-b', '--verbose', ...projects], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let pending = '';
const compiled = [];
let errors = '';
child.stdout.on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const building = /Building project '.*?packages\/([^/]+)\/tsconfig\.json'/.exec(line);
    if (building) {
      compiled.push(building[1]);
      console.log(`build: compiling ${building[1]} (TypeScript)…`);
    } else if (!/ - (Projects in this build|Project '|Updating |   \*)/.test(line) && !/^\s+\* /.test(line) && line.trim()) {
      errors += `${line}\n`; // diagnostics: everything that is not --verbose's progress
    }
  }
});
const code = await new Promise((resolve) => child.once('exit', resolve));
if (code !== 0) {
  process.stderr.write(errors + pending);
  console.error(`build: TypeScript failed after ${seconds()}`);
  process.exit(code ?? 1);
}
console.log(compiled.length ? `build: compiled ${compiled.join(', ')} in ${seconds()}` : `build: TypeScript up to date (${seconds()})`);
const web = spawnSync(process.execPath, [join(root, 'scripts', 'build-console.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(web.status ?? 1);
