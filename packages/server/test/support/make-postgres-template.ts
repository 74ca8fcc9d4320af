// Makes a migrated PostgreSQL database for one test run: every test app's database is then a
// copy of it (CREATE DATABASE … TEMPLATE, in harness.ts) instead of a schema migrated from empty.
//   make-postgres-template.ts create <name>   the database <name>, migrated in schema gh_template
//   make-postgres-template.ts drop <name>
import pg from 'pg';
import { openDatabase } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { TEMPLATE_SCHEMA, copyPrefix, databaseUrl } from './postgres-template.js';

const [action, name] = process.argv.slice(2);
const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl || !name || !/^gh_tpl_[a-z0-9]+$/.test(name) || (action !== 'create' && action !== 'drop')) {
  throw new Error('usage: TEST_DATABASE_URL=… make-postgres-template.ts create|drop gh_tpl_<name>');
}
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  if (action === 'drop') {
    // With the copies a test file could not drop (a connection still closing): every file has ended.
    const copies = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [copyPrefix(name)]);
    for (const { datname } of copies.rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.query(`drop database if exists ${name} with (force)`);
  } else {
    await admin.query(`create database ${name}`);
    const url = databaseUrl(adminUrl, name);
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query(`create schema ${TEMPLATE_SCHEMA}`);
    await setup.end();
    const database = await openDatabase({ url, schema: TEMPLATE_SCHEMA, poolSize: 1 });
    await migrate(database.db);
    // A template must have no session open while it is copied.
    await database.close();
  }
} finally {
  await admin.end();
}
