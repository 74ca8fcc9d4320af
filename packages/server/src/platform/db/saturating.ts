import { sql, type RawBuilder } from 'kysely';
import { MONEY_BOUND } from '../money.js';

// SQL that adds bigint amounts without leaving ±MONEY_BOUND (platform/money.ts): the addition
// runs in numeric, which cannot overflow, and the result is clamped before it becomes a bigint
// again. A plain bigint `+` or a `sum(...)::bigint` fails the whole statement past 2^63.

const clamp = (numeric: RawBuilder<unknown>) => sql<number>`least(greatest(${numeric}, ${sql.lit(-MONEY_BOUND)}), ${sql.lit(MONEY_BOUND)})::bigint`;

/** `coalesce(sum(column), 0)`, saturated at the bound. */
export function saturatedSum(column: string): RawBuilder<number> {
  return clamp(sql`coalesce(sum(${sql.ref(column)}), 0)`);
}

/** `table.column + excluded.column` for an upsert's `do update set`, saturated at the bound. */
export function saturatedUpsertAdd(table: string, column: string): RawBuilder<number> {
  return clamp(sql`${sql.ref(`${table}.${column}`)}::numeric + ${sql.ref(`excluded.${column}`)}`);
}
