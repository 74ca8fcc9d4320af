/**
 * Every event an owner's endpoint can hear (issue 24 item 4), and what raises it. An endpoint
 * subscribes to some of them, or (an empty list) to all; `webhook.test` goes only to the endpoint
 * it is sent to and is never listed among the API's events.
 */
export const EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.status_changed',
  'customer.deleted',
  'customer.balance_low',
  'customer.balance_depleted',
  'customer.balance_recovered',
  'credit.added',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'auto_recharge.failed',
  'subscription.created',
  'subscription.plan_changed',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.canceled',
  'usage.threshold_reached',
  'key.created',
  'key.revoked',
  'sdk.connected',
  'sdk.disconnected',
  'platform.allowance_threshold',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const TEST_EVENT_TYPE = 'webhook.test';

/** What a webhook body carries (Standard Webhooks): the object as it is now, and what changed. */
export interface EventData {
  object: Record<string, unknown>;
  /** The values the changed fields had before, for events about a change. */
  previous?: Record<string, unknown>;
  /** Why a status changed (customer.status_changed). */
  reason?: string;
}

export interface NewEvent {
  type: EventType;
  data: EventData;
}
