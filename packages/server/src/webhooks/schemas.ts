import { Type } from '@sinclair/typebox';
import { Body, Timestamp } from '../console/common-schemas.js';
import { EVENT_TYPES } from './event-types.js';

/** Endpoints per API: room for a few receivers per environment, not a fan-out service. */
export const MAX_ENDPOINTS = 20;
/** An endpoint's address: as long as a browser keeps. */
export const MAX_URL_LENGTH = 2000;

export const EventTypeName = Type.Union(EVENT_TYPES.map((type) => Type.Literal(type)), { description: 'an event type (issue 24 item 4)' });
const EventTypes = Type.Array(EventTypeName, { maxItems: EVENT_TYPES.length, uniqueItems: true, description: 'the event types sent to it; empty: every type' });

export const WebhookParams = Type.Object({ api: Type.String({ maxLength: 64 }), endpoint: Type.String({ maxLength: 64 }) });
export const DeliveryParams = Type.Object({ api: Type.String({ maxLength: 64 }), endpoint: Type.String({ maxLength: 64 }), delivery: Type.String({ maxLength: 64 }) });

export const NewWebhookInBody = Body({
  url: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'a public https address; outside production with UNSAFE_OUTBOUND_PRIVATE=true, loopback and http too' }),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  event_types: Type.Optional(EventTypes),
});
export const UpdateWebhookInBody = Body({
  url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH })),
  description: Type.Optional(Type.String({ maxLength: 200 })),
  event_types: Type.Optional(EventTypes),
  enabled: Type.Optional(Type.Boolean({ description: 'false disables the endpoint; true enables it again, and its pending deliveries resume' })),
});

export const WebhookOut = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Type.Optional(Type.Union([Type.Literal('manual'), Type.Literal('failing')], { description: 'failing: every delivery failed for 5 days' })),
  disabled_at: Type.Optional(Timestamp),
  failing_since: Type.Optional(Type.String({ format: 'date-time', description: 'the first failed attempt since the last success' })),
  previous_secret_expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'until then deliveries are signed with the previous secret too' })),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const WebhookWithSecret = Type.Intersect([WebhookOut, Type.Object({ secret: Type.String({ description: 'whsec_…, shown this once' }) })]);
export const WebhooksBody = Type.Object({ webhooks: Type.Array(WebhookOut) });

export const DeliveryOut = Type.Object({
  id: Type.String(),
  event_id: Type.String({ description: 'the webhook-id header of every attempt' }),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  created_at: Timestamp,
  last_attempt_at: Type.Optional(Timestamp),
  status_code: Type.Optional(Type.Integer({ description: "the receiver's status code at the last attempt" })),
  response_excerpt: Type.Optional(Type.String({ description: "the first 2 KB of the receiver's answer at the last attempt" })),
  error: Type.Optional(Type.String({ description: 'why the last attempt failed' })),
  next_attempt_at: Type.Optional(Timestamp),
});
export const DeliveriesBody = Type.Object({ deliveries: Type.Array(DeliveryOut), next_cursor: Type.Optional(Type.String()) });
export const DeliveriesQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});

export const ReplayInBody = Body({ since: Type.String({ format: 'date-time', maxLength: 40, description: 'every event of the API since then (up to 30 days back) is sent again to this endpoint' }) });
export const ReplayBody = Type.Object({ deliveries: Type.Integer({ description: 'deliveries made' }) });

export const EventOut = Type.Object({
  id: Type.String(),
  type: Type.String(),
  timestamp: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'object, and previous or reason where the event has them' }),
});
export const EventsQuery = Type.Object({
  after: Type.Optional(Type.String({ maxLength: 64, description: 'an event id: the page starts after it' })),
  type: Type.Optional(EventTypeName),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
export const EventsBody = Type.Object({
  events: Type.Array(EventOut),
  has_more: Type.Boolean({ description: 'more events follow: ask again with after = the last id' }),
});
