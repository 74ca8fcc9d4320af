// Read-only lookups the protocol makes on every request; the console's changes live in the
// registry service. Every query takes the API id: a client of another API is never found.
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { SigninSettingsTable } from './tables.js';

/**
 * The API of a tenant host with its sign-in settings, in one round trip (the tenant hook runs on
 * every request): the same row as ApiService.findBySlug, and the settings row or null when none
 * was made yet. Settings columns are aliased (`updated_at` is a column of both tables).
 */
export function findApiAndSettingsBySlug(db: Db, slug: string) {
  return findApiAndSettings(db, 'slug', slug);
}

/** The same for an API found by its id (a custom domain's). */
export function findApiAndSettingsById(db: Db, apiId: string) {
  return findApiAndSettings(db, 'id', apiId);
}

async function findApiAndSettings(db: Db, column: 'slug' | 'id', value: string) {
  const row = await db
    .selectFrom('apis')
    .leftJoin('signin_settings', 'signin_settings.api_id', 'apis.id')
    .selectAll('apis')
    .select([
      'signin_settings.api_id as settings_api_id',
      'signin_settings.access_token_ttl_s as settings_access_token_ttl_s',
      'signin_settings.refresh_token_ttl_s as settings_refresh_token_ttl_s',
      'signin_settings.session_ttl_s as settings_session_ttl_s',
      'signin_settings.signups as settings_signups',
      'signin_settings.connected_apps as settings_connected_apps',
      'signin_settings.metadata_documents_unadvertised as settings_metadata_documents_unadvertised',
      'signin_settings.sensitive_permissions_allowed as settings_sensitive_permissions_allowed',
      'signin_settings.keys_enabled as settings_keys_enabled',
      'signin_settings.key_prefix as settings_key_prefix',
      'signin_settings.key_max_lifetime_days as settings_key_max_lifetime_days',
      'signin_settings.updated_at as settings_updated_at',
    ])
    .where(`apis.${column}`, '=', value)
    .executeTakeFirst();
  if (!row) return undefined;
  const {
    settings_api_id, settings_access_token_ttl_s, settings_refresh_token_ttl_s, settings_session_ttl_s, settings_signups,
    settings_connected_apps, settings_metadata_documents_unadvertised, settings_sensitive_permissions_allowed, settings_keys_enabled, settings_key_prefix, settings_key_max_lifetime_days,
    settings_updated_at, ...api
  } = row;
  const settings: Selectable<SigninSettingsTable> | null =
    settings_api_id === null
      ? null
      : {
          api_id: settings_api_id,
          access_token_ttl_s: settings_access_token_ttl_s!,
          refresh_token_ttl_s: settings_refresh_token_ttl_s!,
          session_ttl_s: settings_session_ttl_s!,
          signups: settings_signups!,
          connected_apps: settings_connected_apps!,
          metadata_documents_unadvertised: settings_metadata_documents_unadvertised!,
          sensitive_permissions_allowed: settings_sensitive_permissions_allowed!,
          keys_enabled: settings_keys_enabled!,
          key_prefix: settings_key_prefix!,
          key_max_lifetime_days: settings_key_max_lifetime_days,
          updated_at: settings_updated_at!,
        } satisfies Record<keyof SigninSettingsTable, unknown>;
  return { api, settings };
}

export function findSettings(db: Db, apiId: string) {
  return db.selectFrom('signin_settings').selectAll().where('api_id', '=', apiId).executeTakeFirst();
}

export function findApp(db: Db, apiId: string, clientId: string) {
  return db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('id', '=', clientId).executeTakeFirst();
}

export function findServerByResource(db: Db, apiId: string, resourceUrl: string) {
  return db.selectFrom('resource_servers').selectAll().where('api_id', '=', apiId).where('resource_url', '=', resourceUrl).executeTakeFirst();
}

export function findServerByClientId(db: Db, apiId: string, clientId: string) {
  return db.selectFrom('resource_servers').selectAll().where('api_id', '=', apiId).where('client_id', '=', clientId).executeTakeFirst();
}

/** Every permission name any server of the API exposes (discovery lists them; unknown scopes are refused). */
export async function permissionNames(db: Db, apiId: string): Promise<string[]> {
  const rows = await db.selectFrom('server_permissions').select('name').distinct().where('api_id', '=', apiId).orderBy('name').execute();
  return rows.map((row) => row.name);
}

export async function serverPermissions(db: Db, apiId: string, serverId: string) {
  return db
    .selectFrom('server_permissions')
    .select(['name', 'description', 'sensitive'])
    .where('api_id', '=', apiId)
    .where('server_id', '=', serverId)
    .orderBy('name')
    .execute();
}

/** The permissions a person holds at one server through their roles. */
export async function heldPermissions(db: Db, apiId: string, personId: string, serverId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('person_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'person_roles.role_id')
    .innerJoin('signin_roles', 'signin_roles.id', 'person_roles.role_id')
    .select('role_permissions.permission')
    .where('signin_roles.api_id', '=', apiId)
    .where('person_roles.person_id', '=', personId)
    .where('role_permissions.server_id', '=', serverId)
    .execute();
  return new Set(rows.map((row) => row.permission));
}

/** A person's role names and every permission those roles give, for the `roles` scope. */
export async function rolesAndPermissions(db: Db, apiId: string, personId: string): Promise<{ roles: string[]; permissions: string[] }> {
  const roles = await db
    .selectFrom('person_roles')
    .innerJoin('signin_roles', 'signin_roles.id', 'person_roles.role_id')
    .select(['signin_roles.id', 'signin_roles.name'])
    .where('signin_roles.api_id', '=', apiId)
    .where('person_roles.person_id', '=', personId)
    .orderBy('signin_roles.name')
    .execute();
  if (roles.length === 0) return { roles: [], permissions: [] };
  const permissions = await db
    .selectFrom('role_permissions')
    .select('permission')
    .distinct()
    .where('role_id', 'in', roles.map((role) => role.id))
    .orderBy('permission')
    .execute();
  return { roles: roles.map((role) => role.name), permissions: permissions.map((row) => row.permission) };
}

/** Every server of an API with the permissions it exposes, in the console's order (end-user key options). */
export async function serversWithPermissions(db: Db, apiId: string) {
  const [servers, permissions] = await Promise.all([
    db.selectFrom('resource_servers').select(['id', 'name', 'resource_url', 'requests_per_minute']).where('api_id', '=', apiId).orderBy('created_at').orderBy('id').execute(),
    db.selectFrom('server_permissions').select(['server_id', 'name', 'description', 'sensitive']).where('api_id', '=', apiId).orderBy('name').execute(),
  ]);
  return servers.map((server) => ({ ...server, permissions: permissions.filter((p) => p.server_id === server.id) }));
}

/** The permissions a person holds through their roles, per server id. */
export async function heldPermissionsByServer(db: Db, apiId: string, personId: string): Promise<Map<string, Set<string>>> {
  const rows = await db
    .selectFrom('person_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'person_roles.role_id')
    .innerJoin('signin_roles', 'signin_roles.id', 'person_roles.role_id')
    .select(['role_permissions.server_id', 'role_permissions.permission'])
    .where('signin_roles.api_id', '=', apiId)
    .where('person_roles.person_id', '=', personId)
    .execute();
  const held = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = held.get(row.server_id) ?? new Set<string>();
    set.add(row.permission);
    held.set(row.server_id, set);
  }
  return held;
}
