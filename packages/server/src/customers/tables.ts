export type CustomerStatus = 'active' | 'pending' | 'suspended';

export interface CustomersTable {
  id: string;
  api_id: string;
  name: string;
  email: string;
  status: CustomerStatus;
  is_test: boolean;
  notes: string;
  plan_id: string | null;
  plan_source: '' | 'manual' | 'provider';
  provider_customer_id: string | null;
  subscription_status: string | null;
  subscription_period_end: Date | null;
  custom_rps: number | null;
  custom_price_per_request_micro: number | null;
  custom_monthly_quota: number | null;
  low_balance_micro: number | null;
  auto_recharge_enabled: boolean;
  auto_recharge_threshold_micro: number;
  auto_recharge_amount_cents: number;
  auto_recharge_failed_at: Date | null;
  has_card: boolean;
  balance_micro: number;
  balance_seq: number;
  usage_policy_id: string | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface UsagePoliciesTable {
  id: string;
  api_id: string;
  customer_id: string;
  price_per_request_micro: number;
  rps: number;
  monthly_quota: number | null;
  billing_model: string;
  source: string;
  billable_status_codes: number[];
  created_at: Date;
}

export interface CustomerKeysTable {
  id: string;
  api_id: string;
  customer_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface CustomerInvitesTable {
  id: string;
  api_id: string;
  email: string;
  invited_by: string;
  created_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

export interface CustomerTables {
  customers: CustomersTable;
  usage_policies: UsagePoliciesTable;
  customer_keys: CustomerKeysTable;
  customer_invites: CustomerInvitesTable;
}
