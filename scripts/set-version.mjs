// The three published packages move together (issue 25): `@gatehouse/server`, `@gatehouse/sdk` and
// `@gatehouse/protocol` carry one version, and pin each other to it exactly.
//
//   node scripts/set-version.mjs 0.2.0     # sets it everywhere, then run npm install for the lock
//   node scripts/set-version.mjs --check   # exits 1 when they disagree (the install walkthrough runs it)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifests = ['packages/server/package.json', 'packages/sdk/package.json', 'packages/protocol/package.json'].map((path) => join(root, path));
const ours = new Set(['@gatehouse/server', '@gatehouse/sdk', '@gatehouse/protocol']);
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

const arg = process.argv[2];
if (arg === '--check') {
  const problems = [];
  const versions = manifests.map(read).map((manifest) => [manifest.name, manifest.version]);
  const version = versions[0][1];
  for (const [name, v] of versions) if (v !== version) problems.push(`${name} is ${v}, @gatehouse/server is ${version}`);
  for (const manifest of manifests.map(read)) {
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      if (ours.has(dep) && range !== version) problems.push(`${manifest.name} depends on ${dep} ${range}, not exactly ${version}`);
    }
  }
  for (const problem of problems) console.error(`set-version: ${problem}`);
  if (problems.length) process.exit(1);
  console.log(`@gatehouse/server, @gatehouse/sdk and @gatehouse/protocol are all ${version}`);
} else if (arg && /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(arg)) {
  for (const path of manifests) {
    const manifest = read(path);
    manifest.version = arg;
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (ours.has(dep)) manifest.dependencies[dep] = arg;
    writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  console.log(`set ${arg}; now run npm install to update package-lock.json`);
} else {
  console.error('usage: node scripts/set-version.mjs <version> | --check');
  process.exit(2);
}
