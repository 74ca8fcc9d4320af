import { sql } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import { saturatedSum } from '../platform/db/saturating.js';
import { MONEY_BOUND } from '../platform/money.js';
import type { BalanceMove } from './balance-events.js';
import type { LedgerKind } from './tables.js';

// The ledger capability is the only writer of customers.balance_micro and balance_seq: every
// balance change is a ledger entry and one step of balance_seq, in one transaction (DESIGN 7).

export interface NewLedgerEntry {
  id: string;
  api_id: string;
  customer_id: string;
  kind: LedgerKind;
  amount_micro: number;
  note: string;
  actor: string;
  ref: string | null;
  at: Date;
}

/**
 * Inserts an entry unless its ref was applied before. Returns false for a repeated ref: the
 * unique index makes a concurrent duplicate wait for the first and then find it.
 */
export async function insertEntryOnce(trx: Trx, entry: NewLedgerEntry): Promise<boolean> {
  const inserted = await trx
    .insertInto('ledger_entries')
    .values({
      id: entry.id,
      api_id: entry.api_id,
      customer_id: entry.customer_id,
      kind: entry.kind,
      amount_micro: entry.amount_micro,
      requests: 0,
      usage_day: null,
      note: entry.note,
      actor: entry.actor,
      ref: entry.ref,
      created_at: entry.at,
      updated_at: entry.at,
    })
    .onConflict((oc) => oc.columns(['api_id', 'ref']).where('ref', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Moves a balance by `delta` unless the result would leave ±MONEY_BOUND; undefined when it would.
 * Compared in numeric, so even a balance an older version left near the ends of bigint cannot
 * overflow the comparison.
 */
export async function moveBalanceWithinBound(trx: Trx, apiId: string, customerId: string, delta: number) {
  return trx
    .updateTable('customers')
    .set({ balance_micro: sql`balance_micro + ${delta}`, balance_seq: sql`balance_seq + 1` })
    .where('api_id', '=', apiId)
    .where('id', '=', customerId)
    .where(sql<boolean>`balance_micro::numeric + ${delta} between ${sql.lit(-MONEY_BOUND)} and ${sql.lit(MONEY_BOUND)}`)
    .returning(['balance_micro', 'balance_seq', lowLine.as('line')])
    .executeTakeFirst();
}

// The customer's low-balance line in force: its own, else its API's (balance events).
const lowLine = sql<number>`coalesce(customers.low_balance_micro, (select a.low_balance_micro from apis a where a.id = customers.api_id))`;

/** Customers whose balance events are raised, as the events show them. */
export function customersForEvents(trx: Trx, apiId: string, customerIds: string[]) {
  return trx.selectFrom('customers').selectAll().where('api_id', '=', apiId).where(sql<boolean>`id = any(${customerIds}::text[])`).execute();
}

/** Takes back an entry this transaction inserted, when its balance could not move. */
export async function deleteEntry(trx: Trx, apiId: string, id: string) {
  await trx.deleteFrom('ledger_entries').where('api_id', '=', apiId).where('id', '=', id).execute();
}

export async function balanceOf(db: Db | Trx, apiId: string, customerId: string) {
  return db.selectFrom('customers').select(['balance_micro', 'balance_seq']).where('api_id', '=', apiId).where('id', '=', customerId).executeTakeFirst();
}

/** One customer locked for a manual credit, with what the credit checks and its audit names. */
export function lockCustomerForCredit(trx: Trx, apiId: string, customerId: string) {
  return trx.selectFrom('customers').select(['id', 'name', 'archived_at']).where('api_id', '=', apiId).where('id', '=', customerId).forUpdate().executeTakeFirst();
}

/**
 * Locks customers in id order, so concurrent usage reports cannot deadlock on each other, and
 * reads their balances exactly (as text: the number parser saturates) for the bound checks.
 */
export async function lockCustomers(trx: Trx, apiId: string, customerIds: string[]) {
  if (!customerIds.length) return [];
  return trx
    .selectFrom('customers')
    .select(['id', 'is_test', sql<string>`balance_micro::text`.as('balance')])
    .where('api_id', '=', apiId)
    .where(sql<boolean>`id = any(${customerIds}::text[])`)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * The usage entries of these customers on these days, exactly (as text). Read under the customer
 * locks, which every writer of a customer's usage entries holds.
 */
export function usageEntriesOf(trx: Trx, apiId: string, customerIds: string[], days: string[]) {
  return trx
    .selectFrom('ledger_entries')
    .select(['customer_id', 'usage_day', sql<string>`amount_micro::text`.as('amount'), sql<string>`requests::text`.as('requests')])
    .where('api_id', '=', apiId)
    .where('kind', '=', 'usage')
    .where(sql<boolean>`customer_id = any(${customerIds}::text[])`)
    .where(sql<boolean>`usage_day = any(${days}::date[])`)
    .execute();
}

export interface UsagePosting {
  customerId: string;
  day: string;
  requests: number;
  /** A bigint: what one report charges a customer can pass 2^53 even though the balance stays within the bound. */
  chargeMicro: bigint;
}

/**
 * Folds usage into one ledger entry per customer per UTC day, updated in place, and moves the
 * balances, in one statement (one round trip): the entries and the balances are written by two
 * data-modifying CTEs, which touch different tables and only rows of customers the caller has
 * locked, so running them together changes no lock order. The caller has checked that every entry
 * and balance stays within ±MONEY_BOUND (sdk-sync/usage-bounds.ts).
 */
export async function postUsage(trx: Trx, apiId: string, postings: UsagePosting[], newIds: string[], at: Date): Promise<{ moves: BalanceMove[]; balances: PostedBalance[] }> {
  if (!postings.length) return { moves: [], balances: [] };
  const byCustomer = new Map<string, bigint>();
  for (const p of postings) byCustomer.set(p.customerId, (byCustomer.get(p.customerId) ?? 0n) + p.chargeMicro);
  // Arrays through unnest: one short statement however many customers a report names. It answers
  // every balance it moved (the acknowledgement carries them, issue 27), and whether the charge
  // changed its state (ok, low, depleted: balance-events.ts), for their events; most reports
  // change none.
  const posted = await sql<{ id: string; balance_micro: number; balance_seq: number; before: string; line: number; crossed: boolean }>`with entries as (
      insert into ledger_entries (id, api_id, customer_id, kind, amount_micro, requests, usage_day, note, actor, created_at, updated_at)
      select r.id, ${apiId}, r.customer_id, 'usage', r.amount, r.requests, r.day, '', 'sdk', ${at}::timestamptz, ${at}::timestamptz
      from unnest(${newIds}::text[], ${postings.map((p) => p.customerId)}::text[], ${postings.map((p) => (-p.chargeMicro).toString())}::bigint[],
                  ${postings.map((p) => p.requests)}::bigint[], ${postings.map((p) => p.day)}::date[]) as r(id, customer_id, amount, requests, day)
      on conflict (customer_id, usage_day) where kind = 'usage'
      do update set amount_micro = ledger_entries.amount_micro + excluded.amount_micro,
                    requests = ledger_entries.requests + excluded.requests,
                    updated_at = excluded.updated_at
      returning 1
    ), balances as (
      update customers c set balance_micro = c.balance_micro - v.charge,
        balance_seq = c.balance_seq + 1,
        last_used_at = greatest(c.last_used_at, ${at}::timestamptz)
      from unnest(${[...byCustomer.keys()]}::text[], ${[...byCustomer.values()].map(String)}::bigint[]) as v(id, charge)
      where c.id = v.id and c.api_id = ${apiId}
      returning c.id, c.balance_micro, c.balance_seq, (c.balance_micro + v.charge)::text as before,
        coalesce(c.low_balance_micro, (select a.low_balance_micro from apis a where a.id = ${apiId})) as line
    )
    select b.id, b.balance_micro, b.balance_seq, b.before, b.line,
      ${balanceStateSql(sql`b.before::numeric`)} <> ${balanceStateSql(sql`b.balance_micro`)} as crossed
    from balances b`.execute(trx);
  return {
    moves: posted.rows.filter((row) => row.crossed).map((row) => ({ customerId: row.id, beforeMicro: Number(row.before), afterMicro: row.balance_micro, balanceSeq: row.balance_seq, lineMicro: row.line })),
    balances: posted.rows.map((row) => ({ id: row.id, balanceMicro: Number(row.balance_micro), balanceSeq: Number(row.balance_seq) })),
  };
}

/** A balance as a report left it. */
export interface PostedBalance {
  id: string;
  balanceMicro: number;
  balanceSeq: number;
}

/** balance-events.ts's balanceState in SQL: 2 depleted, 1 low, 0 ok, against the row's `line`. */
const balanceStateSql = (balance: ReturnType<typeof sql>) => sql`(case when ${balance} <= 0 then 2 when ${balance} < b.line then 1 else 0 end)`;

export function ledgerPage(
  db: Db,
  apiId: string,
  options: { customerId: string | null; kind: LedgerKind | null; before: { at: Date; id: string } | null; limit: number },
) {
  let query = db
    .selectFrom('ledger_entries as l')
    .innerJoin('customers as c', 'c.id', 'l.customer_id')
    .selectAll('l')
    .select('c.name as customer_name')
    .where('l.api_id', '=', apiId);
  if (options.customerId) query = query.where('l.customer_id', '=', options.customerId);
  if (options.kind) query = query.where('l.kind', '=', options.kind);
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('l.created_at', '<', at), eb.and([eb('l.created_at', '=', at), eb('l.id', '<', id)])]));
  }
  return query.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(options.limit).execute();
}

/** The sum of entries of some kinds since a time, saturated at the bound (platform/money.ts). */
export async function sumKindSince(db: Db, apiId: string, kinds: LedgerKind[], since: Date): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(saturatedSum('amount_micro').as('total'))
    .where('api_id', '=', apiId)
    .where('kind', 'in', kinds)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
