import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';

/** Where the portal's sign-in returns, on the API's own host. */
export const PORTAL_CALLBACK_PATH = '/auth/callback';

/**
 * The portal's client of its own API's issuer: a web app of origin 'portal', one per API, made on
 * first use. It has no secret, so nobody can spend its codes at the token endpoint: the portal
 * exchanges them in-process. Its one redirect URI follows the issuer's address.
 */
export async function portalApp(db: Db, clock: Clock, apiId: string, issuer: string) {
  const redirectUri = issuer + PORTAL_CALLBACK_PATH;
  const found = await db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('origin', '=', 'portal').executeTakeFirst();
  if (found && found.redirect_uris.length === 1 && found.redirect_uris[0] === redirectUri) return found;
  const now = clock.now();
  if (found) {
    return db.updateTable('oauth_apps').set({ redirect_uris: [redirectUri], post_logout_redirect_uris: [issuer + '/'], updated_at: now }).where('id', '=', found.id).returningAll().executeTakeFirstOrThrow();
  }
  await db
    .insertInto('oauth_apps')
    .values({
      id: newId('app'), api_id: apiId, name: 'Customer portal', kind: 'web', origin: 'portal', redirect_uris: [redirectUri], post_logout_redirect_uris: [issuer + '/'],
      refresh_tokens: false, own_app: false, secret_hash: null, previous_secret_hash: null, previous_secret_valid_until: null, blocked: false, last_used_at: null, created_at: now, updated_at: now,
    })
    // Two first visits at once: the unique index keeps one, and both read it back.
    .onConflict((oc) => oc.column('api_id').where('origin', '=', 'portal').doNothing())
    .execute();
  return db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('origin', '=', 'portal').executeTakeFirstOrThrow();
}
