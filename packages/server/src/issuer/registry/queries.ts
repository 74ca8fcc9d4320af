// The console's reads and changes of an API's sign-in registry: settings, the owner's apps,
// servers with their permissions, and roles. Every query takes the API id (style.md: tenants
// isolated twice); the protocol's per-request reads are in lookups.ts.
import type { Insertable, Updateable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { OauthAppsTable, ResourceServersTable, SigninSettingsTable } from './tables.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';

type Executor = Db | Trx;

export async function updateSettings(trx: Trx, apiId: string, changes: Updateable<SigninSettingsTable>) {
  await notifyChange(trx, [changed.api(apiId)]);
  return trx.updateTable('signin_settings').set(changes).where('api_id', '=', apiId).returningAll().executeTakeFirstOrThrow();
}

// ---- Apps the owner registered (origin 'owner'); registered and metadata apps are connected apps.

export function ownerApps(db: Executor, apiId: string) {
  return db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('origin', '=', 'owner').orderBy('created_at').orderBy('id').execute();
}

export function findOwnerApp(db: Executor, apiId: string, appId: string) {
  return db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('origin', '=', 'owner').where('id', '=', appId).executeTakeFirst();
}

export function insertApp(trx: Trx, row: Insertable<OauthAppsTable>) {
  return trx.insertInto('oauth_apps').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateApp(trx: Trx, apiId: string, appId: string, changes: Updateable<OauthAppsTable>) {
  await notifyChange(trx, [changed.client(apiId, appId)]);
  return trx.updateTable('oauth_apps').set(changes).where('api_id', '=', apiId).where('id', '=', appId).returningAll().executeTakeFirstOrThrow();
}

export async function deleteApp(trx: Trx, apiId: string, appId: string) {
  await trx.deleteFrom('oauth_apps').where('api_id', '=', apiId).where('id', '=', appId).execute();
  await notifyChange(trx, [changed.client(apiId, appId)]);
}

// ---- Servers (RFC 8707 resources) and the permissions they expose.

export function serversOf(db: Executor, apiId: string) {
  return db.selectFrom('resource_servers').selectAll().where('api_id', '=', apiId).orderBy('created_at').orderBy('id').execute();
}

export function findServer(db: Executor, apiId: string, serverId: string) {
  return db.selectFrom('resource_servers').selectAll().where('api_id', '=', apiId).where('id', '=', serverId).executeTakeFirst();
}

export function insertServer(trx: Trx, row: Insertable<ResourceServersTable>) {
  return trx.insertInto('resource_servers').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateServer(trx: Trx, apiId: string, serverId: string, changes: Updateable<ResourceServersTable>) {
  const server = await trx.updateTable('resource_servers').set(changes).where('api_id', '=', apiId).where('id', '=', serverId).returningAll().executeTakeFirstOrThrow();
  await notifyChange(trx, [changed.client(apiId, server.client_id)]);
  return server;
}

export async function deleteServer(trx: Trx, apiId: string, serverId: string) {
  const gone = await trx.deleteFrom('resource_servers').where('api_id', '=', apiId).where('id', '=', serverId).returning('client_id').execute();
  await notifyChange(trx, gone.map((row) => changed.client(apiId, row.client_id)));
}

export async function permissionsOfServers(db: Executor, apiId: string, serverIds: string[]) {
  if (serverIds.length === 0) return [];
  return db
    .selectFrom('server_permissions')
    .select(['server_id', 'name', 'description', 'sensitive'])
    .where('api_id', '=', apiId)
    .where('server_id', 'in', serverIds)
    .orderBy('server_id')
    .orderBy('name')
    .execute();
}

export interface PermissionInput {
  name: string;
  description: string;
  sensitive: boolean;
}

/**
 * Makes a server's permission list exactly `permissions`: names no longer listed are deleted (and
 * leave every role by the foreign key's cascade); kept names keep their role grants.
 */
export async function replacePermissions(trx: Trx, apiId: string, serverId: string, permissions: PermissionInput[]) {
  const names = permissions.map((p) => p.name);
  let removal = trx.deleteFrom('server_permissions').where('api_id', '=', apiId).where('server_id', '=', serverId);
  if (names.length > 0) removal = removal.where('name', 'not in', names);
  await removal.execute();
  if (permissions.length === 0) return;
  await trx
    .insertInto('server_permissions')
    .values(permissions.map((p) => ({ server_id: serverId, api_id: apiId, name: p.name, description: p.description, sensitive: p.sensitive })))
    .onConflict((oc) => oc.columns(['server_id', 'name']).doUpdateSet((eb) => ({ description: eb.ref('excluded.description'), sensitive: eb.ref('excluded.sensitive') })))
    .execute();
}
