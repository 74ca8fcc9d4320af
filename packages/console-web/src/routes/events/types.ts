// The records of the events pages, named from the generated client so they follow the API's schemas.
import type { paths } from '../../api/schema.js';
import type { ResponseOf, RequestOf } from '../../api/records.js';
import { key } from '../../app/query-keys.js';

export type WebhookOut = ResponseOf<'/api/apis/{api}/webhooks/{endpoint}', 'get'>;
export type NewWebhookBody = RequestOf<'/api/apis/{api}/webhooks', 'post'>;
export type DeliveryOut = ResponseOf<'/api/apis/{api}/webhooks/{endpoint}/deliveries', 'get'>['deliveries'][number];
export type EventType = NonNullable<NonNullable<paths['/api/apis/{api}/events']['get']['parameters']['query']>['type']>;

// Every type an endpoint can hear, in the API's order; typed by the client, so a type the API adds
// or drops fails the build here.
const TYPES: Record<EventType, true> = {
  'customer.created': true,
  'customer.updated': true,
  'customer.status_changed': true,
  'customer.deleted': true,
  'customer.balance_low': true,
  'customer.balance_depleted': true,
  'customer.balance_recovered': true,
  'credit.added': true,
  'payment.succeeded': true,
  'payment.failed': true,
  'payment.refunded': true,
  'auto_recharge.failed': true,
  'subscription.created': true,
  'subscription.plan_changed': true,
  'subscription.renewed': true,
  'subscription.past_due': true,
  'subscription.canceled': true,
  'usage.threshold_reached': true,
  'key.created': true,
  'key.revoked': true,
  'sdk.connected': true,
  'sdk.disconnected': true,
  'platform.allowance_threshold': true,
};
export const EVENT_TYPES = Object.keys(TYPES) as EventType[];

export const webhooksKey = (apiId: string) => key('/api/apis/{api}/webhooks', apiId);
export const webhookKey = (apiId: string, endpoint: string) => key('/api/apis/{api}/webhooks/{endpoint}', apiId, endpoint);
export const deliveriesKey = (apiId: string, endpoint: string) => key('/api/apis/{api}/webhooks/{endpoint}/deliveries', apiId, endpoint);
