import type { Db } from '../../platform/db/database.js';

/** Deletes codes, pushed requests, interactions and refresh tokens that expired before `before`. */
export async function deleteExpiredTokenRows(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('authorization_codes').where('expires_at', '<', before).execute();
  await db.deleteFrom('pushed_authorizations').where('expires_at', '<', before).execute();
  await db.deleteFrom('authorization_interactions').where('expires_at', '<', before).execute();
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', before).execute();
}

/** Deletes grants revoked before `before` with their codes and refresh tokens (cascade). */
export async function deleteRevokedGrants(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('token_grants').where('revoked_at', '<', before).execute();
}
