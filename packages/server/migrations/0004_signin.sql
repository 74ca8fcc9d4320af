-- The sign-in service of every API: an OAuth 2.1 authorization server and OpenID Connect
-- provider (spec sections 4.1 to 4.3, DESIGN section 8). Every table keys on api_id.
-- Times come from the application's clock, never now(), so tests can move them.

create table signin_settings (
  api_id text primary key references apis(id) on delete cascade,
  access_token_ttl_s int not null default 3600 check (access_token_ttl_s between 60 and 86400),
  refresh_token_ttl_s int not null default 2592000 check (refresh_token_ttl_s between 3600 and 31536000),
  session_ttl_s int not null default 1209600 check (session_ttl_s between 300 and 31536000),
  signups text not null default 'open' check (signups in ('open', 'closed')),
  connected_apps text not null default 'off' check (connected_apps in ('on', 'off')),
  sensitive_permissions_allowed boolean not null default false,
  updated_at timestamptz not null
);

-- RS256 signing keys. The private key is sealed with SECRET_KEY (AES-256-GCM). One key signs;
-- a retired key stays in JWKS for the access-token lifetime plus 24 hours (spec 4.3).
create table signing_keys (
  kid text primary key,
  api_id text not null references apis(id) on delete cascade,
  public_jwk jsonb not null,
  private_sealed text not null,
  active boolean not null,
  created_at timestamptz not null,
  retired_at timestamptz
);
create unique index signing_keys_one_active on signing_keys (api_id) where active;
create index signing_keys_api on signing_keys (api_id, created_at);

-- Applications that sign people in (OAuth clients). The id is the client_id.
create table oauth_apps (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  name text not null,
  kind text not null check (kind in ('web', 'spa', 'native')),
  origin text not null default 'owner' check (origin in ('owner', 'registered', 'metadata')),
  redirect_uris text[] not null,
  post_logout_redirect_uris text[] not null default '{}',
  refresh_tokens boolean not null default false,
  own_app boolean not null default false,
  -- Web apps only: SHA-256 of the secret; the previous one works until previous_secret_valid_until.
  secret_hash text,
  previous_secret_hash text,
  previous_secret_valid_until timestamptz,
  blocked boolean not null default false,
  last_used_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index oauth_apps_api on oauth_apps (api_id, created_at);

-- APIs and MCP servers access tokens are for (RFC 8707 resources), with their credentials.
create table resource_servers (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  name text not null,
  resource_url text not null,
  client_id text not null unique,
  secret_hash text not null,
  previous_secret_hash text,
  previous_secret_valid_until timestamptz,
  requests_per_minute int check (requests_per_minute between 1 and 1000000),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (api_id, resource_url)
);

create table server_permissions (
  server_id text not null references resource_servers(id) on delete cascade,
  api_id text not null references apis(id) on delete cascade,
  name text not null,
  description text not null default '',
  sensitive boolean not null default false,
  primary key (server_id, name)
);
create index server_permissions_api on server_permissions (api_id, name);

create table signin_roles (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  name text not null,
  description text not null default '',
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (api_id, name)
);

create table role_permissions (
  role_id text not null references signin_roles(id) on delete cascade,
  server_id text not null,
  permission text not null,
  primary key (role_id, server_id, permission),
  foreign key (server_id, permission) references server_permissions(server_id, name) on delete cascade
);

-- People who sign in at an API's sign-in service.
create table people (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  email text not null,                      -- lowercased
  email_verified boolean not null default false,
  name text not null,
  picture text,
  password_hash text,
  status text not null default 'active' check (status in ('active', 'suspended')),
  last_login_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (api_id, email)
);

create table person_roles (
  person_id text not null references people(id) on delete cascade,
  role_id text not null references signin_roles(id) on delete cascade,
  primary key (person_id, role_id)
);
create index person_roles_role on person_roles (role_id);

-- A person's browser session on the tenant host; its id is the `sid` claim.
create table person_sessions (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  person_id text not null references people(id) on delete cascade,
  token_hash text not null unique,
  auth_time timestamptz not null,
  amr text[] not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);
create index person_sessions_person on person_sessions (person_id);

-- One-time codes e-mailed to sign in or to verify an address at sign-up.
create table person_email_codes (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  email text not null,
  code_hash text not null,
  attempts int not null default 0,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  created_at timestamptz not null
);
create index person_email_codes_lookup on person_email_codes (api_id, email, created_at desc);

-- What a person granted an app, per resource ('' for none): asked once, remembered.
create table consents (
  api_id text not null references apis(id) on delete cascade,
  person_id text not null references people(id) on delete cascade,
  client_id text not null references oauth_apps(id) on delete cascade,
  resource text not null,
  scopes text[] not null,
  updated_at timestamptz not null,
  primary key (person_id, client_id, resource)
);

-- Pushed authorization requests (RFC 9126): the request_uri is single use and short-lived.
create table pushed_authorizations (
  request_uri_hash text primary key,
  api_id text not null references apis(id) on delete cascade,
  client_id text not null,
  params jsonb not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

-- An authorization request handed from the protocol to the pages (sign-in, consent, choices),
-- found again by the hash of a token that travels in the page URL and a cookie.
create table authorization_interactions (
  token_hash text primary key,
  api_id text not null references apis(id) on delete cascade,
  request jsonb not null,
  result jsonb not null default '{}',
  created_at timestamptz not null,
  expires_at timestamptz not null,
  completed_at timestamptz
);

-- A grant: what one sign-in gave one app. Codes, refresh tokens and access tokens (by the
-- grant id at the start of their jti) belong to one; revoking it ends all of them.
create table token_grants (
  id text primary key,
  api_id text not null references apis(id) on delete cascade,
  client_id text not null references oauth_apps(id) on delete cascade,
  person_id text not null references people(id) on delete cascade,
  session_id text not null,
  scopes text[] not null,
  resource text,
  offline boolean not null,
  auth_time timestamptz not null,
  amr text[] not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index token_grants_person on token_grants (person_id);
create index token_grants_session on token_grants (session_id);

create table authorization_codes (
  code_hash text primary key,
  api_id text not null references apis(id) on delete cascade,
  grant_id text not null references token_grants(id) on delete cascade,
  redirect_uri text not null,
  code_challenge text not null,
  nonce text,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index authorization_codes_expiry on authorization_codes (expires_at);

create table refresh_tokens (
  token_hash text primary key,
  api_id text not null references apis(id) on delete cascade,
  grant_id text not null references token_grants(id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index refresh_tokens_grant on refresh_tokens (grant_id);
