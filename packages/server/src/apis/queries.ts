import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { ApisTable } from './tables.js';
import { changed, notifyChange } from '../platform/db/change-feed.js';

type Executor = Db | Trx;

export async function insertApi(trx: Trx, row: Insertable<ApisTable>) {
  return trx.insertInto('apis').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findApi(db: Executor, id: string) {
  return db.selectFrom('apis').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findApiBySlug(db: Executor, slug: string) {
  return db.selectFrom('apis').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function slugTaken(db: Executor, slug: string): Promise<boolean> {
  return (await db.selectFrom('apis').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
}

export function apisOfWorkspace(db: Executor, workspaceId: string) {
  return db.selectFrom('apis').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
}

export async function updateApi(trx: Executor, id: string, changes: Updateable<ApisTable>) {
  const api = await trx.updateTable('apis').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  // Status, name, branding, slug, plan: the sign-in service's tenant cache holds them all.
  await notifyChange(trx, [changed.api(id)]);
  return api;
}

export async function deleteApi(trx: Trx, id: string) {
  await trx.deleteFrom('apis').where('id', '=', id).execute();
  await notifyChange(trx, [changed.api(id)]);
}

/** The API a presented SDK secret belongs to: the current secret, or the previous one in its grace. */
export function findApiBySecretHash(db: Db, hash: string, now: Date) {
  return db
    .selectFrom('apis')
    .selectAll()
    .where((eb) =>
      eb.or([eb('sdk_secret_hash', '=', hash), eb.and([eb('previous_secret_hash', '=', hash), eb('previous_secret_valid_until', '>', now)])]),
    )
    .executeTakeFirst();
}

/**
 * APIs whose platform plan has ended and is not `free` yet: past due beyond the grace, or canceled
 * (at the period's end) with the period over.
 */
export function apisWithGraceEndingBefore(db: Executor, cutoff: Date) {
  return db.selectFrom('apis').select(['id', 'name', 'workspace_id', 'platform_plan', 'plan_grace_until']).where('platform_plan', '<>', 'free').where('plan_status', '=', 'past_due').where('plan_grace_until', '<', cutoff).limit(1000).execute();
}

export function apisWithEndedPlatformPlans(db: Executor, now: Date) {
  return db
    .selectFrom('apis')
    .select(['id', 'platform_plan', 'plan_status', 'plan_grace_until', 'plan_period_end'])
    .where('platform_plan', '<>', 'free')
    .where((eb) =>
      eb.or([
        eb.and([eb('plan_status', '=', 'past_due'), eb('plan_grace_until', '<', now)]),
        eb.and([eb('plan_status', '=', 'canceled'), eb.or([eb('plan_period_end', 'is', null), eb('plan_period_end', '<', now)])]),
      ]),
    )
    .execute();
}

// ---- Events about the API itself (events.ts); none of these columns is in a cache, so no notify ----

const sdkConnectionColumns = ['id', 'sdk_connected', 'sdk_agent', 'sdk_last_seen_at', 'sdk_seq'] as const;

/** Marks the SDK connected unless it was; the row when this call changed it. */
export function markSdkConnected(trx: Trx, apiId: string) {
  return trx
    .updateTable('apis')
    .set({ sdk_connected: true, sdk_seq: sql`sdk_seq + 1` })
    .where('id', '=', apiId)
    .where('sdk_connected', '=', false)
    .returning(sdkConnectionColumns)
    .executeTakeFirst();
}

/** Marks disconnected every connected SDK with no snapshot since `quietSince`; the rows it changed. */
export function markSdksDisconnected(trx: Trx, quietSince: Date) {
  return trx
    .updateTable('apis')
    .set({ sdk_connected: false, sdk_seq: sql`sdk_seq + 1` })
    .where('sdk_connected', '=', true)
    .where((eb) => eb.or([eb('sdk_last_seen_at', 'is', null), eb('sdk_last_seen_at', '<', quietSince)]))
    .returning(sdkConnectionColumns)
    .execute();
}

/** APIs with usage that have not been told of 100 % of their allowance this month, in id order after `after`. */
export function allowanceCandidates(db: Executor, month: string, after: string, limit: number) {
  return db
    .selectFrom('apis')
    .select(['id', 'platform_plan', 'allowance_month', 'allowance_level'])
    .where('first_usage_at', 'is not', null)
    .where('id', '>', after)
    .where((eb) => eb.or([eb('allowance_month', 'is', null), eb('allowance_month', '!=', month), eb('allowance_level', '<', 100)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * The API row held FOR NO KEY UPDATE until the transaction ends: writers of the API take turns
 * while inserts that reference the row (usage reports, FOR KEY SHARE through their foreign keys)
 * neither wait for them nor keep them waiting.
 */
export async function lockApiAmongWriters(trx: Trx, apiId: string): Promise<void> {
  await trx.selectFrom('apis').select('id').where('id', '=', apiId).forNoKeyUpdate().execute();
}

/** The allowance columns under the same lock as {@link lockApiAmongWriters}. */
export function lockAllowance(trx: Trx, apiId: string) {
  return trx.selectFrom('apis').select(['allowance_month', 'allowance_level']).where('id', '=', apiId).forNoKeyUpdate().executeTakeFirst();
}

export async function setAllowanceLevel(trx: Trx, apiId: string, month: string, level: number) {
  await trx.updateTable('apis').set({ allowance_month: month, allowance_level: level }).where('id', '=', apiId).execute();
}
