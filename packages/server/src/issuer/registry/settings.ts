import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { findSettings } from './lookups.js';

export type SigninSettings = NonNullable<Awaited<ReturnType<typeof findSettings>>>;

/**
 * An API's sign-in settings. The row is made on first read, so the defaults live in one place:
 * the table's column defaults.
 */
export async function loadSettings(db: Db, clock: Clock, apiId: string): Promise<SigninSettings> {
  const row = await findSettings(db, apiId);
  if (row) return row;
  await db
    .insertInto('signin_settings')
    .values({ api_id: apiId, updated_at: clock.now() })
    .onConflict((oc) => oc.column('api_id').doNothing())
    .execute();
  return (await findSettings(db, apiId))!;
}
