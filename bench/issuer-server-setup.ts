// What the benchmark servers on our issuer (issuer-ours.ts, key-introspection-server.ts) share:
// counting the statements the app sends, a free port, and a migrated database of their own.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../packages/server/dist/platform/db/database.js';
import { migrate } from '../packages/server/dist/platform/db/migrate.js';
import { benchDatabaseUrl } from './support.js';

/**
 * Every statement the app sends (BEGIN and COMMIT included) is one round trip to PostgreSQL.
 * BENCH_ISSUER_QUERY_LOG=1 also counts them by text, for printing when the process stops.
 */
export const statements = { count: 0, byText: process.env.BENCH_ISSUER_QUERY_LOG ? new Map<string, number>() : null };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements.count++;
  if (statements.byText) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text);
    statements.byText.set(text, (statements.byText.get(text) ?? 0) + 1);
  }
  return (query as (...args: unknown[]) => unknown).apply(this, args);
} as typeof query;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fresh schema on the bench PostgreSQL; null when none answers (then PGlite). */
async function freshSchema(): Promise<{ admin: pg.Client; schema: string } | null> {
  const admin = new pg.Client({ connectionString: benchDatabaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  return { admin, schema };
}

/**
 * A migrated database: a fresh schema of the bench PostgreSQL, or in-memory PGlite when none
 * answers. The pool's backends carry `applicationName`, so their CPU time can be read.
 */
export async function openBenchDatabase(applicationName: string): Promise<{ database: DatabaseHandle; postgres: { admin: pg.Client; schema: string } | null; url: URL }> {
  const postgres = await freshSchema();
  const url = new URL(benchDatabaseUrl);
  url.searchParams.set('application_name', applicationName);
  const database = postgres ? await openDatabase({ url: url.toString(), schema: postgres.schema, poolSize: 10 }) : await openDatabase({ url: null });
  await migrate(database.db);
  return { database, postgres, url };
}
