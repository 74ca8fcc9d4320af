// What the owner console shows of an API's signing keys: never the private key.
import type { Db } from '../../platform/db/database.js';

/** Every signing key of an API, newest first, without its sealed private key. */
export function signingKeysOf(db: Db, apiId: string) {
  return db
    .selectFrom('signing_keys')
    .select(['kid', 'active', 'created_at', 'retired_at'])
    .where('api_id', '=', apiId)
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .execute();
}
