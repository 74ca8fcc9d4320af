// The embedded database of `gatehouse serve` without DATABASE_URL: PGlite in DATA_DIR/pglite. A
// first start there loads the package's migrated seed (scripts/make-pglite-seed.mjs, made when the
// package is packed) instead of running initdb in WebAssembly, most of a first start's time.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type DatabaseHandle } from '../platform/db/database.js';

/** Beside package.json in the package; absent in a clone until `npm pack` makes it. */
const SEED = fileURLToPath(new URL('../../pglite-seed.tar.gz', import.meta.url));

export async function openEmbeddedDatabase(pgliteDir: string, seed: string = SEED): Promise<{ database: DatabaseHandle; seeded: boolean }> {
  // PG_VERSION is the first file initdb writes: without it the folder holds no database yet.
  const fresh = !existsSync(join(pgliteDir, 'PG_VERSION'));
  if (fresh && existsSync(seed)) {
    try {
      return { database: await openDatabase({ url: null, pgliteDir, pgliteDump: new Blob([readFileSync(seed)]) }), seeded: true };
    } catch {
      // A seed this PGlite cannot read (another version's): start from nothing, as without one.
      rmSync(pgliteDir, { recursive: true, force: true });
    }
  }
  return { database: await openDatabase({ url: null, pgliteDir }), seeded: false };
}
