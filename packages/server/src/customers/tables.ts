import type { ColumnType, Generated } from 'kysely';

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
  /** The one auto-recharge charge in flight (payments/auto-recharge.ts); null when none. */
  auto_recharge_charging_at: Date | null;
  /** When the last auto-recharge charge started: the cool-down runs from it. */
  auto_recharge_last_at: Date | null;
  /** The low-balance mail went out for the current dip; cleared once the balance is back. */
  low_balance_mailed: boolean;
  /** The subscription ends with its paid period. */
  subscription_cancel_at_period_end: boolean;
  balance_micro: number;
  balance_seq: number;
  /** Moves with every change of the row that events report, except the balance (migration 0014). */
  updated_seq: Generated<number>;
  usage_policy_id: string | null;
  last_used_at: Date | null;
  /** The id usage items name for requests the customer's people made with access tokens (migration 0010). */
  token_key_id: Generated<string>;
  /** Set when the customer was removed but had money, usage or keys on record (docs/decisions.md). */
  archived_at: Date | null;
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
  /** The person who made the key in the portal; null for keys made in the console. */
  created_by_person: ColumnType<string | null, string | null | undefined, string | null>;
}

/** What a member of a customer may do in the portal (docs/decisions.md, "Customer teams"). */
export type CustomerRole = 'owner' | 'admin' | 'member';

export interface CustomerInvitesTable {
  id: string;
  api_id: string;
  /** The customer the invitation joins; null: the invited person becomes a new customer. */
  customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  role: ColumnType<CustomerRole, CustomerRole | undefined, CustomerRole>;
  email: string;
  /** SHA-256 of the link's token; null for invitations made before links had one. */
  token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** A console user's id, or a person's when invited_by_person. */
  invited_by: string;
  invited_by_person: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Date;
  expires_at: Date;
  accepted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface CustomerMembersTable {
  customer_id: string;
  person_id: string;
  api_id: string;
  role: CustomerRole;
  created_at: Date;
}

export interface CustomerTables {
  customers: CustomersTable;
  usage_policies: UsagePoliciesTable;
  customer_keys: CustomerKeysTable;
  customer_invites: CustomerInvitesTable;
  customer_members: CustomerMembersTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends CustomerTables {}
}
