import { sql } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';

/** Keys still published: the active one and those retired after `retiredSince`. */
export function publishedKeys(db: Db, apiId: string, retiredSince: Date) {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where('api_id', '=', apiId)
    .where((eb) => eb.or([eb('active', '=', true), eb('retired_at', '>', retiredSince)]))
    .orderBy('created_at', 'desc')
    .execute();
}

/** Inserts an active key unless the API has one already (a concurrent first use); true if inserted. */
export async function insertFirstKey(db: Db, row: { kid: string; api_id: string; public_jwk: string; private_sealed: string; created_at: Date }) {
  const result = await sql`
    insert into signing_keys (kid, api_id, public_jwk, private_sealed, active, created_at)
    values (${row.kid}, ${row.api_id}, ${row.public_jwk}::jsonb, ${row.private_sealed}, true, ${row.created_at})
    on conflict (api_id) where active do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

export async function retireActiveKey(trx: Trx, apiId: string, at: Date) {
  await trx.updateTable('signing_keys').set({ active: false, retired_at: at }).where('api_id', '=', apiId).where('active', '=', true).execute();
}

export async function insertActiveKey(trx: Trx, row: { kid: string; api_id: string; public_jwk: string; private_sealed: string; created_at: Date }) {
  await trx.insertInto('signing_keys').values({ ...row, active: true }).execute();
}
