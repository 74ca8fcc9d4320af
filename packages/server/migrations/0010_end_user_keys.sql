-- End-user API keys (issue 15; spec 2.7, 3, 4.3 to 4.5, 5.6 to 5.8, 8): keys a person makes for
-- themself through the account API, verified by the API's servers at introspection.
-- Times come from the application's clock, never now(), so tests can move them.

-- The owner's key settings (DESIGN 8 key-settings) sit beside the other sign-in settings, which
-- the tenant hook already reads on every request: introspection needs them on every check.
-- sensitive_permissions_allowed (0004) is the fourth key setting. A null lifetime is "no limit".
alter table signin_settings add column keys_enabled boolean not null default false;
alter table signin_settings add column key_prefix text not null default 'key' check (key_prefix ~ '^[a-z][a-z0-9]{1,9}$');
alter table signin_settings add column key_max_lifetime_days int default 365 check (key_max_lifetime_days between 1 and 3650);

create table end_user_keys (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  person_id text not null references people(id) on delete cascade,
  name text not null,
  -- The prefix the key was made with: a later change of the setting applies to new keys only.
  prefix text not null,
  -- The visible start of the current secret (prefix, underscore, 4 characters) for lists and audit.
  start text not null,
  -- SHA-256 hex of the whole key; the key itself is never stored (spec 2.7).
  secret_hash text not null,
  -- After a roll with a grace period, the old secret until previous_secret_expires_at: a key never
  -- has more than two secrets (spec 3).
  previous_secret_hash text,
  previous_secret_expires_at timestamptz,
  -- The servers (resource_servers.id) the key works at and the permissions it lists. Not foreign
  -- keys: a deleted server simply drops out, and the scope is recomputed at every check.
  server_ids text[] not null,
  permissions text[] not null,
  expires_at timestamptz,
  -- The app the key was made in (spec 2.7 creation origin), by name as it was then.
  created_in_client_id text not null,
  created_in_app_name text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  expiry_reminded_at timestamptz
);
create unique index end_user_keys_secret on end_user_keys (secret_hash);
create index end_user_keys_previous_secret on end_user_keys (previous_secret_hash) where previous_secret_hash is not null;
create index end_user_keys_person on end_user_keys (api_id, person_id, created_at desc);
-- The expiry reminder job looks for keys expiring soon that were not reminded yet.
create index end_user_keys_to_remind on end_user_keys (expires_at) where revoked_at is null and expiry_reminded_at is null and expires_at is not null;
-- The retention job deletes revoked and expired keys 90 days later.
create index end_user_keys_revoked on end_user_keys (revoked_at) where revoked_at is not null;
create index end_user_keys_expires on end_user_keys (expires_at) where expires_at is not null;
