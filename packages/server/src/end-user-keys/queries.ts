// SQL of end-user keys. Every query takes the API id and, for a person's own keys, the person's id
// (style.md: tenants isolated twice): a key of another person or API is never found.
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { EndUserKeysTable } from './tables.js';

type Executor = Db | Trx;

export function insertKey(trx: Trx, row: Insertable<EndUserKeysTable>) {
  return trx.insertInto('end_user_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Locks the person while their keys are counted and one is made, so two creations at once cannot
 * both pass the limits of spec 8.
 */
export function lockPerson(trx: Trx, apiId: string, personId: string) {
  return trx.selectFrom('people').select(['id', 'email', 'name', 'status']).where('api_id', '=', apiId).where('id', '=', personId).forUpdate().executeTakeFirst();
}

export function findPersonContact(db: Executor, apiId: string, personId: string) {
  return db.selectFrom('people').select(['id', 'email', 'name', 'status']).where('api_id', '=', apiId).where('id', '=', personId).executeTakeFirst();
}

/** Keys neither revoked nor expired. */
export async function countActiveKeys(trx: Trx, apiId: string, personId: string, now: Date): Promise<number> {
  const row = await trx
    .selectFrom('end_user_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Keys made since `since`, revoked ones included, oldest first (the daily limit's window). */
export function keysCreatedSince(trx: Trx, apiId: string, personId: string, since: Date) {
  return trx
    .selectFrom('end_user_keys')
    .select('created_at')
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('created_at', '>', since)
    .orderBy('created_at')
    .execute();
}

/** A person's keys that are not revoked, newest first (spec 4.5). */
export function listKeys(db: Executor, apiId: string, personId: string) {
  return db
    .selectFrom('end_user_keys')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One of a person's keys that is not revoked, locked for a change. */
export function findKeyForChange(trx: Trx, apiId: string, personId: string, keyId: string) {
  return trx
    .selectFrom('end_user_keys')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function updateKey(trx: Trx, apiId: string, keyId: string, changes: Updateable<EndUserKeysTable>) {
  return trx.updateTable('end_user_keys').set(changes).where('api_id', '=', apiId).where('id', '=', keyId).returningAll().executeTakeFirstOrThrow();
}

/** Revokes every key of a person not revoked yet; answers the keys it revoked. */
export function revokeAllKeys(trx: Trx, apiId: string, personId: string, now: Date) {
  return trx
    .updateTable('end_user_keys')
    .set({ revoked_at: now, updated_at: now })
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .execute();
}

/**
 * What introspection needs of a key presented to one server, in one round trip: the key (by either
 * of its secrets), its person's status, the servers it names that still exist, and its scope at
 * the calling server recomputed from what the server exposes now, what the person holds now
 * through their roles, and whether sensitive permissions are allowed now (spec 4.3).
 */
export function keyForIntrospection(db: Executor, apiId: string, hash: string, serverId: string, sensitiveAllowed: boolean) {
  return db
    .selectFrom('end_user_keys as k')
    .innerJoin('people as p', 'p.id', 'k.person_id')
    .select([
      'k.id', 'k.person_id', 'k.secret_hash', 'k.previous_secret_hash', 'k.previous_secret_expires_at', 'k.server_ids', 'k.permissions',
      'k.expires_at', 'k.created_at', 'k.revoked_at', 'k.last_used_at', 'p.status as person_status',
    ])
    .select([
      sql<{ id: string; url: string }[] | null>`(select json_agg(json_build_object('id', s.id, 'url', s.resource_url)) from resource_servers s where s.api_id = k.api_id and s.id = any(k.server_ids))`.as('servers'),
      sql<string[] | null>`(
        select array_agg(sp.name) from server_permissions sp
        where sp.api_id = k.api_id and sp.server_id = ${serverId} and sp.name = any(k.permissions) and (not sp.sensitive or ${sensitiveAllowed})
          and exists (
            select 1 from person_roles pr join role_permissions rp on rp.role_id = pr.role_id
            where pr.person_id = k.person_id and rp.server_id = sp.server_id and rp.permission = sp.name
          )
      )`.as('scope'),
    ])
    .where('k.api_id', '=', apiId)
    .where((eb) => eb.or([eb('k.secret_hash', '=', hash), eb('k.previous_secret_hash', '=', hash)]))
    .executeTakeFirst();
}

/** Records a use, at most once per `precisionMs` per key. */
export async function touchKey(db: Executor, apiId: string, keyId: string, now: Date, notSince: Date) {
  await db
    .updateTable('end_user_keys')
    .set({ last_used_at: now })
    .where('api_id', '=', apiId)
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notSince)]))
    .execute();
}

/** Spec 8: revoked keys go 90 days after revocation, expired ones 90 days after expiry. */
export async function deleteFinishedKeys(db: Executor, before: Date): Promise<number> {
  const revoked = await db.deleteFrom('end_user_keys').where('revoked_at', '<', before).executeTakeFirst();
  const expired = await db.deleteFrom('end_user_keys').where('expires_at', '<', before).executeTakeFirst();
  return Number(revoked.numDeletedRows) + Number(expired.numDeletedRows);
}

/**
 * Keys to remind of their expiry (spec 6): live, expiring within the window, used since
 * `usedSince`, and not reminded yet; locked so two nodes never remind of one key twice.
 */
export function keysToRemind(trx: Trx, now: Date, expiringBefore: Date, usedSince: Date, limit: number) {
  return trx
    .selectFrom('end_user_keys as k')
    .innerJoin('people as p', 'p.id', 'k.person_id')
    .innerJoin('apis as a', 'a.id', 'k.api_id')
    .select(['k.id', 'k.api_id', 'k.name', 'k.start', 'k.expires_at', 'p.email', 'a.name as api_name', 'a.slug as api_slug'])
    .where('k.revoked_at', 'is', null)
    .where('k.expiry_reminded_at', 'is', null)
    .where('k.expires_at', '>', now)
    .where('k.expires_at', '<=', expiringBefore)
    .where('k.last_used_at', '>=', usedSince)
    .where('p.status', '=', 'active')
    .orderBy('k.expires_at')
    .limit(limit)
    .forUpdate('k')
    .skipLocked()
    .execute();
}

export async function markReminded(trx: Trx, keyId: string, now: Date) {
  await trx.updateTable('end_user_keys').set({ expiry_reminded_at: now }).where('id', '=', keyId).execute();
}
