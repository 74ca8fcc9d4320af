import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import { LIVE_SUBSCRIPTION_STATUSES, type PaymentAccountsTable, type PaymentCheckoutsTable, type PaymentCustomersTable, type PaymentReceiptsTable, type ProviderName } from './tables.js';

type Executor = Db | Trx;

// ---- Accounts (Connect) ----

export function accountOf(db: Executor, apiId: string) {
  return db.selectFrom('payment_accounts').selectAll().where('api_id', '=', apiId).executeTakeFirst();
}

export async function upsertAccount(db: Executor, row: Insertable<PaymentAccountsTable>) {
  await db
    .insertInto('payment_accounts')
    .values(row)
    .onConflict((oc) =>
      oc.column('api_id').doUpdateSet({
        provider: row.provider,
        account_id: row.account_id,
        livemode: row.livemode ?? false,
        charges_enabled: row.charges_enabled ?? false,
        account_name: row.account_name ?? null,
        connected_at: row.connected_at,
        disconnected_at: null,
        status_event_at: row.status_event_at ?? null,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function updateAccountsByProviderId(trx: Trx, provider: ProviderName, accountId: string, changes: Updateable<PaymentAccountsTable>) {
  return trx.updateTable('payment_accounts').set(changes).where('provider', '=', provider).where('account_id', '=', accountId).returning('api_id').execute();
}

/** Rows for this provider account, locked: events about one account take turns. */
export function lockAccountsByProviderId(trx: Trx, provider: ProviderName, accountId: string) {
  return trx.selectFrom('payment_accounts').selectAll().where('provider', '=', provider).where('account_id', '=', accountId).forUpdate().execute();
}

export async function disconnect(db: Executor, apiId: string, at: Date) {
  await db.updateTable('payment_accounts').set({ disconnected_at: at, charges_enabled: false, updated_at: at }).where('api_id', '=', apiId).execute();
}

// ---- Events ----

/** Records an event before applying it; false when it was recorded before (a repeat). */
export async function recordEvent(trx: Trx, row: { provider: ProviderName; event_id: string; type: string; account_id: string | null; received_at: Date }): Promise<boolean> {
  const inserted = await trx
    .insertInto('payment_events')
    .values({ ...row, outcome: 'pending' })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function setEventOutcome(trx: Trx, provider: ProviderName, eventId: string, outcome: string) {
  await trx.updateTable('payment_events').set({ outcome: outcome.slice(0, 500) }).where('provider', '=', provider).where('event_id', '=', eventId).execute();
}

// ---- Customers at the provider ----

export function paymentCustomer(db: Executor, apiId: string, customerId: string) {
  return db.selectFrom('payment_customers').selectAll().where('api_id', '=', apiId).where('customer_id', '=', customerId).executeTakeFirst();
}

export function lockPaymentCustomer(trx: Trx, apiId: string, customerId: string) {
  return trx.selectFrom('payment_customers').selectAll().where('api_id', '=', apiId).where('customer_id', '=', customerId).forUpdate().executeTakeFirst();
}

/** Remembers the provider's customer (and what else is known) for an API's customer. */
export async function savePaymentCustomer(db: Executor, row: Insertable<PaymentCustomersTable>, changes: Updateable<PaymentCustomersTable>) {
  await db
    .insertInto('payment_customers')
    .values(row)
    .onConflict((oc) => oc.columns(['api_id', 'customer_id']).doUpdateSet(changes))
    .execute();
}

// ---- Plan prices ----

export function latestPlanPrice(db: Executor, planId: string) {
  return db.selectFrom('plan_prices').selectAll().where('plan_id', '=', planId).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
}

export async function insertPlanPrice(db: Executor, row: { plan_id: string; api_id: string; account_id: string; product_id: string; price_id: string; amount_cents: number; created_at: Date }) {
  await db.insertInto('plan_prices').values(row).onConflict((oc) => oc.columns(['plan_id', 'price_id']).doNothing()).execute();
}

// ---- Platform subscriptions ----

/**
 * The subscription the API's plan follows, locked: its live one, else the one heard of last.
 * Events of one API's platform plan take turns under the API row's lock already.
 */
export function lockCurrentPlatformSubscription(trx: Trx, apiId: string) {
  return trx
    .selectFrom('platform_subscriptions')
    .selectAll()
    .where('api_id', '=', apiId)
    .orderBy(sql`status in ('trialing', 'active', 'past_due')`, 'desc')
    .orderBy('updated_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** The API's live platform subscription, if any. */
export function livePlatformSubscription(db: Executor, apiId: string) {
  return db.selectFrom('platform_subscriptions').selectAll().where('api_id', '=', apiId).where('status', 'in', [...LIVE_SUBSCRIPTION_STATUSES]).executeTakeFirst();
}

/** The provider customer the owner paid with last (a new checkout reuses it). */
export function latestPlatformCustomer(db: Executor, apiId: string) {
  return db.selectFrom('platform_subscriptions').select('provider_customer_id').where('api_id', '=', apiId).where('provider_customer_id', 'is not', null).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
}

export async function savePlatformSubscription(db: Executor, row: { subscription_id: string; api_id: string; provider_customer_id: string | null; status: string; plan_code: string | null; event_at: Date | null; updated_at: Date }) {
  await db
    .insertInto('platform_subscriptions')
    .values({ ...row, grace_warned_at: null })
    .onConflict((oc) =>
      oc.column('subscription_id').doUpdateSet({ provider_customer_id: row.provider_customer_id, status: row.status, plan_code: row.plan_code, event_at: row.event_at, updated_at: row.updated_at }),
    )
    .execute();
}

export async function setPlatformSubscriptionStatus(db: Executor, subscriptionId: string, status: string, at: Date) {
  await db.updateTable('platform_subscriptions').set({ status, updated_at: at }).where('subscription_id', '=', subscriptionId).execute();
}

/** Past-due platform subscriptions whose owner was not warned yet that the grace ends soon. */
export function platformGracesEndingBefore(db: Executor, apiIds: string[]) {
  if (!apiIds.length) return Promise.resolve([]);
  return db.selectFrom('platform_subscriptions').selectAll().where('api_id', 'in', apiIds).where('status', '=', 'past_due').where('grace_warned_at', 'is', null).execute();
}

/** Marks the warning sent; false when another run sent it first. */
export async function claimGraceWarning(db: Executor, subscriptionId: string, at: Date): Promise<boolean> {
  const row = await db.updateTable('platform_subscriptions').set({ grace_warned_at: at }).where('subscription_id', '=', subscriptionId).where('grace_warned_at', 'is', null).returning('subscription_id').executeTakeFirst();
  return row !== undefined;
}

/** Subscriptions past due since before `cutoff` whose customer still reads past_due (the grace job). */
export function pastDueBefore(db: Executor, cutoff: Date) {
  return db
    .selectFrom('payment_customers as p')
    .innerJoin('customers as c', (join) => join.onRef('c.id', '=', 'p.customer_id').onRef('c.api_id', '=', 'p.api_id'))
    .select(['p.api_id', 'p.customer_id'])
    .where('p.past_due_since', '<', cutoff)
    .where('c.subscription_status', '=', 'past_due')
    .limit(1000)
    .execute();
}

/** APIs connected to this provider, for the plan sync job. */
export async function connectedApis(db: Executor, provider: ProviderName): Promise<string[]> {
  const rows = await db.selectFrom('payment_accounts').select('api_id').where('provider', '=', provider).where('disconnected_at', 'is', null).execute();
  return rows.map((r) => r.api_id);
}

// ---- Checkouts the portal started, and receipts ----

export async function insertCheckout(db: Executor, row: Insertable<PaymentCheckoutsTable>) {
  await db.insertInto('payment_checkouts').values(row).onConflict((oc) => oc.column('session_id').doNothing()).execute();
}

/** Subscription checkouts of a plan started since `since` and not expired yet. */
export function openCheckoutsOfPlan(db: Executor, apiId: string, planId: string, since: Date) {
  return db
    .selectFrom('payment_checkouts')
    .select(['session_id', 'customer_id'])
    .where('api_id', '=', apiId)
    .where('plan_id', '=', planId)
    .where('expired_at', 'is', null)
    .where('created_at', '>', since)
    .execute();
}

export async function markCheckoutExpired(db: Executor, apiId: string, sessionId: string, at: Date) {
  await db.updateTable('payment_checkouts').set({ expired_at: at }).where('api_id', '=', apiId).where('session_id', '=', sessionId).execute();
}

export function checkoutOf(db: Executor, apiId: string, sessionId: string) {
  return db.selectFrom('payment_checkouts').selectAll().where('api_id', '=', apiId).where('session_id', '=', sessionId).executeTakeFirst();
}

/** A receipt for a credit just posted; a repeat of the same payment (same ref) adds none. */
export async function insertReceipt(trx: Trx, row: Insertable<PaymentReceiptsTable>) {
  await trx.insertInto('payment_receipts').values(row).onConflict((oc) => oc.columns(['api_id', 'ref']).doNothing()).execute();
}

/** Receipts not mailed yet whose last claim (if any) is older than `claimedBefore`, oldest first. */
export function unmailedReceipts(db: Executor, claimedBefore: Date, limit: number) {
  return db
    .selectFrom('payment_receipts')
    .select(['api_id', 'ref'])
    .where('mailed_at', 'is', null)
    .where((eb) => eb.or([eb('mail_claimed_at', 'is', null), eb('mail_claimed_at', '<', claimedBefore)]))
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Takes a receipt to mail; undefined when mailed, or claimed by another run since `claimedBefore`. */
export function claimReceipt(db: Executor, apiId: string, ref: string, now: Date, claimedBefore: Date) {
  return db
    .updateTable('payment_receipts')
    .set({ mail_claimed_at: now })
    .where('api_id', '=', apiId)
    .where('ref', '=', ref)
    .where('mailed_at', 'is', null)
    .where((eb) => eb.or([eb('mail_claimed_at', 'is', null), eb('mail_claimed_at', '<', claimedBefore)]))
    .returningAll()
    .executeTakeFirst();
}

export async function markReceiptMailed(trx: Trx, apiId: string, ref: string, receiptUrl: string | null, at: Date) {
  await trx.updateTable('payment_receipts').set({ receipt_url: receiptUrl, mailed_at: at }).where('api_id', '=', apiId).where('ref', '=', ref).execute();
}

/** A customer's receipts, newest first. */
export function receiptsOf(db: Executor, apiId: string, customerId: string, limit: number) {
  return db
    .selectFrom('payment_receipts')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('ref', 'desc')
    .limit(limit)
    .execute();
}

export function receiptOf(db: Executor, apiId: string, ref: string) {
  return db.selectFrom('payment_receipts').selectAll().where('api_id', '=', apiId).where('ref', '=', ref).executeTakeFirst();
}

// ---- Auto-recharge (columns of customers that payments keeps) ----

/** Customers whose auto-recharge is due: on, with a card, not paused, below the threshold, none in flight, past the cool-down. */
export function autoRechargeDue(db: Executor, cutoffs: { cooldownBefore: Date; staleBefore: Date }, limit: number) {
  return db
    .selectFrom('customers as c')
    .innerJoin('apis as a', 'a.id', 'c.api_id')
    .select(['c.api_id', 'c.id'])
    .where('c.auto_recharge_enabled', '=', true)
    .where('a.auto_recharge_allowed', '=', true)
    .where('c.has_card', '=', true)
    .where('c.auto_recharge_failed_at', 'is', null)
    .where('c.status', '=', 'active')
    .where('c.is_test', '=', false)
    .where(sql<boolean>`c.balance_micro < c.auto_recharge_threshold_micro`)
    .where((eb) => eb.or([eb('c.auto_recharge_charging_at', 'is', null), eb('c.auto_recharge_charging_at', '<', cutoffs.staleBefore)]))
    .where((eb) => eb.or([eb('c.auto_recharge_last_at', 'is', null), eb('c.auto_recharge_last_at', '<', cutoffs.cooldownBefore)]))
    .limit(limit)
    .execute();
}

/**
 * Takes the one charge in flight of a customer: the same conditions as autoRechargeDue, checked
 * again by the update itself, so of two runs at once (two nodes) one gets it.
 */
export function claimAutoRecharge(db: Executor, apiId: string, customerId: string, now: Date, cutoffs: { cooldownBefore: Date; staleBefore: Date }) {
  return db
    .updateTable('customers')
    .set({ auto_recharge_charging_at: now, auto_recharge_last_at: now })
    .where('api_id', '=', apiId)
    .where('id', '=', customerId)
    .where('auto_recharge_enabled', '=', true)
    .where('has_card', '=', true)
    .where('auto_recharge_failed_at', 'is', null)
    .where(sql<boolean>`balance_micro < auto_recharge_threshold_micro`)
    .where((eb) => eb.or([eb('auto_recharge_charging_at', 'is', null), eb('auto_recharge_charging_at', '<', cutoffs.staleBefore)]))
    .where((eb) => eb.or([eb('auto_recharge_last_at', 'is', null), eb('auto_recharge_last_at', '<', cutoffs.cooldownBefore)]))
    .returning(['auto_recharge_amount_cents'])
    .executeTakeFirst();
}

/** The charge is no longer in flight (its outcome came back, or failed to). */
export async function releaseAutoRecharge(db: Executor, apiId: string, customerId: string, claimedAt: Date) {
  await db.updateTable('customers').set({ auto_recharge_charging_at: null }).where('api_id', '=', apiId).where('id', '=', customerId).where('auto_recharge_charging_at', '=', claimedAt).execute();
}

/** The customer's settings; saving them is acting on a failure, so it clears failed_at. */
export async function saveAutoRecharge(trx: Trx, apiId: string, customerId: string, settings: { enabled: boolean; thresholdMicro: number; amountCents: number }, at: Date) {
  await trx
    .updateTable('customers')
    .set({ auto_recharge_enabled: settings.enabled, auto_recharge_threshold_micro: settings.thresholdMicro, auto_recharge_amount_cents: settings.amountCents, auto_recharge_failed_at: null, updated_at: at })
    .where('api_id', '=', apiId)
    .where('id', '=', customerId)
    .execute();
}

/** Pauses auto-recharge after a failure; true only for the failure that paused it (the one to mail about). */
export async function pauseAutoRecharge(trx: Trx, apiId: string, customerId: string, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable('customers')
    .set({ auto_recharge_failed_at: at, updated_at: at })
    .where('api_id', '=', apiId)
    .where('id', '=', customerId)
    .where('auto_recharge_failed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// ---- Low balance (customers.low_balance_mailed) ----

/** A customer's low-balance line: its own, else its API's; 0 means none. */
const lowLine = sql<number>`coalesce(c.low_balance_micro, a.low_balance_micro)`;

/** Customers below their line that were not mailed for this dip. */
export function lowBalanceDue(db: Executor, limit: number) {
  return db
    .selectFrom('customers as c')
    .innerJoin('apis as a', 'a.id', 'c.api_id')
    .select(['c.api_id', 'c.id'])
    .where('c.low_balance_mailed', '=', false)
    .where('c.status', '=', 'active')
    .where('c.is_test', '=', false)
    .where(sql<boolean>`${lowLine} > 0 and c.balance_micro < ${lowLine}`)
    .limit(limit)
    .execute();
}

/**
 * Marks a customer mailed for this dip, if it still is below its line and was not; answers what
 * the mail says. Of two runs at once, one gets the row.
 */
export async function claimLowBalance(trx: Trx, apiId: string, customerId: string) {
  const { rows } = await sql<{ balance_micro: number; line: number }>`
    update customers c set low_balance_mailed = true
    from apis a
    where a.id = c.api_id and c.api_id = ${apiId} and c.id = ${customerId} and not c.low_balance_mailed
      and ${lowLine} > 0 and c.balance_micro < ${lowLine}
    returning c.balance_micro::float8 as balance_micro, ${lowLine}::float8 as line`.execute(trx);
  return rows[0];
}

/** Customers back at or above their line (or with none) may be mailed again at the next dip. */
export async function rearmLowBalance(db: Executor): Promise<number> {
  const result = await sql`
    update customers c set low_balance_mailed = false
    from apis a
    where a.id = c.api_id and c.low_balance_mailed and (${lowLine} <= 0 or c.balance_micro >= ${lowLine})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

// ---- Refunds and disputes (issue 23) ----

/**
 * The receipt of a payment on an account, by its payment intent, locked: refunds and disputes of
 * one payment take turns, so each reads what the one before it took back. An auto-recharge's
 * receipt is keyed on its payment intent already.
 */
export function lockReceiptByIntent(trx: Trx, accountId: string, paymentIntentId: string) {
  return trx
    .selectFrom('payment_receipts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('payment_intent_id', '=', paymentIntentId), eb.and([eb('kind', '=', 'auto_recharge'), eb('ref', '=', paymentIntentId)])]))
    .forUpdate()
    .executeTakeFirst();
}

export async function updateReceiptReversal(trx: Trx, apiId: string, ref: string, changes: Updateable<PaymentReceiptsTable>) {
  await trx.updateTable('payment_receipts').set(changes).where('api_id', '=', apiId).where('ref', '=', ref).execute();
}

export function platformSubscriptionById(trx: Trx, subscriptionId: string) {
  return trx.selectFrom('platform_subscriptions').selectAll().where('subscription_id', '=', subscriptionId).forUpdate().executeTakeFirst();
}

export async function resetGraceWarning(trx: Trx, subscriptionId: string) {
  await trx.updateTable('platform_subscriptions').set({ grace_warned_at: null }).where('subscription_id', '=', subscriptionId).where('grace_warned_at', 'is not', null).execute();
}

/** Customers of an API whose subscription at the provider still bills (deleting the API ends them). */
export function liveCustomerSubscriptions(db: Executor, apiId: string) {
  return db
    .selectFrom('payment_customers as p')
    .innerJoin('customers as c', (join) => join.onRef('c.id', '=', 'p.customer_id').onRef('c.api_id', '=', 'p.api_id'))
    .select(['p.customer_id', 'p.account_id', 'p.subscription_id', 'c.name'])
    .where('p.api_id', '=', apiId)
    .where('p.subscription_id', 'is not', null)
    .where('c.plan_source', '=', 'provider')
    .where('c.subscription_status', 'in', ['trialing', 'active', 'past_due'])
    .execute();
}
