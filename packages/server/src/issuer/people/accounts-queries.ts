// The e-mailed codes of the sign-in pages and the changes a sign-in makes to a person. Every
// query takes the API id: a code or a person of another API is never found.
import { sql, type Insertable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { PersonEmailCodesTable } from './tables.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';

export async function insertEmailCode(trx: Trx, row: Insertable<PersonEmailCodesTable>) {
  await trx.insertInto('person_email_codes').values(row).execute();
}

/** The newest code for an address, locked: a newer code supersedes every older one. */
export function latestEmailCode(trx: Trx, apiId: string, email: string) {
  return trx
    .selectFrom('person_email_codes')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('email', '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export async function countCodeAttempt(trx: Trx, apiId: string, id: string) {
  await trx.updateTable('person_email_codes').set({ attempts: sql`attempts + 1` }).where('api_id', '=', apiId).where('id', '=', id).execute();
}

export async function consumeEmailCode(trx: Trx, apiId: string, id: string, at: Date) {
  await trx.updateTable('person_email_codes').set({ consumed_at: at }).where('api_id', '=', apiId).where('id', '=', id).execute();
}

/** A code proved the person holds the address (OIDC's email_verified). */
export async function markEmailVerified(db: Db | Trx, apiId: string, personId: string, at: Date) {
  await db
    .updateTable('people')
    .set({ email_verified: true, updated_at: at })
    .where('api_id', '=', apiId)
    .where('id', '=', personId)
    .where('email_verified', '=', false)
    .execute();
}

export async function setPasswordHash(db: Db | Trx, apiId: string, personId: string, passwordHash: string, at: Date) {
  await db.updateTable('people').set({ password_hash: passwordHash, updated_at: at }).where('api_id', '=', apiId).where('id', '=', personId).execute();
}

/** Ends every live session of a person but one (a password change keeps the session that made it). */
export async function endOtherSessions(db: Db | Trx, apiId: string, personId: string, keepSessionId: string, at: Date) {
  await db.updateTable('person_sessions').set({ ended_at: at }).where('api_id', '=', apiId).where('person_id', '=', personId).where('id', '!=', keepSessionId).where('ended_at', 'is', null).execute();
  await notifyChange(db, [changed.person(personId)]);
}
