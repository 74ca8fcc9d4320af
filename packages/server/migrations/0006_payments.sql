-- Payments (issue 13): the owner's account at the provider, the provider's events applied once,
-- the provider's customers and prices, platform subscriptions, and the development provider.

-- An API's payments connection (Connect): the owner's account at the provider. A disconnected
-- account keeps its row (disconnected_at) so that events about payments it already took are still
-- recognised as this API's; connecting again replaces it.
create table payment_accounts (
  api_id text primary key references apis(id) on delete cascade,
  provider text not null check (provider in ('stripe', 'dev')),
  account_id text not null,
  livemode boolean not null default false,
  charges_enabled boolean not null default false,
  account_name text,
  connected_at timestamptz not null,
  disconnected_at timestamptz,
  -- created time of the newest account event applied: an older one arriving late changes nothing
  status_event_at timestamptz,
  updated_at timestamptz not null
);
create index payment_accounts_account on payment_accounts (provider, account_id);

-- Every provider event, by the provider's id: inserted in the transaction that applies it, so a
-- repeat (or 20 at once: they wait on the first insert) finds it and changes nothing.
create table payment_events (
  provider text not null,
  event_id text not null,
  type text not null,
  account_id text,
  outcome text not null,
  received_at timestamptz not null,
  primary key (provider, event_id)
);
create index payment_events_age on payment_events (received_at);

-- A customer of an API as the provider knows it (on the owner's account): its saved card for
-- off-session charges and its subscription.
create table payment_customers (
  api_id text not null references apis(id) on delete cascade,
  customer_id text not null references customers(id) on delete cascade,
  account_id text not null,
  provider_customer_id text not null,
  payment_method_id text,
  subscription_id text,
  -- created time of the newest subscription event applied (event ordering)
  subscription_event_at timestamptz,
  -- when the subscription last became past_due: the plan's grace runs from here (7 days)
  past_due_since timestamptz,
  updated_at timestamptz not null,
  primary key (api_id, customer_id)
);
create index payment_customers_provider on payment_customers (account_id, provider_customer_id);

-- Prices made for plans: a new row (and a new provider price) whenever the amount changes; a
-- provider price is never edited.
create table plan_prices (
  plan_id text not null references plans(id) on delete cascade,
  api_id text not null references apis(id) on delete cascade,
  account_id text not null,
  product_id text not null,
  price_id text not null,
  amount_cents int not null,
  created_at timestamptz not null,
  primary key (plan_id, price_id)
);

-- An API's subscription to a platform plan, on the platform's own provider account.
create table platform_subscriptions (
  api_id text primary key references apis(id) on delete cascade,
  provider_customer_id text,
  subscription_id text,
  event_at timestamptz,
  updated_at timestamptz not null
);

-- The development provider's own objects (accounts, checkout sessions, subscriptions, cards):
-- kept in the database so every node serves its pages, as a real provider would.
create table dev_payment_objects (
  id text primary key,
  kind text not null,
  account_id text not null,
  data jsonb not null,
  created_at timestamptz not null
);
