import { sql, type Insertable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { InvitesTable, Role, WorkspaceKeysTable } from './tables.js';
import { changed, notifyChange } from '../platform/db/change-feed.js';

type Executor = Db | Trx;

export async function insertWorkspace(trx: Trx, row: { id: string; name: string; at: Date }) {
  await trx.insertInto('workspaces').values({ id: row.id, name: row.name, created_at: row.at, updated_at: row.at }).execute();
}

export function findWorkspace(db: Executor, id: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function renameWorkspace(trx: Trx, id: string, name: string, at: Date) {
  return trx.updateTable('workspaces').set({ name, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteWorkspace(trx: Trx, id: string) {
  // The foreign keys' cascade removes the workspace's APIs with it, behind the apis capability's
  // back: the change feed must still name them, or other nodes would serve their sign-in services
  // from cache until the entries expire.
  const apis = await trx.selectFrom('apis').select('id').where('workspace_id', '=', id).forUpdate().execute();
  await trx.deleteFrom('workspaces').where('id', '=', id).execute();
  await notifyChange(trx, apis.map((api) => changed.api(api.id)));
}

export async function insertMembership(trx: Trx, row: { workspace_id: string; user_id: string; role: Role; joined_at: Date }) {
  await trx.insertInto('memberships').values(row).execute();
}

export function findMembership(db: Executor, workspaceId: string, userId: string) {
  return db.selectFrom('memberships').selectAll().where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Serializes one account's new workspaces (a transaction-scoped advisory lock on the account id):
 * no row exists to lock before the first, and the users row belongs to accounts/.
 */
export async function lockOwnerForNewWorkspace(trx: Trx, userId: string) {
  await sql`select pg_advisory_xact_lock(${OWNER_LOCK_CLASS}, hashtext(${userId}))`.execute(trx);
}
/** Advisory locks' first key: this lock's own space, apart from the jobs' and migrations' single keys. */
const OWNER_LOCK_CLASS = 26_004;

export async function countOwnedWorkspaces(trx: Trx, userId: string): Promise<number> {
  const row = await trx.selectFrom('memberships').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', userId).where('role', '=', 'owner').executeTakeFirstOrThrow();
  return Number(row.n);
}

export function workspacesOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .select(['workspaces.id', 'workspaces.name', 'workspaces.created_at', 'memberships.role'])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.joined_at')
    .orderBy('workspaces.id')
    .execute();
}

export function membersOfWorkspace(db: Executor, workspaceId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'users.name', 'users.totp_secret_sealed', 'memberships.role', 'memberships.joined_at'])
    .where('memberships.workspace_id', '=', workspaceId)
    .orderBy('memberships.joined_at')
    .orderBy('users.id')
    .execute();
}

/** Locks the owner rows of a workspace, so two demotions at once cannot leave none. */
export async function lockOwners(trx: Trx, workspaceId: string) {
  return trx.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspaceId).where('role', '=', 'owner').forUpdate().execute();
}

export async function setMemberRole(trx: Trx, workspaceId: string, userId: string, role: Role) {
  await trx.updateTable('memberships').set({ role }).where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

export async function deleteMembership(trx: Trx, workspaceId: string, userId: string) {
  await trx.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
}

export async function insertInvite(trx: Trx, row: Insertable<InvitesTable>) {
  await trx.insertInto('invites').values(row).execute();
}

export function pendingInvites(db: Executor, workspaceId: string, now: Date) {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function revokePendingInvitesFor(trx: Trx, workspaceId: string, email: string, at: Date) {
  await trx
    .updateTable('invites')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export function revokeInvite(trx: Trx, workspaceId: string, inviteId: string, at: Date) {
  return trx
    .updateTable('invites')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function findInviteByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('invites')
    .innerJoin('workspaces', 'workspaces.id', 'invites.workspace_id')
    .selectAll('invites')
    .select('workspaces.name as workspace_name')
    .where('invites.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks an invitation accepted if it is still open; the update is the single-use guarantee. */
export function acceptInvite(trx: Trx, inviteId: string, now: Date) {
  return trx
    .updateTable('invites')
    .set({ accepted_at: now })
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}

export async function insertKey(trx: Trx, row: Insertable<WorkspaceKeysTable>) {
  await trx.insertInto('workspace_keys').values(row).execute();
}

export function activeKeys(db: Executor, workspaceId: string) {
  return db
    .selectFrom('workspace_keys')
    .select(['id', 'name', 'prefix', 'role', 'created_at', 'last_used_at'])
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function revokeKey(trx: Trx, workspaceId: string, keyId: string, at: Date) {
  return trx
    .updateTable('workspace_keys')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name', 'prefix'])
    .executeTakeFirst();
}

/** A key's name, revoked or not: who sent an invitation stays known after the key is revoked. */
export function findKeyName(db: Executor, workspaceId: string, keyId: string) {
  return db.selectFrom('workspace_keys').select('name').where('workspace_id', '=', workspaceId).where('id', '=', keyId).executeTakeFirst();
}

export function findActiveKeyByHash(db: Db, keyHash: string) {
  return db
    .selectFrom('workspace_keys')
    .select(['id', 'workspace_id', 'name', 'role', 'created_by', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function touchKey(db: Db, keyId: string, at: Date) {
  await db.updateTable('workspace_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}
