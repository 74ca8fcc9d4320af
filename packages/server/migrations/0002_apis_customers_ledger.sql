-- APIs, customers, keys, subscription plans, the credit ledger and usage (issue: the money path).
-- Money is bigint micro units (or int cents where a column says so); never floating point.

create table apis (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  slug text not null unique,
  name text not null,
  status text not null default 'active' check (status in ('active', 'suspended')),
  suspended_reason text,
  tagline text not null default '',
  accent_color text not null default '#4f46e5',
  support_email text not null default '',
  website_url text not null default '',
  docs_url text not null default '',
  terms_url text not null default '',
  privacy_url text not null default '',
  logo_url text,
  signup_mode text not null default 'open' check (signup_mode in ('open', 'approval', 'invite')),
  api_base_url text not null default '',
  key_header text not null default 'X-API-Key',
  payg_enabled boolean not null,
  plans_enabled boolean not null,
  price_per_request_micro bigint not null check (price_per_request_micro between 0 and 100000000),
  rps int not null check (rps between 0 and 100000),
  monthly_quota bigint not null check (monthly_quota >= 0),
  welcome_credit_micro bigint not null check (welcome_credit_micro >= 0),
  billable_status_codes int[] not null,
  topup_amounts_cents int[] not null,
  min_topup_cents int not null check (min_topup_cents between 100 and 100000),
  low_balance_micro bigint not null check (low_balance_micro >= 0),
  auto_recharge_allowed boolean not null,
  secret_prefix text not null,
  sdk_secret_sealed text not null,
  sdk_secret_hash text not null unique,
  previous_secret_hash text,
  previous_secret_valid_until timestamptz,
  platform_plan text not null default 'free',
  plan_status text not null default 'active' check (plan_status in ('active', 'past_due', 'canceled')),
  plan_grace_until timestamptz,
  plan_period_end timestamptz,
  first_usage_at timestamptz,
  sdk_first_seen_at timestamptz,
  sdk_last_seen_at timestamptz,
  sdk_agent text,
  -- Last generated_at handed to an SDK: each snapshot is stamped strictly later (wire protocol 2).
  snapshot_stamped_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index apis_workspace on apis (workspace_id, created_at);
create index apis_previous_secret on apis (previous_secret_hash) where previous_secret_hash is not null;

create table plans (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  name text not null,
  description text not null default '',
  price_monthly_cents int not null check (price_monthly_cents between 0 and 1000000),
  credit_micro bigint not null default 0 check (credit_micro between 0 and 100000000000),
  price_per_request_micro bigint check (price_per_request_micro between 0 and 100000000),
  rps int check (rps between 0 and 100000),
  monthly_quota bigint check (monthly_quota >= 0),
  visibility text not null default 'public' check (visibility in ('public', 'private')),
  active boolean not null default true,
  sort int not null default 0 check (sort between 0 and 1000),
  provider_price_id text,
  provider_sync_error text,
  provider_synced_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index plans_api on plans (api_id, sort, created_at);

create table customers (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  name text not null,
  email text not null,
  status text not null check (status in ('active', 'pending', 'suspended')),
  is_test boolean not null default false,
  notes text not null default '',
  plan_id text references plans(id),
  plan_source text not null default '' check (plan_source in ('', 'manual', 'provider')),
  provider_customer_id text,
  subscription_status text,
  subscription_period_end timestamptz,
  custom_rps int check (custom_rps between 0 and 100000),
  custom_price_per_request_micro bigint check (custom_price_per_request_micro between 0 and 100000000),
  custom_monthly_quota bigint check (custom_monthly_quota >= 0),
  low_balance_micro bigint,
  auto_recharge_enabled boolean not null default false,
  auto_recharge_threshold_micro bigint not null default 0,
  auto_recharge_amount_cents int not null default 0,
  auto_recharge_failed_at timestamptz,
  has_card boolean not null default false,
  balance_micro bigint not null default 0,
  -- Grows with every balance change, in the same transaction (DESIGN section 7).
  balance_seq bigint not null default 0,
  usage_policy_id uuid,
  last_used_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index customers_page on customers (api_id, created_at desc, id desc);
create index customers_plan on customers (plan_id) where plan_id is not null;
create unique index customers_one_test on customers (api_id) where is_test;

-- An immutable record of one customer's price and limits; usage names the one it was admitted
-- under, so a late report bills at the terms in force when the request happened.
create table usage_policies (
  id uuid primary key,
  api_id text not null references apis(id) on delete cascade,
  customer_id text not null references customers(id) on delete cascade,
  price_per_request_micro bigint not null,
  rps int not null,
  monthly_quota bigint,                   -- null: no quota
  billing_model text not null,
  source text not null,
  billable_status_codes int[] not null,
  created_at timestamptz not null
);
create index usage_policies_customer on usage_policies (customer_id);

create table customer_keys (
  id uuid primary key,                    -- a UUID: the wire protocol sends it back as api_key_id
  api_id text not null references apis(id) on delete cascade,
  customer_id text not null references customers(id) on delete cascade,
  name text not null,
  prefix text not null,
  key_hash text not null unique,          -- SHA-256 hex of the whole key; the key is never stored
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index customer_keys_customer on customer_keys (customer_id);
create index customer_keys_api on customer_keys (api_id) where revoked_at is null;

create table customer_invites (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  email text not null,
  invited_by text not null,
  created_at timestamptz not null,
  accepted_at timestamptz,
  revoked_at timestamptz
);
create unique index customer_invites_open on customer_invites (api_id, email) where accepted_at is null and revoked_at is null;

create table ledger_entries (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  customer_id text not null references customers(id) on delete cascade,
  kind text not null check (kind in ('welcome', 'credit', 'usage', 'topup', 'plan_credit', 'auto_recharge')),
  amount_micro bigint not null,
  requests bigint not null default 0,
  usage_day date,
  note text not null default '',
  actor text not null default '',
  ref text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index ledger_page on ledger_entries (api_id, created_at desc, id desc);
create index ledger_customer_page on ledger_entries (customer_id, created_at desc, id desc);
-- A repeated reference is applied once (CreditInBody.ref, payment events).
create unique index ledger_ref on ledger_entries (api_id, ref) where ref is not null;
-- Usage is folded into one entry per customer per UTC day.
create unique index ledger_usage_day on ledger_entries (customer_id, usage_day) where kind = 'usage';

-- Receipts of usage items: an idempotency key is pinned to its exact payload (wire protocol 4).
create table usage_receipts (
  api_id text not null references apis(id) on delete cascade,
  idempotency_key uuid not null,
  api_key_id uuid not null,
  usage_policy_id uuid,
  status_code int not null,
  count bigint not null,
  period_start timestamptz not null,
  received_at timestamptz not null,
  primary key (api_id, idempotency_key)
);
create index usage_receipts_age on usage_receipts (received_at);

create table customer_usage_months (
  customer_id text not null references customers(id) on delete cascade,
  api_id text not null,
  month date not null,
  requests bigint not null default 0,
  billable bigint not null default 0,
  charged_micro bigint not null default 0,
  primary key (customer_id, month)
);
create index customer_usage_months_api on customer_usage_months (api_id, month, requests desc);

create table api_usage_days (
  api_id text not null references apis(id) on delete cascade,
  day date not null,
  requests bigint not null default 0,
  billable bigint not null default 0,
  errors bigint not null default 0,
  charged_micro bigint not null default 0,
  test_requests bigint not null default 0,
  primary key (api_id, day)
);
