export interface PlansTable {
  id: string;
  api_id: string;
  name: string;
  description: string;
  price_monthly_cents: number;
  credit_micro: number;
  price_per_request_micro: number | null;
  rps: number | null;
  monthly_quota: number | null;
  visibility: 'public' | 'private';
  active: boolean;
  sort: number;
  provider_price_id: string | null;
  provider_sync_error: string | null;
  provider_synced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface PlanTables {
  plans: PlansTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends PlanTables {}
}
