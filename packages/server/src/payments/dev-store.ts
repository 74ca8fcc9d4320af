import { sql } from 'kysely';
import type { Db } from '../platform/db/database.js';

// The development provider's objects, as rows of one table (dev_payment_objects): what Stripe
// would keep on its side. SQL of the development provider lives here.

export interface DevCheckout {
  mode: 'payment' | 'subscription' | 'setup';
  status: 'open' | 'complete' | 'expired';
  customer: string;
  amount_cents: number;
  description: string;
  price_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  /** On an owner's connected account (false: the platform's own account). */
  connected: boolean;
}

export interface DevSubscription {
  customer: string;
  price_id: string | null;
  amount_cents: number;
  metadata: Record<string, string>;
  status: string;
  /** Unix seconds. */
  period_end: number;
  cancel_at_period_end: boolean;
  /** Paid with a card that is declined from the first renewal on (the test page's choice). */
  declines?: boolean;
}

/** An invoice of a subscription: paid at once, or left open by a declined renewal until paid on its test page. */
export interface DevInvoice {
  status: 'open' | 'paid';
  subscription: string;
  customer: string;
  amount_cents: number;
  metadata: Record<string, string>;
}

/** What a payment's test page refunded or disputed, kept on the paid object's data. */
export interface DevReversals {
  refunds?: { id: string; amount: number; created: number }[];
  amount_refunded?: number;
  dispute?: { id: string; amount: number; status: string } | null;
}

export interface DevPayment {
  id: string;
  kind: 'checkout' | 'payment_intent' | 'invoice';
  accountId: string;
  amountCents: number;
  paymentIntentId: string;
  chargeId: string;
  refunds: NonNullable<DevReversals['refunds']>;
  amountRefunded: number;
  dispute: DevReversals['dispute'] | null;
  data: Record<string, unknown>;
}

/** Replaces an object's data if it still is `before`: of two changes at once, one applies. */
export async function replaceIf(db: Db, id: string, before: Record<string, unknown>, after: Record<string, unknown>): Promise<boolean> {
  const row = await db
    .updateTable('dev_payment_objects')
    .set({ data: JSON.stringify(after) })
    .where('id', '=', id)
    .where(sql<boolean>`data = ${JSON.stringify(before)}::jsonb`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function put(db: Db, row: { id: string; kind: string; account_id: string; data: Record<string, unknown>; created_at: Date }) {
  await db.insertInto('dev_payment_objects').values({ ...row, data: JSON.stringify(row.data) }).execute();
}

export function get(db: Db, id: string, kind: string) {
  return db.selectFrom('dev_payment_objects').selectAll().where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
}

export async function update(db: Db, id: string, data: Record<string, unknown>) {
  await db.updateTable('dev_payment_objects').set({ data: JSON.stringify(data) }).where('id', '=', id).execute();
}

/** Expires an open checkout session, as Stripe's expire does; false when it was not open. */
export async function expireCheckout(db: Db, id: string, accountId: string): Promise<boolean> {
  const row = await db
    .updateTable('dev_payment_objects')
    .set({ data: sql`jsonb_set(data, '{status}', '"expired"')` })
    .where('id', '=', id)
    .where('kind', '=', 'checkout')
    .where('account_id', '=', accountId)
    .where(sql<boolean>`data->>'status' = 'open'`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Completes an open checkout session (or pays an open invoice) once: a second click (or a second
 * node) finds it done.
 */
export function claim(db: Db, id: string, kind: 'checkout' | 'invoice' = 'checkout') {
  return db
    .updateTable('dev_payment_objects')
    .set({ data: kind === 'checkout' ? sql`jsonb_set(data, '{status}', '"complete"')` : sql`jsonb_set(data, '{status}', '"paid"')` })
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where(sql<boolean>`data->>'status' = 'open'`)
    .returningAll()
    .executeTakeFirst();
}

/** Subscriptions still running whose paid period ended by `nowSeconds` (renewal is due). */
export function dueSubscriptions(db: Db, nowSeconds: number) {
  return db
    .selectFrom('dev_payment_objects')
    .selectAll()
    .where('kind', '=', 'subscription')
    .where(sql<boolean>`data->>'status' in ('active', 'past_due')`)
    .where(sql<boolean>`(data->>'period_end')::bigint <= ${nowSeconds}`)
    .orderBy('created_at')
    .limit(500)
    .execute();
}

/**
 * Replaces a subscription's data if its period still ends at `periodEnd`: of two renewals at once
 * (two nodes), one moves it on and the other finds nothing.
 */
export async function advance(db: Db, id: string, periodEnd: number, data: Record<string, unknown>): Promise<boolean> {
  const row = await db
    .updateTable('dev_payment_objects')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', id)
    .where('kind', '=', 'subscription')
    .where(sql<boolean>`(data->>'period_end')::bigint = ${periodEnd}`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The subscriptions of an account (test pages and checks). */
export function subscriptionsOf(db: Db, accountId: string) {
  return db.selectFrom('dev_payment_objects').selectAll().where('kind', '=', 'subscription').where('account_id', '=', accountId).orderBy('created_at').execute();
}

/** The subscriptions made for an API (by their metadata), oldest first. */
export function subscriptionsOfApi(db: Db, apiId: string) {
  return db.selectFrom('dev_payment_objects').selectAll().where('kind', '=', 'subscription').where(sql<boolean>`data->'metadata'->>'gh_api' = ${apiId}`).orderBy('created_at').execute();
}

/** How many invoices a subscription has had (paid or open). */
export async function countInvoices(db: Db, subscriptionId: string): Promise<number> {
  const row = await db.selectFrom('dev_payment_objects').select(sql<string>`count(*)::text`.as('n')).where('kind', '=', 'invoice').where(sql<boolean>`data->>'subscription' = ${subscriptionId}`).executeTakeFirst();
  return Number(row?.n ?? 0);
}
