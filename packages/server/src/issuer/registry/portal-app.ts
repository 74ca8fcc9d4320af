import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';

/** Where the portal's sign-in returns, on the API's own host. */
export const PORTAL_CALLBACK_PATH = '/auth/callback';

/**
 * The portal's client of its own API's issuer: a web app of origin 'portal', one per API, made on
 * first use. It has no secret, so nobody can spend its codes at the token endpoint: the portal
 * exchanges them in-process. Its redirect URIs follow the addresses the portal is served at: the
 * portal host's always, and the custom domain's once the portal is used there (issue 17); a
 * custom domain replaced by another leaves with the first use of the new one.
 *
 * @param issuer the issuer of the host the request reached
 * @param portalIssuer the issuer of the API's portal host
 */
export async function portalApp(db: Db, clock: Clock, apiId: string, issuer: string, portalIssuer: string = issuer) {
  const issuers = [...new Set([portalIssuer, issuer])];
  const redirectUris = issuers.map((origin) => origin + PORTAL_CALLBACK_PATH);
  const found = await db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('origin', '=', 'portal').executeTakeFirst();
  // At the portal host, its own address is enough (a custom domain's stays, so the hosts never
  // undo each other); at a custom domain, the two addresses and no older one.
  const current = (uris: string[]) =>
    issuer === portalIssuer ? uris.includes(redirectUris[0]!) : uris.length === redirectUris.length && redirectUris.every((uri) => uris.includes(uri));
  if (found && current(found.redirect_uris)) return found;
  const now = clock.now();
  if (found) {
    const updated = await db.updateTable('oauth_apps').set({ redirect_uris: redirectUris, post_logout_redirect_uris: issuers.map((origin) => origin + '/'), updated_at: now }).where('id', '=', found.id).returningAll().executeTakeFirstOrThrow();
    await notifyChange(db, [changed.client(apiId, found.id)]);
    return updated;
  }
  await db
    .insertInto('oauth_apps')
    .values({
      id: newId('app'), api_id: apiId, name: 'Customer portal', kind: 'web', origin: 'portal', redirect_uris: redirectUris, post_logout_redirect_uris: issuers.map((origin) => origin + '/'),
      refresh_tokens: false, own_app: false, secret_hash: null, previous_secret_hash: null, previous_secret_valid_until: null, blocked: false, last_used_at: null, created_at: now, updated_at: now,
    })
    // Two first visits at once: the unique index keeps one, and both read it back.
    .onConflict((oc) => oc.column('api_id').where('origin', '=', 'portal').doNothing())
    .execute();
  return db.selectFrom('oauth_apps').selectAll().where('api_id', '=', apiId).where('origin', '=', 'portal').executeTakeFirstOrThrow();
}
