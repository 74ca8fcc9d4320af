import type { Generated } from 'kysely';

export type AppKind = 'web' | 'spa' | 'native';
/** Who made an app: the owner, a person's client (registration, metadata document), or the service for its portal. */
export type AppOrigin = 'owner' | 'registered' | 'metadata' | 'portal';

export interface SigninSettingsTable {
  api_id: string;
  access_token_ttl_s: Generated<number>;
  refresh_token_ttl_s: Generated<number>;
  session_ttl_s: Generated<number>;
  signups: Generated<'open' | 'closed'>;
  connected_apps: Generated<'on' | 'off'>;
  /** Discovery leaves out client_id_metadata_document_supported; documents still work (issue 26). */
  metadata_documents_unadvertised: Generated<boolean>;
  sensitive_permissions_allowed: Generated<boolean>;
  /** End-user keys (DESIGN 8 key-settings): off by default. */
  keys_enabled: Generated<boolean>;
  /** The prefix of new keys (spec 4.4). */
  key_prefix: Generated<string>;
  /** The longest lifetime of a new key in days; null: no limit, and keys may never expire. */
  key_max_lifetime_days: Generated<number | null>;
  updated_at: Date;
}

export interface OauthAppsTable {
  id: string;
  api_id: string;
  name: string;
  kind: AppKind;
  origin: Generated<AppOrigin>;
  redirect_uris: string[];
  post_logout_redirect_uris: Generated<string[]>;
  refresh_tokens: Generated<boolean>;
  own_app: Generated<boolean>;
  secret_hash: string | null;
  previous_secret_hash: string | null;
  previous_secret_valid_until: Date | null;
  blocked: Generated<boolean>;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Metadata document apps: their copy of the document is good until then (spec 4.3 cache rules). */
  metadata_expires_at: Generated<Date | null>;
}

export interface ResourceServersTable {
  id: string;
  api_id: string;
  name: string;
  resource_url: string;
  client_id: string;
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_secret_valid_until: Date | null;
  requests_per_minute: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface ServerPermissionsTable {
  server_id: string;
  api_id: string;
  name: string;
  description: Generated<string>;
  sensitive: Generated<boolean>;
}

export interface SigninRolesTable {
  id: string;
  api_id: string;
  name: string;
  description: Generated<string>;
  created_at: Date;
  updated_at: Date;
}

export interface RolePermissionsTable {
  role_id: string;
  server_id: string;
  permission: string;
}

export interface RegistryTables {
  signin_settings: SigninSettingsTable;
  oauth_apps: OauthAppsTable;
  resource_servers: ResourceServersTable;
  server_permissions: ServerPermissionsTable;
  signin_roles: SigninRolesTable;
  role_permissions: RolePermissionsTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../../platform/db/database.js' {
  interface Database extends RegistryTables {}
}
