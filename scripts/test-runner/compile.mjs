// Compiles the TypeScript of packages/* once per run into a mirror of the repository, so each test
// file's process loads plain JavaScript instead of registering tsx and transforming (or reading
// from tsx's cache) every module it imports. The mirror keeps the repository's shape: each .ts
// file has its .js beside a copy of it (tests that list or spawn .ts sources still find them), and
// everything else (migrations, dist folders, fixtures, node_modules, test-output) is a symlink to
// the real thing, so paths made from import.meta.url reach the same files as from the sources.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

// esbuild comes with tsx (what the tests ran through before); it is not a dependency of its own.
const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'))('esbuild');

const isSource = (name) => (name.endsWith('.ts') || name.endsWith('.tsx')) && !name.endsWith('.d.ts');
// Folders never compiled: installed or built things, and what tests write for a reviewer.
const LINKED_DIRS = new Set(['node_modules', 'dist', 'test-output', 'public']);

function hasSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory() ? !LINKED_DIRS.has(entry.name) && hasSources(join(dir, entry.name)) : isSource(entry.name),
  );
}

/** Mirrors `dir` into `into`: folders with sources are walked, the rest linked; returns the sources. */
function mirror(dir, into) {
  mkdirSync(into, { recursive: true });
  const sources = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = join(dir, entry.name);
    const to = join(into, entry.name);
    if (entry.isDirectory() && !LINKED_DIRS.has(entry.name) && hasSources(from)) sources.push(...mirror(from, to));
    else if (isSource(entry.name)) {
      copyFileSync(from, to);
      sources.push(from);
    } else symlinkSync(from, to);
  }
  return sources;
}

/**
 * Builds the mirror of `root` (its packages/ and node_modules) in a new temporary folder and
 * answers that folder. Screenshot folders (`packages/<pkg>/test-output`) are made in the
 * repository first, so the link to them holds what the tests write.
 */
export async function compileTests(root) {
  const out = mkdtempSync(join(tmpdir(), 'gh-tests-'));
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
  symlinkSync(join(root, 'package.json'), join(out, 'package.json'));
  const sources = [];
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const pkgDir = join(root, 'packages', pkg);
    if (existsSync(join(pkgDir, 'test'))) mkdirSync(join(pkgDir, 'test-output'), { recursive: true });
    sources.push(...mirror(pkgDir, join(out, 'packages', pkg)));
  }
  await esbuild.build({
    entryPoints: sources,
    outbase: root,
    outdir: out,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await esbuild.stop();
  return { dir: out, files: sources.map((file) => relative(root, file)) };
}

// Relative imports, static and dynamic with a literal path: enough to follow the repository's own
// modules (packages are left out: none of them is our storage).
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The test files (paths relative to `root`) whose imports, followed through every module of the
 * repository, never reach the database module: nothing they run can differ between PGlite and
 * PostgreSQL, so they run once.
 */
export function filesWithoutStorage(root, files) {
  const database = join(root, 'packages/server/src/platform/db/database.ts');
  const edges = new Map(); // module path → the repository modules it imports
  const importsOf = (path) => {
    if (!edges.has(path)) {
      let text = '';
      try { text = readFileSync(path, 'utf8'); } catch { /* not a module of ours */ }
      edges.set(path, [...text.matchAll(IMPORT)].flatMap((match) => {
        const target = join(dirname(path), match[1]);
        return [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target].find((candidate) => existsSync(candidate)) ?? [];
      }));
    }
    return edges.get(path);
  };
  const reachesDatabase = (start) => {
    const seen = new Set([start]);
    for (const path of seen) {
      if (path === database) return true;
      for (const next of importsOf(path)) seen.add(next);
    }
    return false;
  };
  return files.filter((file) => !reachesDatabase(join(root, file)));
}
