import type { Generated } from 'kysely';

export type ApiStatus = 'active' | 'suspended';
export type SignupMode = 'open' | 'approval' | 'invite';
export type PlanStatus = 'active' | 'past_due' | 'canceled';

export interface ApisTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  status: Generated<ApiStatus>;
  suspended_reason: string | null;
  tagline: Generated<string>;
  accent_color: Generated<string>;
  support_email: Generated<string>;
  website_url: Generated<string>;
  docs_url: Generated<string>;
  terms_url: Generated<string>;
  privacy_url: Generated<string>;
  logo_url: string | null;
  signup_mode: Generated<SignupMode>;
  api_base_url: Generated<string>;
  key_header: Generated<string>;
  payg_enabled: boolean;
  plans_enabled: boolean;
  price_per_request_micro: number;
  rps: number;
  monthly_quota: number;
  welcome_credit_micro: number;
  billable_status_codes: number[];
  topup_amounts_cents: number[];
  min_topup_cents: number;
  low_balance_micro: number;
  auto_recharge_allowed: boolean;
  secret_prefix: string;
  sdk_secret_sealed: string;
  sdk_secret_hash: string;
  previous_secret_hash: string | null;
  previous_secret_valid_until: Date | null;
  platform_plan: Generated<string>;
  plan_status: Generated<PlanStatus>;
  plan_grace_until: Date | null;
  plan_period_end: Date | null;
  first_usage_at: Date | null;
  sdk_first_seen_at: Date | null;
  sdk_last_seen_at: Date | null;
  sdk_agent: string | null;
  snapshot_stamped_at: Date | null;
  /** The SDK's connection as events report it (no snapshot for 10 minutes: disconnected), and its changes. */
  sdk_connected: Generated<boolean>;
  sdk_seq: Generated<number>;
  /** The highest share of the platform allowance (80, 100) events told of, and in which month. */
  allowance_month: Generated<string | null>;
  allowance_level: Generated<number>;
  created_at: Date;
  updated_at: Date;
}

export interface ApiTables {
  apis: ApisTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends ApiTables {}
}
