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
const dump = await pglite.dumpDataDir('none');
await writeFile(target, Buffer.from(await dump.arrayBuffer()));
await db.destroy();

