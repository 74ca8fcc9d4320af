import type { ColumnType } from 'kysely';

export interface AuditEventsTable {
  id: string;
  workspace_id: string;
  api_id: string | null;
  api_name: string | null;
  customer_id: string | null;
  customer_name: string | null;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
  ip: string;
  details: ColumnType<Record<string, unknown>, string, string>;
  created_at: Date;
}

export interface AuditTables {
  audit_events: AuditEventsTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends AuditTables {}
}
