-- Events to owners (issue 24, DESIGN 12): signed webhooks through an outbox. An event is written
-- in the transaction of the change it reports, with one delivery per subscribed endpoint; a job
-- claims due deliveries (FOR UPDATE SKIP LOCKED), so a crash or a second node loses nothing and
-- sends nothing twice at once. Times come from the application's clock, never now().

create table webhook_endpoints (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  url text not null,
  description text not null default '',
  -- The event types sent to it; empty: every type.
  event_types text[] not null default '{}',
  -- whsec_… sealed with SECRET_KEY (shown once); after a rotation the old one signs beside it
  -- until previous_secret_expires_at (24 hours).
  secret_sealed text not null,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  -- Disabled by the owner ('manual') or after 5 days of failing deliveries ('failing').
  disabled_at timestamptz,
  disabled_reason text check (disabled_reason in ('manual', 'failing')),
  -- The first failed attempt since the last success; null while deliveries succeed.
  failing_since timestamptz,
  -- The owners were mailed that a delivery ran out of retries, in the current failing streak.
  exhausted_mailed_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhook_endpoints_api on webhook_endpoints (api_id, created_at);

create table webhook_events (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  type text not null,
  -- The JSON body exactly as signed and sent: every retry sends these bytes (a body parsed and
  -- serialized again is what breaks receivers' signature checks).
  payload text not null,
  -- A test event (webhook.test) goes to this endpoint only and is not listed with the API's events.
  endpoint_id text references webhook_endpoints(id) on delete cascade,
  created_at timestamptz not null,
  -- Listing order for catch-up (GET /apis/{api}/events?after=): the writing transaction, then the
  -- insert. Only transactions older than every running one are listed, so an event committed late
  -- can never appear before a cursor a receiver already holds.
  xid xid8 not null default pg_current_xact_id(),
  seq bigint generated always as identity
);
create index webhook_events_listing on webhook_events (api_id, xid, seq);
create index webhook_events_created on webhook_events (created_at);

create table webhook_deliveries (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  endpoint_id text not null references webhook_endpoints(id) on delete cascade,
  event_id text not null references webhook_events(id) on delete cascade,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  -- Attempts made so far; the next is due at next_attempt_at (while pending). A claim moves
  -- next_attempt_at past the attempt's time bound, so a node that dies mid-attempt only delays it.
  attempts int not null default 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status_code int,
  -- The first 2 KB of the receiver's answer, or why there was none.
  last_response text,
  last_error text,
  created_at timestamptz not null
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at, id);
create index webhook_deliveries_event on webhook_deliveries (event_id);

-- Sequences receivers order objects by: balance_seq moves with the balance (0002); updated_seq
-- with every other change of the customer row (status, plan, subscription, limits, notes).
alter table customers add column updated_seq bigint not null default 0;

-- The SDK's connection as events report it: connected while snapshots come at least every
-- 10 minutes; sdk_seq counts the changes. Set from what is known now, so no event is owed.
alter table apis add column sdk_connected boolean not null default false;
alter table apis add column sdk_seq bigint not null default 0;
update apis set sdk_connected = sdk_last_seen_at is not null and sdk_last_seen_at > now() - interval '10 minutes';
-- The highest share of its platform allowance (80, 100) the API was told of, for which month.
alter table apis add column allowance_month date;
alter table apis add column allowance_level smallint not null default 0;
