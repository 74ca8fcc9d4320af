import type { Db } from '../../platform/db/database.js';

/** Deletes e-mailed codes that expired before `before`. */
export async function deleteExpiredEmailCodes(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('person_email_codes').where('expires_at', '<', before).execute();
}

/** Deletes sessions that ended or expired before `before`. */
export async function deleteFinishedSessions(db: Db, before: Date): Promise<void> {
  await db
    .deleteFrom('person_sessions')
    .where((eb) => eb.or([eb('ended_at', '<', before), eb('expires_at', '<', before)]))
    .execute();
}
