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

export interface UsageTables {
  usage_receipts: UsageReceiptsTable;
  customer_usage_months: CustomerUsageMonthsTable;
  customer_usage_days: CustomerUsageDaysTable;
  api_usage_days: ApiUsageDaysTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends UsageTables {}
}
