// "Nothing changed": the row count and a digest of the contents of every table of the schema,
// read straight from the database before and after a batch of refused requests.
import { sql } from 'kysely';
import type { Db } from '../../../src/platform/db/database.js';

/**
 * Columns that reads may legitimately touch: last use of keys and sessions, the SDK's last visit,
 * and the outbox's delivery bookkeeping (mail queued by the set-up may still be on its way).
 */
const VOLATILE_COLUMNS = ['last_seen_at', 'last_used_at', 'sdk_first_seen_at', 'sdk_last_seen_at', 'sdk_agent', 'attempts', 'next_attempt_at', 'sent_at', 'last_error'];

/** Bookkeeping of the migrator, not data of the service. */
const IGNORED_TABLES = new Set(['schema_migrations']);

export type TableState = Map<string, { rows: number; digest: string }>;

async function tablesOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.map((row) => row.name).filter((name) => !IGNORED_TABLES.has(name));
}

let tableNames: string[] | null = null;

/** Count and content digest of every table, in one statement. */
export async function tableState(db: Db): Promise<TableState> {
  tableNames ??= await tablesOf(db);
  const volatile = sql.raw(`array[${VOLATILE_COLUMNS.map((name) => `'${name}'`).join(',')}]::text[]`);
  const parts = tableNames.map(
    (name) => sql`select ${name}::text as name, count(*)::int as rows,
      coalesce(md5(string_agg(md5((to_jsonb(t) - ${volatile})::text), ',' order by md5((to_jsonb(t) - ${volatile})::text))), '') as digest
      from ${sql.table(name)} t`,
  );
  const { rows } = await sql<{ name: string; rows: number; digest: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return new Map(rows.map((row) => [row.name, { rows: Number(row.rows), digest: row.digest }]));
}

/** What differs between two states: `customers 3 -> 4 rows`, `apis contents`. Empty when nothing. */
export function changesBetween(before: TableState, after: TableState): string[] {
  const changes: string[] = [];
  for (const [name, was] of before) {
    const now = after.get(name);
    if (!now) changes.push(`${name} gone`);
    else if (now.rows !== was.rows) changes.push(`${name} ${was.rows} -> ${now.rows} rows`);
    else if (now.digest !== was.digest) changes.push(`${name} contents`);
  }
  return changes;
}
