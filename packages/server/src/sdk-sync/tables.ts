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
  api_usage_days: ApiUsageDaysTable;
}
