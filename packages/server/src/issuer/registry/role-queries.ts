// Roles of an API's sign-in service and the permissions they give. Every query takes the API id.
import type { Updateable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { SigninRolesTable } from './tables.js';

type Executor = Db | Trx;

export interface RolePermission {
  server_id: string;
  permission: string;
}

export function rolesOf(db: Executor, apiId: string) {
  return db.selectFrom('signin_roles').selectAll().where('api_id', '=', apiId).orderBy('name').orderBy('id').execute();
}

export function findRole(db: Executor, apiId: string, roleId: string) {
  return db.selectFrom('signin_roles').selectAll().where('api_id', '=', apiId).where('id', '=', roleId).executeTakeFirst();
}

/** The permissions of some roles of an API, in a stable order. */
export async function permissionsOfRoles(db: Executor, apiId: string, roleIds: string[]) {
  if (roleIds.length === 0) return [];
  return db
    .selectFrom('role_permissions')
    .innerJoin('signin_roles', 'signin_roles.id', 'role_permissions.role_id')
    .select(['role_permissions.role_id', 'role_permissions.server_id', 'role_permissions.permission'])
    .where('signin_roles.api_id', '=', apiId)
    .where('role_permissions.role_id', 'in', roleIds)
    .orderBy('role_permissions.server_id')
    .orderBy('role_permissions.permission')
    .execute();
}

/** Which of these (server, permission) pairs a server of this API exposes, as `server_id permission` keys. */
export async function existingPermissions(db: Executor, apiId: string, items: RolePermission[]): Promise<Set<string>> {
  const serverIds = [...new Set(items.map((i) => i.server_id))];
  if (serverIds.length === 0) return new Set();
  // Every permission of the servers named (a server has at most 100): PGlite fails on a row-value
  // IN list of hundreds of pairs, and this is one simple index range per server.
  const rows = await db.selectFrom('server_permissions').select(['server_id', 'name']).where('api_id', '=', apiId).where('server_id', 'in', serverIds).execute();
  return new Set(rows.map((r) => `${r.server_id} ${r.name}`));
}

export function insertRole(trx: Trx, row: { id: string; api_id: string; name: string; description: string; created_at: Date; updated_at: Date }) {
  return trx.insertInto('signin_roles').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateRole(trx: Trx, apiId: string, roleId: string, changes: Updateable<SigninRolesTable>) {
  return trx.updateTable('signin_roles').set(changes).where('api_id', '=', apiId).where('id', '=', roleId).returningAll().executeTakeFirstOrThrow();
}

export async function deleteRole(trx: Trx, apiId: string, roleId: string) {
  await trx.deleteFrom('signin_roles').where('api_id', '=', apiId).where('id', '=', roleId).execute();
}

/** Sets a role's permissions to exactly `items` (the role was found under its API by the caller). */
export async function replaceRolePermissions(trx: Trx, roleId: string, items: RolePermission[]) {
  await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (items.length === 0) return;
  await trx.insertInto('role_permissions').values(items.map((i) => ({ role_id: roleId, server_id: i.server_id, permission: i.permission }))).execute();
}

/** How many people hold each role. */
export async function holderCounts(db: Executor, apiId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('person_roles')
    .innerJoin('signin_roles', 'signin_roles.id', 'person_roles.role_id')
    .select(['person_roles.role_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('signin_roles.api_id', '=', apiId)
    .groupBy('person_roles.role_id')
    .execute();
  return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
}
