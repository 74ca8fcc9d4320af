import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { CustomDomainsTable } from './tables.js';
import { changed, notifyChange } from '../platform/db/change-feed.js';

type Executor = Db | Trx;

export function findDomain(db: Executor, apiId: string) {
  return db.selectFrom('custom_domains').selectAll().where('api_id', '=', apiId).executeTakeFirst();
}

export type DomainRow = NonNullable<Awaited<ReturnType<typeof findDomain>>>;

/** Locks an API's domain row for the rest of the transaction (a change and a check take turns). */
export function lockDomain(trx: Trx, apiId: string) {
  return trx.selectFrom('custom_domains').selectAll().where('api_id', '=', apiId).forUpdate().executeTakeFirst();
}

/** Another API that holds this name proven (verified or active). */
export function provenElsewhere(db: Executor, domain: string, apiId: string) {
  return db.selectFrom('custom_domains').select('api_id').where('domain', '=', domain).where('api_id', '<>', apiId).where('status', 'in', ['verified', 'active']).executeTakeFirst();
}

export function insertDomain(trx: Trx, row: Insertable<CustomDomainsTable>) {
  return trx.insertInto('custom_domains').values(row).returningAll().executeTakeFirstOrThrow();
}

// Every change of a domain notifies its API: the tenant cache holds which API a host serves.
export async function replaceDomain(trx: Trx, apiId: string, changes: Updateable<CustomDomainsTable>) {
  await notifyChange(trx, [changed.api(apiId)]);
  return trx
    .updateTable('custom_domains')
    .set({ ...changes, version: sql<number>`version + 1` })
    .where('api_id', '=', apiId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Writes a check's outcome over the row it read, and only that one (undefined if it changed since). */
export async function recordCheck(db: Executor, apiId: string, version: number, changes: Updateable<CustomDomainsTable>) {
  const row = await db
    .updateTable('custom_domains')
    .set({ ...changes, version: sql<number>`version + 1` })
    .where('api_id', '=', apiId)
    .where('version', '=', version)
    .returningAll()
    .executeTakeFirst();
  if (row) await notifyChange(db, [changed.api(apiId)]);
  return row;
}

export async function deleteDomain(trx: Trx, apiId: string) {
  await notifyChange(trx, [changed.api(apiId)]);
  return trx.deleteFrom('custom_domains').where('api_id', '=', apiId).returningAll().executeTakeFirst();
}

/**
 * Takes up to `limit` domains due for a check, moving their next check to `leaseUntil` so another
 * node's run (or the next one, if this one dies) leaves them alone until then.
 */
export function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number) {
  return db
    .updateTable('custom_domains')
    .set({ next_check_at: leaseUntil })
    .where('api_id', 'in', (eb) =>
      eb.selectFrom('custom_domains').select('api_id').where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit).forUpdate().skipLocked(),
    )
    .returningAll()
    .execute();
}

/** A domain in one of `statuses` with its API's platform plan, for serving and certificates. */
export function findByName(db: Db, domain: string, statuses: CustomDomainsTable['status'][]) {
  return db
    .selectFrom('custom_domains')
    .innerJoin('apis', 'apis.id', 'custom_domains.api_id')
    .select(['custom_domains.api_id', 'custom_domains.status', 'apis.platform_plan'])
    .where('custom_domains.domain', '=', domain)
    .where('custom_domains.status', 'in', statuses)
    .executeTakeFirst();
}
