-- Owner accounts, workspaces, audit and the mail outbox (issue: the service's foundation).
-- Times come from the application's clock, never now(), so tests can move them.

create table users (
  id text primary key,
  email text not null unique,              -- lowercased
  name text not null,
  password_hash text not null,
  totp_secret_sealed text,                 -- AES-GCM sealed base32 seed once two-factor is on
  totp_pending_sealed text,                -- seed being set up, not yet confirmed
  totp_last_step bigint,                   -- last accepted TOTP time step: a code works once
  password_changed_at timestamptz not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create table recovery_codes (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  code_hash text not null,
  used_at timestamptz
);
create index recovery_codes_user on recovery_codes (user_id);

-- Six-digit codes e-mailed for sign-up and password reset.
create table email_codes (
  id text primary key,
  purpose text not null check (purpose in ('signup', 'reset')),
  email text not null,
  code_hash text not null,
  attempts int not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null
);
create index email_codes_lookup on email_codes (purpose, email, created_at desc);

-- One-time tickets from a verified code, 30 minutes.
create table tickets (
  id text primary key,
  purpose text not null check (purpose in ('signup', 'reset')),
  email text not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null
);

create table sessions (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  token_hash text not null unique,
  workspace_id text,
  ip text not null,
  user_agent text not null,
  created_at timestamptz not null,
  last_seen_at timestamptz not null,
  expires_at timestamptz not null
);
create index sessions_user on sessions (user_id);

-- Second step of a login with two-factor on.
create table login_challenges (
  id text primary key,
  user_id text not null references users(id) on delete cascade,
  token_hash text not null unique,
  attempts int not null default 0,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null
);

create table workspaces (
  id text primary key,
  name text not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create table memberships (
  workspace_id text not null references workspaces(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'editor', 'viewer')),
  joined_at timestamptz not null,
  primary key (workspace_id, user_id)
);
create index memberships_user on memberships (user_id);

create table invites (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  email text not null,
  role text not null check (role in ('admin', 'editor', 'viewer')),
  token_hash text not null unique,
  invited_by text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  revoked_at timestamptz
);
create index invites_workspace on invites (workspace_id);

create table workspace_keys (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  name text not null,
  role text not null check (role in ('admin', 'editor', 'viewer')),
  prefix text not null,
  key_hash text not null unique,
  created_by text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index workspace_keys_workspace on workspace_keys (workspace_id);

create table audit_events (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  api_id text,
  api_name text,
  customer_id text,
  customer_name text,
  actor_type text not null,
  actor_id text not null,
  actor_name text not null,
  action text not null,
  target_type text not null,
  target_id text not null,
  summary text not null,
  ip text not null,
  details jsonb not null default '{}',
  created_at timestamptz not null
);
create index audit_events_page on audit_events (workspace_id, created_at desc, id desc);
create index audit_events_api on audit_events (workspace_id, api_id, created_at desc, id desc);

-- Mail leaves through this table: committed with the change that caused it, retried until sent.
create table mail_outbox (
  id text primary key,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  attempts int not null default 0,
  next_attempt_at timestamptz not null,
  sent_at timestamptz,
  last_error text,
  created_at timestamptz not null
);
create index mail_outbox_due on mail_outbox (next_attempt_at) where sent_at is null;
