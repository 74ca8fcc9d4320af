import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { MailTables } from '../mail/tables.js';
import { parseInt8 } from '../money.js';
import { PGliteDialect } from './pglite-dialect.js';

/**
 * Every table of the service. The platform declares its own here; each capability adds its tables
 * from its own tables.ts (`declare module` augmentation), so the ground floor names nothing above it.
 */
export interface Database extends MailTables {}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

// int8 (bigint, money in micro units) as a JS number within ±(2^53 - 1) (DESIGN 9), on both
// databases: a stored value past it reads as the bound instead of failing the read (platform/money.ts).
pg.types.setTypeParser(20, parseInt8);
// date stays 'YYYY-MM-DD': a JS Date would shift it by the machine's time zone.
pg.types.setTypeParser(1082, (value) => value);

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; null selects embedded PGlite. */
  url: string | null;
  /** PGlite data directory; null keeps it in memory. */
  pgliteDir?: string | null;
  /** A PGlite data directory dump to start from (tests start from one migrated copy). */
  pgliteDump?: Blob;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(options.pgliteDir ?? undefined, {
    parsers: { 20: parseInt8, 1082: (value: string) => value },
    ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
