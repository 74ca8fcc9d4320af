export interface UsageReceiptsTable {
  api_id: string;
  idempotency_key: string;
  api_key_id: string;
  usage_policy_id: string | null;
  status_code: number;
  count: number;
  period_start: Date;
  received_at: Date;
}

export interface CustomerUsageMonthsTable {
  customer_id: string;
  api_id: string;
  month: string;
  requests: number;
  billable: number;
  charged_micro: number;
}

/** A customer's usage per UTC day (the portal's usage page); kept like the monthly counters. */
export interface CustomerUsageDaysTable {
  customer_id: string;
  api_id: string;
  day: string;
  requests: number;
  billable: number;
  errors: number;
  charged_micro: number;
}

export interface ApiUsageDaysTable {
  api_id: string;
  day: string;
  requests: number;
  billable: number;
  errors: number;
  charged_micro: number;
  test_requests: number;
}

/** An API's change counter (migration 0017): the newest change number, and the tombstones' horizon. */
export interface SdkChangeCountersTable {
  api_id: string;
  seq: number;
  pruned_seq: number;
}

/** One row per object an SDK follows, with the number of its latest change (null until committed). */
export interface SdkChangesTable {
  api_id: string;
  kind: 'api' | 'customer' | 'key' | 'balance';
  object_id: string;
  seq: number | null;
  removed: boolean;
  changed_at: Date;
}

export interface UsageTables {
  sdk_change_counters: SdkChangeCountersTable;
  sdk_changes: SdkChangesTable;
  usage_receipts: UsageReceiptsTable;
  customer_usage_months: CustomerUsageMonthsTable;
  customer_usage_days: CustomerUsageDaysTable;
  api_usage_days: ApiUsageDaysTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends UsageTables {}
}
