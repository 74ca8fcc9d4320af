import type { Selectable } from 'kysely';
import type { Trx } from '../platform/db/database.js';
import type { NewEvent } from '../webhooks/event-types.js';
import { raiseEvents } from '../webhooks/outbox.js';
import type { CustomersTable } from './tables.js';

type CustomerRow = Selectable<CustomersTable>;

// A customer's subscription lives on its row (plan, provider status, period end), written by the
// payments provider's events through CustomerService.applyProviderBilling. Its events are read
// from the row before and after such a write, so every path that moves a subscription (a
// webhook, the grace job) raises them, and a repeated or stale provider event, which changes
// nothing, raises none.

/** Provider statuses in which the subscription is in force (its plan applies). */
const LIVE = new Set(['active', 'trialing', 'past_due']);
/** Statuses in which it has ended for good. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

/** The subscription as events show it; it moves with the customer's row, so it carries that row's updated_seq. */
export function subscriptionObject(row: CustomerRow) {
  return {
    object: 'subscription',
    customer_id: row.id,
    plan_id: row.plan_id,
    status: row.subscription_status,
    current_period_end: row.subscription_period_end?.toISOString() ?? null,
    cancel_at_period_end: row.subscription_cancel_at_period_end,
    updated_seq: row.updated_seq,
  };
}

/** What a change of the provider's subscription says: created, plan changed, renewed, past due, canceled. */
export function subscriptionEvents(before: CustomerRow, after: CustomerRow): NewEvent[] {
  if (after.plan_source !== 'provider' && before.plan_source !== 'provider') return [];
  const was = before.plan_source === 'provider' ? before.subscription_status : null;
  const is = after.subscription_status;
  const object = subscriptionObject(after);
  const previous = { plan_id: before.plan_id, status: was, current_period_end: before.subscription_period_end?.toISOString() ?? null };
  const event = (type: NewEvent['type']): NewEvent => ({ type, data: { object, previous } });
  const wasLive = was !== null && LIVE.has(was);
  const isLive = is !== null && LIVE.has(is);
  const events: NewEvent[] = [];
  if (!wasLive && isLive) events.push(event('subscription.created'));
  if (wasLive && isLive && before.plan_id !== after.plan_id) events.push(event('subscription.plan_changed'));
  // A new paid period of the same plan: its end moved on while the subscription stayed active.
  const periodMoved = !!before.subscription_period_end && !!after.subscription_period_end && after.subscription_period_end > before.subscription_period_end;
  if (wasLive && is === 'active' && before.plan_id === after.plan_id && periodMoved) events.push(event('subscription.renewed'));
  if (is === 'past_due' && was !== 'past_due') events.push(event('subscription.past_due'));
  if (wasLive && is !== null && ENDED.has(is)) events.push(event('subscription.canceled'));
  return events;
}

export function raiseSubscriptionEvents(trx: Trx, apiId: string, at: Date, before: CustomerRow, after: CustomerRow) {
  return raiseEvents(trx, apiId, at, subscriptionEvents(before, after));
}
