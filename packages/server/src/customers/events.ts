import type { Selectable } from 'kysely';
import type { Trx } from '../platform/db/database.js';
import type { EventType } from '../webhooks/event-types.js';
import { raiseEvent, raiseEvents } from '../webhooks/outbox.js';
import type { CustomerKeysTable, CustomersTable, CustomerStatus } from './tables.js';

// The customer capability's events to owners (issue 24 item 4): objects whole, as they are after
// the change, raised in its transaction. Customers carry two sequences: `balance_seq` for the
// balance, `updated_seq` for everything else; keys move only forward (created, then revoked).

type CustomerRow = Selectable<CustomersTable>;

/** A customer as events show it; `lowBalanceMicro` is the line in force (its own, else the API's). */
export function customerObject(row: CustomerRow, lowBalanceMicro: number) {
  return {
    object: 'customer',
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    is_test: row.is_test,
    plan_id: row.plan_id,
    subscription_status: row.subscription_status,
    balance_micro: row.balance_micro,
    balance_seq: row.balance_seq,
    low_balance_micro: lowBalanceMicro,
    custom_limits: { monthly_quota: row.custom_monthly_quota, price_per_request_micro: row.custom_price_per_request_micro, rps: row.custom_rps },
    notes: row.notes,
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    updated_seq: row.updated_seq,
  };
}

/** A customer key as events show it: never the key, only its start. */
export function customerKeyObject(key: Pick<Selectable<CustomerKeysTable>, 'id' | 'customer_id' | 'name' | 'prefix' | 'created_at' | 'revoked_at'>) {
  return {
    object: 'customer_key',
    id: key.id,
    customer_id: key.customer_id,
    name: key.name,
    prefix: key.prefix,
    created_at: key.created_at.toISOString(),
    revoked_at: key.revoked_at?.toISOString() ?? null,
    updated_seq: key.revoked_at ? 2 : 1,
  };
}

export interface CustomerApi {
  id: string;
  low_balance_micro: number;
}

const lineOf = (api: CustomerApi, row: CustomerRow) => row.low_balance_micro ?? api.low_balance_micro;

/** customer.created, customer.updated or customer.deleted. */
export function raiseCustomerEvent(trx: Trx, api: CustomerApi, at: Date, type: Extract<EventType, `customer.${string}`>, row: CustomerRow, previous?: Record<string, unknown>) {
  return raiseEvent(trx, api.id, at, { type, data: { object: customerObject(row, lineOf(api, row)), ...(previous ? { previous } : {}) } });
}

/** Why a status changed, in the owner's words (the console's approve, refuse, suspend, reactivate). */
export function statusReason(from: CustomerStatus, to: CustomerStatus): string {
  if (from === 'pending') return to === 'active' ? 'approved' : 'refused';
  return to === 'suspended' ? 'suspended' : 'reactivated';
}

/**
 * What a change of a customer's row says: customer.status_changed for its status (with the
 * reason), customer.updated for anything else the object shows (the values before in `previous`).
 */
export async function raiseCustomerChanges(trx: Trx, api: CustomerApi, at: Date, before: CustomerRow, after: CustomerRow): Promise<void> {
  const object = customerObject(after, lineOf(api, after));
  const was = customerObject(before, lineOf(api, before));
  const changed = (Object.keys(object) as (keyof typeof object)[]).filter(
    (field) => !['status', 'updated_at', 'updated_seq', 'balance_micro', 'balance_seq', 'subscription_status'].includes(field) && JSON.stringify(object[field]) !== JSON.stringify(was[field]),
  );
  const events = [];
  if (before.status !== after.status) {
    events.push({ type: 'customer.status_changed' as const, data: { object, previous: { status: before.status }, reason: statusReason(before.status, after.status) } });
  }
  if (changed.length) events.push({ type: 'customer.updated' as const, data: { object, previous: Object.fromEntries(changed.map((field) => [field, was[field]])) } });
  await raiseEvents(trx, api.id, at, events);
}

export function raiseKeyEvents(trx: Trx, apiId: string, at: Date, type: 'key.created' | 'key.revoked', keys: Parameters<typeof customerKeyObject>[0][]) {
  return raiseEvents(trx, apiId, at, keys.map((key) => ({ type, data: { object: customerKeyObject(key) } })));
}
