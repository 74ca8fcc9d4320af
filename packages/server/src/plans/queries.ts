import type { Insertable, Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { PlansTable } from './tables.js';

type Executor = Db | Trx;

/** Plans with their subscriber counts, in display order. */
export function plansOf(db: Executor, apiId: string) {
  return db
    .selectFrom('plans as p')
    .leftJoin('customers as c', (join) => join.onRef('c.plan_id', '=', 'p.id'))
    .selectAll('p')
    .select((eb) => eb.fn.count<number>('c.id').as('subscribers'))
    .where('p.api_id', '=', apiId)
    .groupBy('p.id')
    .orderBy('p.sort')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
}

export function findPlan(db: Executor, apiId: string, planId: string) {
  return db.selectFrom('plans').selectAll().where('api_id', '=', apiId).where('id', '=', planId).executeTakeFirst();
}

/**
 * A plan row locked until the transaction ends. A change takes FOR NO KEY UPDATE (the lock its
 * UPDATE takes anyway): changes take turns, and assignments (FOR KEY SHARE) need not wait for one.
 * A deletion takes FOR UPDATE, which waits for assignments in flight, so the subscribers it then
 * counts include them (docs/architecture.md, lock order).
 */
export function lockPlan(trx: Trx, apiId: string, planId: string, purpose: 'change' | 'delete') {
  const query = trx.selectFrom('plans').selectAll().where('api_id', '=', apiId).where('id', '=', planId);
  return (purpose === 'delete' ? query.forUpdate() : query.forNoKeyUpdate()).executeTakeFirst();
}

export async function subscriberIds(db: Executor, planId: string): Promise<string[]> {
  return (await db.selectFrom('customers').select('id').where('plan_id', '=', planId).execute()).map((r) => r.id);
}

export async function insertPlan(trx: Trx, row: Insertable<PlansTable>) {
  return trx.insertInto('plans').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updatePlan(trx: Trx, apiId: string, planId: string, changes: Updateable<PlansTable>) {
  return trx.updateTable('plans').set(changes).where('api_id', '=', apiId).where('id', '=', planId).returningAll().executeTakeFirstOrThrow();
}

export async function deletePlan(trx: Trx, apiId: string, planId: string) {
  await trx.deleteFrom('plans').where('api_id', '=', apiId).where('id', '=', planId).execute();
}

/** The provider's price of a plan, or the error of the last try (payments/plan-sync.ts). */
export async function setProviderSync(db: Executor, apiId: string, planId: string, changes: Pick<Updateable<PlansTable>, 'provider_price_id' | 'provider_synced_at' | 'provider_sync_error'>) {
  await db.updateTable('plans').set(changes).where('api_id', '=', apiId).where('id', '=', planId).execute();
}
