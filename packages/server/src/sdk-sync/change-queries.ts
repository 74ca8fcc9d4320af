import { sql } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import { wireCustomerColumns } from './queries.js';

/**
 * The API's change counter as this transaction's snapshot sees it: every change numbered up to
 * `seq` is visible in it, and none above (migration 0017: numbers follow the order of commits).
 */
export async function changeCounter(trx: Trx, apiId: string): Promise<{ seq: number; pruned_seq: number }> {
  const row = await trx.selectFrom('sdk_change_counters').select(['seq', 'pruned_seq']).where('api_id', '=', apiId).executeTakeFirst();
  return row ? { seq: Number(row.seq), pruned_seq: Number(row.pruned_seq) } : { seq: 0, pruned_seq: 0 };
}

/** Changed objects numbered above `since`, in number order, at most `limit`. */
export async function changesSince(trx: Trx, apiId: string, since: number, limit: number) {
  const rows = await trx
    .selectFrom('sdk_changes')
    .select(['kind', 'object_id', 'seq', 'removed'])
    .where('api_id', '=', apiId)
    .where('seq', '>', since)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** Customers by id as a snapshot shows them (archived ones are gone, as there). */
export function customersByIds(trx: Trx, apiId: string, ids: string[], month: string) {
  return trx
    .selectFrom('customers as c')
    .leftJoin('usage_policies as u', 'u.id', 'c.usage_policy_id')
    .leftJoin('customer_usage_months as m', (join) => join.onRef('m.customer_id', '=', 'c.id').on('m.month', '=', month))
    .select(wireCustomerColumns)
    .where('c.api_id', '=', apiId)
    .where(sql<boolean>`c.id = any(${ids}::text[])`)
    .where('c.archived_at', 'is', null)
    .execute();
}

/** Live keys by id, as a snapshot shows them. */
export function keysByIdsForWire(trx: Trx, apiId: string, ids: string[]) {
  return trx
    .selectFrom('customer_keys')
    .select(['id', 'customer_id', 'key_hash'])
    .where('api_id', '=', apiId)
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .where('revoked_at', 'is', null)
    .execute();
}

export function balancesByIds(trx: Trx, apiId: string, ids: string[]) {
  return trx
    .selectFrom('customers')
    .select(['id', 'balance_micro', 'balance_seq'])
    .where('api_id', '=', apiId)
    .where(sql<boolean>`id = any(${ids}::text[])`)
    .where('archived_at', 'is', null)
    .execute();
}

/**
 * Removes tombstones changed before `before` and raises each API's horizon to the highest number
 * removed, in one statement: a cursor below the horizon may have missed a removal (answered 410).
 * Live objects' rows are never removed: they are the objects' latest changes.
 */
export async function pruneTombstones(db: Db, before: Date): Promise<number> {
  const result = await sql<{ n: number }>`with gone as (
      delete from sdk_changes where removed and seq is not null and changed_at < ${before}::timestamptz returning api_id, seq
    ), horizons as (
      update sdk_change_counters c set pruned_seq = greatest(c.pruned_seq, h.seq)
      from (select api_id, max(seq) as seq from gone group by api_id) h where c.api_id = h.api_id
      returning 1
    )
    select (select count(*) from gone)::int as n, (select count(*) from horizons) as h`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
