import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { AuthTables } from '../../accounts/tables.js';
import type { WorkspaceTables } from '../../workspaces/tables.js';
import type { AuditTables } from '../../audit/tables.js';
import type { MailTables } from '../mail/tables.js';
import type { ApiTables } from '../../apis/tables.js';
import type { PlanTables } from '../../plans/tables.js';
import type { CustomerTables } from '../../customers/tables.js';
import type { LedgerTables } from '../../ledger/tables.js';
import type { UsageTables } from '../../sdk-sync/tables.js';
import type { RegistryTables } from '../../issuer/registry/tables.js';
import type { PeopleTables } from '../../issuer/people/tables.js';
import type { SigningKeyTables } from '../../issuer/keys/tables.js';
import type { TokenTables } from '../../issuer/tokens/tables.js';
import { PGliteDialect } from './pglite-dialect.js';

/** Every table, each declared by the capability folder that owns it. */
export interface Database
  extends AuthTables, WorkspaceTables, AuditTables, MailTables, ApiTables, PlanTables, CustomerTables, LedgerTables, UsageTables,
    RegistryTables, PeopleTables, SigningKeyTables, TokenTables {}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

// int8 (bigint, money in micro units) as a JS number: values stay within 2^53 - 1 (DESIGN 9).
pg.types.setTypeParser(20, (value) => Number(value));
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
    parsers: { 1082: (value: string) => value },
    ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
