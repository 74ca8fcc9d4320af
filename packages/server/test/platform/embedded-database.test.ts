// The embedded database of a first `npx gatehouse` (issue 25: "ready in seconds"): an empty data
// folder is made from the package's migrated seed; a folder with a database keeps it; a seed that
// cannot be read is passed over for initdb. The seed here is the runner's migrated template.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openEmbeddedDatabase } from '../../src/cli/embedded-database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { testDatabaseKind } from '../support/harness.js';

const seed = process.env.GH_PGLITE_TEMPLATE;
const skip = testDatabaseKind !== 'pglite' || !seed ? 'the runner\'s PGlite template is the seed (PGlite runs only)' : false;

test('an empty folder is made from the seed, migrated already; the next open keeps what was written', { skip }, async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'gh-seeded-')), 'pglite');
  const first = await openEmbeddedDatabase(dir, seed);
  assert.equal(first.seeded, true);
  assert.deepEqual(await migrate(first.database.db), [], 'every migration is in the seed');
  await sql`insert into schema_migrations (name) values ('9999_marker.sql')`.execute(first.database.db);
  await first.database.close();

  const again = await openEmbeddedDatabase(dir, seed);
  assert.equal(again.seeded, false, 'a folder with a database is not seeded again');
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from schema_migrations where name = '9999_marker.sql'`.execute(again.database.db);
  assert.equal(rows[0]!.n, 1, 'what was written is still there');
  await again.database.close();
});

test('a seed that cannot be read is passed over: the folder gets a fresh database to migrate', { skip }, async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'gh-badseed-')), 'pglite');
  const bad = join(mkdtempSync(join(tmpdir(), 'gh-seedfile-')), 'pglite-seed.tar.gz');
  writeFileSync(bad, 'not a tar file');
  const opened = await openEmbeddedDatabase(dir, bad);
  assert.equal(opened.seeded, false);
  assert.ok((await migrate(opened.database.db)).length > 10, 'migrated from nothing');
  await opened.database.close();
});
