-- Payments on the customer portal (issue 13 items 3 to 6): who started a checkout, receipts,
-- auto-recharge's one charge in flight and its cool-down, the low-balance mail, and whether a
-- subscription ends with its period.

-- A checkout the portal started, by the provider's session id: the person who started it gets the
-- receipt. Written by us when the session is made, so nothing here comes from metadata.
create table payment_checkouts (
  session_id text primary key,
  api_id text not null references apis(id) on delete cascade,
  customer_id text not null references customers(id) on delete cascade,
  kind text not null check (kind in ('topup', 'subscription', 'setup')),
  person_id text,
  email text not null,
  amount_cents int not null,
  created_at timestamptz not null
);
create index payment_checkouts_customer on payment_checkouts (api_id, customer_id, created_at);

-- One receipt per payment that added credit, keyed like the ledger entry it goes with (the
-- provider's object id): written in the transaction that credits, mailed afterwards (the
-- provider's receipt link is fetched outside any transaction), retried until mailed.
create table payment_receipts (
  api_id text not null references apis(id) on delete cascade,
  ref text not null,
  customer_id text not null references customers(id) on delete cascade,
  kind text not null check (kind in ('topup', 'auto_recharge')),
  account_id text not null,
  amount_cents int not null,
  -- the person who paid (top-ups started on the portal); null: the customer's owners and admins
  payer_email text,
  receipt_url text,
  -- a delivery in progress: another run leaves the receipt alone for a while
  mail_claimed_at timestamptz,
  mailed_at timestamptz,
  created_at timestamptz not null,
  primary key (api_id, ref)
);
create index payment_receipts_customer on payment_receipts (api_id, customer_id, created_at desc);
create index payment_receipts_unmailed on payment_receipts (created_at) where mailed_at is null;

-- Auto-recharge: the claim of the one charge in flight, and when the last charge started (the
-- cool-down runs from it).
alter table customers add column auto_recharge_charging_at timestamptz;
alter table customers add column auto_recharge_last_at timestamptz;
create index customers_auto_recharge on customers (api_id) where auto_recharge_enabled;

-- The low-balance mail went out for the current dip below the threshold: no other until the
-- balance is back at or above it.
alter table customers add column low_balance_mailed boolean not null default false;

-- The subscription ends with its paid period (cancelled by the customer, kept until then).
alter table customers add column subscription_cancel_at_period_end boolean not null default false;
