// The built console web app (packages/console-web/dist), read once into memory: a few files of a
// few hundred kilobytes, each with the gzip and brotli copies the build wrote beside it, so no
// request compresses anything.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WebFile {
  body: Buffer;
  gzip: Buffer | null;
  brotli: Buffer | null;
  contentType: string;
  etag: string;
  /** Hashed build output under /assets/: its name changes with its content. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Where the build is: beside the server in a packaged install (`<server>/console-web/`), else the
 * workspace's own build output. Both are found from this file, in src/ (tests) and dist/ alike.
 */
export function webAppDir(): string | null {
  const serverDir = fileURLToPath(new URL('../../../', import.meta.url));
  for (const dir of [join(serverDir, 'console-web'), join(serverDir, '..', 'console-web', 'dist')]) {
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const readIfPresent = (path: string) => (existsSync(path) ? readFileSync(path) : null);

/** Every servable file of the build, by URL path (`/index.html`, `/assets/index-3f9a.js`). */
export function loadWebFiles(dir: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  for (const path of walk(dir)) {
    const type = TYPES[extname(path)];
    // Compressed copies are served in place of their originals, never under their own names.
    if (!type || path.endsWith('.gz') || path.endsWith('.br')) continue;
    const urlPath = '/' + relative(dir, path).split(sep).join('/');
    const body = readFileSync(path);
    files.set(urlPath, {
      body,
      gzip: readIfPresent(`${path}.gz`),
      brotli: readIfPresent(`${path}.br`),
      contentType: type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      immutable: urlPath.startsWith('/assets/'),
    });
  }
  return files;
}
