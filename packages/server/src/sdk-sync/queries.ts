import { sql } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import { saturatedSum, saturatedUpsertAdd } from '../platform/db/saturating.js';

type Executor = Db | Trx;

/** A customer as the wire shows it: the row (c), its current policy (u) and its month (m). */
export const wireCustomerColumns = [
  'c.id',
  'c.status',
  'c.balance_micro',
  'c.balance_seq',
  sql<number>`coalesce(m.requests, 0)`.as('month_requests'),
  'u.id as policy_id',
  'u.rps',
  'u.price_per_request_micro',
  'u.monthly_quota',
  'u.billing_model',
  'u.source',
  'c.token_key_id',
] as const;

/** Every customer of an API with its current policy and this month's requests, for a snapshot. */
export function snapshotCustomers(trx: Trx, apiId: string, month: string) {
  return trx
    .selectFrom('customers as c')
    .leftJoin('usage_policies as u', 'u.id', 'c.usage_policy_id')
    .leftJoin('customer_usage_months as m', (join) => join.onRef('m.customer_id', '=', 'c.id').on('m.month', '=', month))
    .select(wireCustomerColumns)
    .where('c.api_id', '=', apiId)
    // Archived customers are gone for SDKs, as deleted ones are; their keys were revoked with them.
    .where('c.archived_at', 'is', null)
    .orderBy('c.id')
    .execute();
}

/**
 * One batch of the streamed snapshot's customers (snapshot-stream.ts): those after `afterId` in id
 * order, as snapshotCustomers reads them all.
 */
export function snapshotCustomersAfter(trx: Trx, apiId: string, month: string, afterId: string, limit: number) {
  return trx
    .selectFrom('customers as c')
    .leftJoin('usage_policies as u', 'u.id', 'c.usage_policy_id')
    .leftJoin('customer_usage_months as m', (join) => join.onRef('m.customer_id', '=', 'c.id').on('m.month', '=', month))
    .select(wireCustomerColumns)
    .where('c.api_id', '=', apiId)
    .where('c.archived_at', 'is', null)
    .where('c.id', '>', afterId)
    .orderBy('c.id')
    .limit(limit)
    .execute();
}

/**
 * One batch of the streamed snapshot's keys after `afterId` in id order: live keys of customers the
 * snapshot carries (the join does what the whole build's filter by the customers read does).
 */
export function snapshotKeysAfter(trx: Trx, apiId: string, afterId: string | null, limit: number) {
  let query = trx
    .selectFrom('customer_keys as k')
    .innerJoin('customers as c', (join) => join.onRef('c.id', '=', 'k.customer_id').on('c.api_id', '=', apiId).on('c.archived_at', 'is', null))
    .select(['k.id', 'k.customer_id', 'k.key_hash'])
    .where('k.api_id', '=', apiId)
    .where('k.revoked_at', 'is', null);
  if (afterId !== null) query = query.where('k.id', '>', afterId);
  return query.orderBy('k.id').limit(limit).execute();
}

export function snapshotKeys(trx: Trx, apiId: string) {
  return trx
    .selectFrom('customer_keys')
    .select(['id', 'customer_id', 'key_hash'])
    .where('api_id', '=', apiId)
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute();
}

/**
 * Memberships of active people, for the full shape's person-to-customer map: per person, their
 * memberships of active customers first, then the oldest (snapshot.ts keeps the first of each).
 */
export function snapshotMembers(trx: Trx, apiId: string, liveCustomersOnly = false) {
  let query = trx
    .selectFrom('customer_members as cm')
    .innerJoin('customers as c', 'c.id', 'cm.customer_id')
    .innerJoin('people as p', 'p.id', 'cm.person_id')
    .select(['cm.person_id', 'cm.customer_id'])
    .where('cm.api_id', '=', apiId)
    .where('p.status', '=', 'active');
  // The streamed snapshot holds no set of its customers: it leaves the others out here.
  if (liveCustomersOnly) query = query.where('c.archived_at', 'is', null).where('c.api_id', '=', apiId);
  return query
    .orderBy('cm.person_id')
    .orderBy((eb) => eb.case().when('c.status', '=', 'active').then(0).else(1).end())
    .orderBy('cm.created_at')
    .orderBy('cm.customer_id')
    .execute();
}

/** The API's resource servers with the permissions each exposes, for the full shape. */
export function snapshotServerPermissions(trx: Trx, apiId: string) {
  return trx
    .selectFrom('resource_servers as s')
    .leftJoin('server_permissions as p', (join) => join.onRef('p.server_id', '=', 's.id').onRef('p.api_id', '=', 's.api_id'))
    .select(['s.resource_url', 'p.name'])
    .where('s.api_id', '=', apiId)
    .orderBy('s.resource_url')
    .orderBy('p.name')
    .execute();
}

/** One active key by hash, with its customer as a snapshot would show it. */
export function keyWithCustomer(db: Db, apiId: string, keyHash: string, month: string) {
  return db
    .selectFrom('customer_keys as k')
    .innerJoin('customers as c', 'c.id', 'k.customer_id')
    .leftJoin('usage_policies as u', 'u.id', 'c.usage_policy_id')
    .leftJoin('customer_usage_months as m', (join) => join.onRef('m.customer_id', '=', 'c.id').on('m.month', '=', month))
    .select('k.id as key_id')
    .select(wireCustomerColumns)
    .where('k.api_id', '=', apiId)
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .where('c.archived_at', 'is', null)
    .executeTakeFirst();
}

/** Requests of an API's days in [fromDay, toDayExclusive), saturated at the bound (platform/money.ts). */
export async function apiRequestsBetween(db: Executor, apiId: string, fromDay: string, toDayExclusive: string): Promise<number> {
  const row = await db
    .selectFrom('api_usage_days')
    .select(saturatedSum('requests').as('n'))
    .where('api_id', '=', apiId)
    .where('day', '>=', fromDay)
    .where('day', '<', toDayExclusive)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Keys named by a usage report (revoked ones too: usage that happened before revocation is billed). */
export function keysByIds(trx: Trx, apiId: string, ids: string[]) {
  return trx
    .selectFrom('customer_keys as k')
    .innerJoin('customers as c', 'c.id', 'k.customer_id')
    .select(['k.id', 'k.customer_id', 'c.is_test'])
    .where('k.api_id', '=', apiId)
    .where(sql<boolean>`k.id = any(${ids}::uuid[])`)
    .execute();
}

/** Customers whose token_key_id a usage report names in place of a key (access-token usage). */
export function tokenKeysByIds(trx: Trx, apiId: string, ids: string[]) {
  return trx
    .selectFrom('customers as c')
    .select(['c.token_key_id as id', 'c.id as customer_id', 'c.is_test'])
    .where('c.api_id', '=', apiId)
    .where(sql<boolean>`c.token_key_id = any(${ids}::uuid[])`)
    .execute();
}

export function policiesByIds(trx: Trx, apiId: string, ids: string[]) {
  return trx
    .selectFrom('usage_policies')
    .select(['id', 'customer_id', 'price_per_request_micro', 'billable_status_codes', 'monthly_quota'])
    .where('api_id', '=', apiId)
    .where(sql<boolean>`id = any(${ids}::uuid[])`)
    .execute();
}

export interface ReceiptRow {
  idempotency_key: string;
  api_key_id: string;
  usage_policy_id: string | null;
  status_code: number;
  count: number;
  period_start: Date;
}

/** Inserts receipts; returns the keys that were new. A key seen before is left as it was. */
export async function insertReceipts(trx: Trx, apiId: string, rows: ReceiptRow[], at: Date): Promise<Set<string>> {
  // Columns as arrays through unnest: one short statement however many rows (a VALUES list of
  // thousands of parameters spends more time being planned than inserting).
  const result = await sql<{ idempotency_key: string }>`
    insert into usage_receipts (api_id, idempotency_key, api_key_id, usage_policy_id, status_code, count, period_start, received_at)
    select ${apiId}, r.* , ${at}::timestamptz from unnest(
      ${rows.map((r) => r.idempotency_key)}::text[], ${rows.map((r) => r.api_key_id)}::uuid[], ${rows.map((r) => r.usage_policy_id)}::uuid[],
      ${rows.map((r) => r.status_code)}::int[], ${rows.map((r) => r.count)}::bigint[], ${rows.map((r) => r.period_start.toISOString())}::timestamptz[]
    ) as r
    on conflict (api_id, idempotency_key) do nothing
    returning idempotency_key`.execute(trx);
  return new Set(result.rows.map((r) => r.idempotency_key));
}

/** Removes receipts written in this transaction for items that were not applied after all. */
export async function deleteReceipts(trx: Trx, apiId: string, keys: string[]) {
  if (!keys.length) return;
  await trx.deleteFrom('usage_receipts').where('api_id', '=', apiId).where(sql<boolean>`idempotency_key = any(${keys}::text[])`).execute();
}

export function receiptsByKeys(trx: Trx, apiId: string, keys: string[]) {
  return trx
    .selectFrom('usage_receipts')
    .select(['idempotency_key', 'api_key_id', 'usage_policy_id', 'status_code', 'count', 'period_start'])
    .where('api_id', '=', apiId)
    .where(sql<boolean>`idempotency_key = any(${keys}::text[])`)
    .execute();
}

export interface MonthCount {
  customerId: string;
  month: string;
  requests: number;
  billable: number;
  charged: number;
  /** The monthly quota of the policy the month's newest item was admitted under; null: none. */
  quota: number | null;
}

/** A customer's month that reached 80 % or 100 % of its quota with this report. */
export interface QuotaCrossing {
  customer_id: string;
  month: string;
  requests: number;
  added: number;
  quota: number;
}

export interface CustomerDayCount {
  customerId: string;
  day: string;
  requests: number;
  billable: number;
  errors: number;
  charged: number;
}

export interface DayCount {
  day: string;
  requests: number;
  billable: number;
  errors: number;
  charged: number;
  testRequests: number;
}

export interface UsageCounters {
  months: MonthCount[];
  customerDays: CustomerDayCount[];
  /** In day order: see below. */
  apiDays: DayCount[];
  /** Keys whose last_used_at is written when it is older than `staleBefore` (a minute is precise enough). */
  keyIds: string[];
  at: Date;
  staleBefore: Date;
}

/**
 * Adds a report's counts to the customers' months and days, the API's days, and the keys'
 * last use, in one statement (one round trip; each table through unnest, one data-modifying CTE
 * each). The counters are statistics and quota floors, not money of record (balances and ledger
 * entries are), so they saturate at the bound instead of refusing usage.
 *
 * Locks: customer months and days and keys belong to customers the report has locked, so two
 * reports never wait on each other there in an order the customer locks did not already fix. The
 * API's day rows are shared by reports of different customers, which those locks do not order:
 * they are upserted in day order (the rows come sorted and `with ordinality` keeps it), so two
 * reports covering the same two days cannot lock them in opposite orders and deadlock.
 */
export async function addUsageCounters(trx: Trx, apiId: string, counters: UsageCounters): Promise<QuotaCrossing[]> {
  const { months, customerDays, apiDays, keyIds } = counters;
  const addMonth = (column: string) => saturatedUpsertAdd('customer_usage_months', column);
  const addCustomerDay = (column: string) => saturatedUpsertAdd('customer_usage_days', column);
  const addApiDay = (column: string) => saturatedUpsertAdd('api_usage_days', column);
  // Answers the months whose total passed 80 % or 100 % of a quota with this report (one crossing
  // per threshold: the totals only grow within a month); most reports answer nothing.
  const crossed = await sql<QuotaCrossing>`with months as (
      insert into customer_usage_months (customer_id, api_id, month, requests, billable, charged_micro)
      select r.customer_id, ${apiId}, r.month, r.requests, r.billable, r.charged from unnest(
        ${months.map((r) => r.customerId)}::text[], ${months.map((r) => r.month)}::date[], ${months.map((r) => r.requests)}::bigint[],
        ${months.map((r) => r.billable)}::bigint[], ${months.map((r) => r.charged)}::bigint[]
      ) as r(customer_id, month, requests, billable, charged)
      on conflict (customer_id, month) do update set
        requests = ${addMonth('requests')}, billable = ${addMonth('billable')}, charged_micro = ${addMonth('charged_micro')}
      returning customer_id, month, requests
    ), customer_days as (
      insert into customer_usage_days (customer_id, api_id, day, requests, billable, errors, charged_micro)
      select r.customer_id, ${apiId}, r.day, r.requests, r.billable, r.errors, r.charged from unnest(
        ${customerDays.map((r) => r.customerId)}::text[], ${customerDays.map((r) => r.day)}::date[], ${customerDays.map((r) => r.requests)}::bigint[],
        ${customerDays.map((r) => r.billable)}::bigint[], ${customerDays.map((r) => r.errors)}::bigint[], ${customerDays.map((r) => r.charged)}::bigint[]
      ) as r(customer_id, day, requests, billable, errors, charged)
      on conflict (customer_id, day) do update set
        requests = ${addCustomerDay('requests')}, billable = ${addCustomerDay('billable')}, errors = ${addCustomerDay('errors')}, charged_micro = ${addCustomerDay('charged_micro')}
      returning 1
    ), api_days as (
      insert into api_usage_days (api_id, day, requests, billable, errors, charged_micro, test_requests)
      select ${apiId}, r.day, r.requests, r.billable, r.errors, r.charged, r.test_requests from unnest(
        ${apiDays.map((r) => r.day)}::date[], ${apiDays.map((r) => r.requests)}::bigint[], ${apiDays.map((r) => r.billable)}::bigint[],
        ${apiDays.map((r) => r.errors)}::bigint[], ${apiDays.map((r) => r.charged)}::bigint[], ${apiDays.map((r) => r.testRequests)}::bigint[]
      ) with ordinality as r(day, requests, billable, errors, charged, test_requests, n)
      order by r.n
      on conflict (api_id, day) do update set
        requests = ${addApiDay('requests')}, billable = ${addApiDay('billable')}, errors = ${addApiDay('errors')},
        charged_micro = ${addApiDay('charged_micro')}, test_requests = ${addApiDay('test_requests')}
      returning 1
    ), keys as (
      update customer_keys set last_used_at = ${counters.at}::timestamptz
      where api_id = ${apiId} and id = any(${keyIds}::uuid[]) and (last_used_at is null or last_used_at < ${counters.staleBefore}::timestamptz)
      returning 1
    )
    select m.customer_id, m.month::text as month, m.requests, q.added, q.quota
    from months m join unnest(${months.map((r) => r.customerId)}::text[], ${months.map((r) => r.month)}::date[], ${months.map((r) => r.requests)}::bigint[],
        ${months.map((r) => r.quota ?? 0)}::bigint[]) as q(customer_id, month, added, quota)
      on q.customer_id = m.customer_id and q.month = m.month
    where q.quota > 0 and ((m.requests >= q.quota and m.requests - q.added < q.quota)
      or (m.requests * 5 >= q.quota * 4 and (m.requests - q.added) * 5 < q.quota * 4))`.execute(trx);
  return crossed.rows;
}

/** Current usage policies of customers, for items that name none. */
export function currentPolicyIds(trx: Trx, apiId: string, customerIds: string[]) {
  return trx
    .selectFrom('customers')
    .select(['id', 'usage_policy_id'])
    .where('api_id', '=', apiId)
    .where(sql<boolean>`id = any(${customerIds}::text[])`)
    .execute();
}

/** Receipts older than the retention window (wire protocol: keep at least 46 days). */
export async function deleteReceiptsBefore(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('usage_receipts').where('received_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
