import type { ColumnType, Generated } from 'kysely';

export type DisabledReason = 'manual' | 'failing';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookEndpointsTable {
  id: string;
  api_id: string;
  url: string;
  description: string;
  /** Empty: every event type. */
  event_types: string[];
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: DisabledReason | null;
  /** The first failed attempt since the last success. */
  failing_since: Date | null;
  exhausted_mailed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookEventsTable {
  id: string;
  api_id: string;
  type: string;
  /** The body exactly as signed and sent. */
  payload: string;
  /** A test event's one endpoint; null for the API's events. */
  endpoint_id: string | null;
  created_at: Date;
  xid: ColumnType<string, never, never>;
  seq: Generated<number>;
}

export interface WebhookDeliveriesTable {
  id: string;
  api_id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_response: string | null;
  last_error: string | null;
  created_at: Date;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends WebhookTables {}
}
