// Writes a migrated PGlite data directory to the path given, for every test file to start from.
import { writeFile } from 'node:fs/promises';

import { migrate } from '../../src/platform/db/migrate.js';
import { PGlite } from '@electric-sql/pglite';

const target = process.argv[2];
if (!target) throw new Error('usage: make-pglite-template.ts <file>');
const pglite = await PGlite.create({ parsers: { 1082: (value: string) => value } });
const { Kysely } = await import('kysely');
const { PGliteDialect } = await import('../../src/platform/db/pglite-dialect.js');
const db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
await migrate(db);
// Tests never make a database on PGlite: without template0 and template1 the dump is 28 MB instead
// of 43, and every test file loads it (0.4 s of CPU less each, measured on this machine).
await pglite.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
await pglite.exec('drop database template0');
await pglite.exec('drop database template1');
await pglite.exec('checkpoint');
const dump = await pglite.dumpDataDir('none');
await writeFile(target, Buffer.from(await dump.arrayBuffer()));
await db.destroy();

