// A migrated, empty PGlite data directory for the `gatehouse` package (prepack): a first
// `npx gatehouse` loads it instead of running initdb in WebAssembly, which is most of a first
// start (38 s against 8 s on this project's loaded CI machine). The server still migrates after
// loading it, so a seed older than the migrations only costs the newer ones; one it cannot load
// is ignored (packages/server/src/cli/embedded-database.ts).
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const server = join(import.meta.dirname, '..', 'packages', 'server');
const seed = join(server, 'pglite-seed.tar.gz');
if (process.argv[2] === 'remove') {
  rmSync(seed, { force: true });
  process.exit(0);
}
const require = createRequire(join(server, 'package.json'));
const { PGlite } = await import(require.resolve('@electric-sql/pglite'));
const { Kysely } = await import(require.resolve('kysely'));
const { PGliteDialect } = await import(join(server, 'dist', 'platform', 'db', 'pglite-dialect.js'));
const { migrate } = await import(join(server, 'dist', 'platform', 'db', 'migrate.js'));
const pglite = await PGlite.create();
const db = new Kysely({ dialect: new PGliteDialect(pglite) });
const applied = await migrate(db);
const dump = await pglite.dumpDataDir('gzip');
writeFileSync(seed, Buffer.from(await dump.arrayBuffer()));
await db.destroy();
console.log(`pglite seed: ${applied.length} migrations, ${(dump.size / 1e6).toFixed(1)} MB`);
