import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { CustomerKeysTable, CustomersTable, CustomerStatus, UsagePoliciesTable } from './tables.js';

type Executor = Db | Trx;

export async function insertCustomer(trx: Trx, row: Insertable<CustomersTable>) {
  return trx.insertInto('customers').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A customer of one API: the API id is part of every lookup, so another API's customer is not found. */
export function findCustomer(db: Executor, apiId: string, customerId: string) {
  return db.selectFrom('customers').selectAll().where('api_id', '=', apiId).where('id', '=', customerId).executeTakeFirst();
}

/** A customer row, locked until the transaction ends (changes read what they change under it). */
export function lockCustomer(trx: Trx, apiId: string, customerId: string) {
  return trx.selectFrom('customers').selectAll().where('api_id', '=', apiId).where('id', '=', customerId).forUpdate().executeTakeFirst();
}

/**
 * A customer row locked against other writers of its keys, FOR NO KEY UPDATE: the usage reports'
 * inserts hold FOR KEY SHARE on it through their foreign keys, and FOR UPDATE would queue behind a
 * stream of them (issue 26 item 1, the same on the API row).
 */
export async function lockCustomerForKeys(trx: Trx, apiId: string, customerId: string) {
  await trx.selectFrom('customers').select('id').where('api_id', '=', apiId).where('id', '=', customerId).forNoKeyUpdate().executeTakeFirst();
}

/** How many keys of a customer work (not revoked). */
export async function countActiveKeys(db: Executor, apiId: string, customerId: string): Promise<number> {
  const row = await db.selectFrom('customer_keys').select((eb) => eb.fn.countAll().as('n')).where('api_id', '=', apiId).where('customer_id', '=', customerId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A customer row held FOR KEY SHARE (what a row referencing it takes anyway): a removal, which
 * locks it FOR UPDATE, waits for the holder or is seen by it.
 */
export function holdCustomer(trx: Trx, apiId: string, customerId: string) {
  return trx.selectFrom('customers').select(['id', 'archived_at']).where('api_id', '=', apiId).where('id', '=', customerId).forKeyShare().executeTakeFirst();
}

/** Holds the API row until the transaction ends: customer creation and the test key queue on it. */
export function findTestCustomer(db: Executor, apiId: string) {
  return db.selectFrom('customers').selectAll().where('api_id', '=', apiId).where('is_test', '=', true).executeTakeFirst();
}

/** Every change of a customer's row but its balance moves updated_seq, the order events carry (webhooks). */
export async function updateCustomer(trx: Executor, apiId: string, customerId: string, changes: Updateable<CustomersTable>) {
  return trx
    .updateTable('customers')
    .set({ ...changes, updated_seq: sql`updated_seq + 1` })
    .where('api_id', '=', apiId)
    .where('id', '=', customerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countRealCustomers(db: Executor, apiId: string): Promise<number> {
  const row = await db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).where('api_id', '=', apiId).where('is_test', '=', false).where('archived_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countCustomersByApi(db: Executor, apiIds: string[]) {
  if (!apiIds.length) return [];
  return db
    .selectFrom('customers')
    .select(['api_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('api_id', 'in', apiIds)
    .where('is_test', '=', false)
    .where('archived_at', 'is', null)
    .groupBy('api_id')
    .execute();
}

export interface CustomerPageOptions {
  before: { at: Date; id: string } | null;
  status: CustomerStatus | null;
  /** Archived customers only, or (false) the others. */
  archived: boolean;
  search: string | null;
  limit: number;
  month: string;
}

/** Newest first, keyed on (created_at, id): rows added while paging never shift a page. */
export function customerPage(db: Db, apiId: string, options: CustomerPageOptions) {
  let query = db
    .selectFrom('customers as c')
    .leftJoin('plans as p', 'p.id', 'c.plan_id')
    .leftJoin('customer_usage_months as m', (join) => join.onRef('m.customer_id', '=', 'c.id').on('m.month', '=', options.month))
    .selectAll('c')
    .select(['p.name as plan_name', sql<number>`coalesce(m.requests, 0)`.as('month_requests')])
    .where('c.api_id', '=', apiId)
    .where('c.archived_at', options.archived ? 'is not' : 'is', null);
  if (options.status) query = query.where('c.status', '=', options.status);
  if (options.search) {
    const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('c.email', 'ilike', pattern)]));
  }
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('c.created_at', '<', at), eb.and([eb('c.created_at', '=', at), eb('c.id', '<', id)])]));
  }
  return query.orderBy('c.created_at', 'desc').orderBy('c.id', 'desc').limit(options.limit).execute();
}

export async function monthRequestsOf(db: Executor, customerId: string, month: string): Promise<number> {
  const row = await db.selectFrom('customer_usage_months').select('requests').where('customer_id', '=', customerId).where('month', '=', month).executeTakeFirst();
  return row?.requests ?? 0;
}

/** This month's counters of a customer: requests of every status, billable ones, and what they were charged. */
export async function monthUsageOf(db: Executor, customerId: string, month: string) {
  const row = await db.selectFrom('customer_usage_months').select(['requests', 'billable', 'charged_micro']).where('customer_id', '=', customerId).where('month', '=', month).executeTakeFirst();
  return { requests: row?.requests ?? 0, billable: row?.billable ?? 0, chargedMicro: row?.charged_micro ?? 0 };
}

/** A customer's daily counters in [fromDay, toDay], oldest first; days without usage have no row. */
export function usageDaysOf(db: Executor, apiId: string, customerId: string, fromDay: string, toDay: string) {
  return db
    .selectFrom('customer_usage_days')
    .select(['day', 'requests', 'billable', 'errors', 'charged_micro'])
    .where('api_id', '=', apiId)
    .where('customer_id', '=', customerId)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .execute();
}

export function planOf(db: Executor, apiId: string, planId: string) {
  return db.selectFrom('plans').selectAll().where('api_id', '=', apiId).where('id', '=', planId).executeTakeFirst();
}

/**
 * A plan a customer is being put on, held FOR KEY SHARE until the transaction ends: the lock the
 * customer's foreign key takes anyway, taken before the customer (a plan before its customers,
 * docs/architecture.md). A plan's deletion (FOR UPDATE) waits for it before counting subscribers;
 * changes of the plan (FOR NO KEY UPDATE) do not conflict with it.
 */
export function lockPlanForAssignment(trx: Trx, apiId: string, planId: string) {
  return trx.selectFrom('plans').selectAll().where('api_id', '=', apiId).where('id', '=', planId).forKeyShare().executeTakeFirst();
}

/** What a policy refresh needs of every customer of an API (or of some of them). */
export function customersForPolicies(trx: Trx, apiId: string, customerIds: string[] | null) {
  let query = trx
    .selectFrom('customers as c')
    .leftJoin('plans as p', 'p.id', 'c.plan_id')
    .leftJoin('usage_policies as u', 'u.id', 'c.usage_policy_id')
    .select([
      'c.id',
      'c.plan_id',
      'c.plan_source',
      'c.subscription_status',
      'c.custom_rps',
      'c.custom_price_per_request_micro',
      'c.custom_monthly_quota',
      'p.rps as plan_rps',
      'p.price_per_request_micro as plan_price_per_request_micro',
      'p.monthly_quota as plan_monthly_quota',
      'u.id as policy_id',
      'u.rps as policy_rps',
      'u.price_per_request_micro as policy_price_per_request_micro',
      'u.monthly_quota as policy_monthly_quota',
      'u.source as policy_source',
      'u.billing_model as policy_billing_model',
      'u.billable_status_codes as policy_billable_status_codes',
    ])
    .where('c.api_id', '=', apiId)
    // Locked in id order, as usage ingestion locks them: a change of terms during a report then
    // waits for it instead of deadlocking (PostgreSQL answered 500 to one of the two).
    .orderBy('c.id')
    .forUpdate('c');
  if (customerIds) query = query.where('c.id', 'in', customerIds.length ? customerIds : ['']);
  return query.execute();
}

export async function insertPolicies(trx: Trx, rows: Insertable<UsagePoliciesTable>[]) {
  if (rows.length) await trx.insertInto('usage_policies').values(rows).execute();
}

/** Points customers at their new policies, in one statement. */
export async function assignPolicies(trx: Trx, apiId: string, pairs: { customerId: string; policyId: string }[]) {
  if (!pairs.length) return;
  const values = sql.join(pairs.map((p) => sql`(${p.customerId}, ${p.policyId}::uuid)`));
  await sql`update customers c set usage_policy_id = v.policy_id from (values ${values}) as v(customer_id, policy_id)
    where c.id = v.customer_id and c.api_id = ${apiId}`.execute(trx);
}

export function findPolicy(db: Executor, policyId: string) {
  return db.selectFrom('usage_policies').selectAll().where('id', '=', policyId).executeTakeFirst();
}

export async function insertKey(trx: Trx, row: Insertable<CustomerKeysTable>) {
  await trx.insertInto('customer_keys').values(row).execute();
}

export function activeKeysOf(db: Executor, apiId: string, customerId: string) {
  return db
    .selectFrom('customer_keys')
    .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'created_by_person'])
    .where('api_id', '=', apiId)
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function revokeKey(trx: Trx, apiId: string, customerId: string, keyId: string, at: Date) {
  return trx
    .updateTable('customer_keys')
    .set({ revoked_at: at })
    .where('api_id', '=', apiId)
    .where('customer_id', '=', customerId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'customer_id', 'name', 'prefix', 'created_at', 'revoked_at'])
    .executeTakeFirst();
}

/**
 * What keeps a customer from being deleted outright (docs/decisions.md): a ledger entry other than
 * its welcome credit, usage counted, or any key ever issued (usage of a key may arrive up to 47 days
 * after the request). Read under the customer's lock; the payments provider's record is on the row.
 */
export async function recordsOf(trx: Trx, apiId: string, customerId: string) {
  const row = await trx
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('ledger_entries').select('id').where('api_id', '=', apiId).where('customer_id', '=', customerId).where('kind', '!=', 'welcome')).as('ledger'),
      eb.exists(eb.selectFrom('customer_usage_months').select('month').where('customer_id', '=', customerId)).as('usage'),
      eb.exists(eb.selectFrom('customer_keys').select('id').where('api_id', '=', apiId).where('customer_id', '=', customerId)).as('keys'),
    ])
    .executeTakeFirstOrThrow();
  return { ledger: !!row.ledger, usage: !!row.usage, keys: !!row.keys };
}

/** Deletes a customer; its keys, policies, welcome entry, memberships and invitations go with it (cascade). */
export async function deleteCustomer(trx: Trx, apiId: string, customerId: string) {
  await trx.deleteFrom('customers').where('api_id', '=', apiId).where('id', '=', customerId).execute();
}

/** Revokes every live key of a customer; answers the keys it revoked. */
export function revokeKeysOf(trx: Trx, apiId: string, customerId: string, at: Date) {
  return trx
    .updateTable('customer_keys')
    .set({ revoked_at: at })
    .where('api_id', '=', apiId)
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'customer_id', 'name', 'prefix', 'created_at', 'revoked_at'])
    .execute();
}

/** Revokes the open invitations to join a customer. */
export async function revokeInvitesTo(trx: Trx, apiId: string, customerId: string, at: Date) {
  await trx.updateTable('customer_invites').set({ revoked_at: at }).where('api_id', '=', apiId).where('customer_id', '=', customerId).where('accepted_at', 'is', null).where('revoked_at', 'is', null).execute();
}

/** A customer of the API with this (lowercased) address that is not archived. */
export function customerWithEmail(db: Executor, apiId: string, email: string) {
  return db.selectFrom('customers').select('id').where('api_id', '=', apiId).where('email', '=', email).where('archived_at', 'is', null).where('is_test', '=', false).executeTakeFirst();
}
