import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/database.js';
import { listMigrations, migrate, migrationsCurrent } from '../../src/platform/db/migrate.js';
import { testDatabaseKind } from '../support/harness.js';

test('migrations apply once, and a second run applies nothing', async () => {
  const database = await openDatabase({ url: null });
  try {
    const applied = await migrate(database.db);
    assert.deepEqual(applied, await listMigrations());
    assert.deepEqual(await migrate(database.db), []);
    assert.equal(await migrationsCurrent(database.db), true);
  } finally {
    await database.close();
  }
});

test('two nodes migrating the same PostgreSQL at once take turns under the advisory lock', { skip: testDatabaseKind !== 'postgres' && 'PostgreSQL only' }, async () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const a = await openDatabase({ url, schema, poolSize: 2 });
  const b = await openDatabase({ url, schema, poolSize: 2 });
  try {
    const [first, second] = await Promise.all([migrate(a.db), migrate(b.db)]);
    const all = await listMigrations();
    assert.deepEqual([...first, ...second].sort(), all, 'each migration applied exactly once across both nodes');
    const rows = await admin.query(`select count(*)::int as n from ${schema}.schema_migrations`);
    assert.equal(rows.rows[0].n, all.length);
  } finally {
    await a.close();
    await b.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
});
