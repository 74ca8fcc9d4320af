import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './database.js';

// Migrations are plain PostgreSQL files, applied in name order, each in its own transaction.
const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url));
// Any constant shared by every node: two nodes starting together take turns (issue: no race).
const MIGRATION_LOCK = 7_310_001;

export async function listMigrations(): Promise<string[]> {
  return (await readdir(migrationsDir)).filter((name) => name.endsWith('.sql')).sort();
}

/** Applies every pending migration under a PostgreSQL advisory lock; returns the names applied. */
export async function migrate(db: Db): Promise<string[]> {
  const applied: string[] = [];
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(conn);
      const done = new Set(
        (await sql<{ name: string }>`select name from schema_migrations`.execute(conn)).rows.map((r) => r.name),
      );
      for (const name of await listMigrations()) {
        if (done.has(name)) continue;
        const text = await readFile(migrationsDir + name, 'utf8');
        await sql`begin`.execute(conn);
        try {
          await sql.raw(text).execute(conn);
          await sql`insert into schema_migrations (name) values (${name})`.execute(conn);
          await sql`commit`.execute(conn);
        } catch (error) {
          await sql`rollback`.execute(conn);
          throw new Error(`migration ${name} failed: ${(error as Error).message}`);
        }
        applied.push(name);
      }
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
  return applied;
}

/** True when every migration file has been applied (for /readyz). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const rows = await sql<{ name: string }>`select name from schema_migrations`.execute(db);
  const done = new Set(rows.rows.map((r) => r.name));
  return (await listMigrations()).every((name) => done.has(name));
}
