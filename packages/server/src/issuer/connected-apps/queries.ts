// The rows of apps people connect (oauth_apps of origin 'registered' and 'metadata'). Every
// query takes the API id (style.md: tenants isolated twice), except the cleanup job's, which
// goes over every API.
import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type { Database, Db, Trx } from '../../platform/db/database.js';
import type { OauthAppsTable } from '../registry/tables.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';
import { MAX_CONNECTED_APPS } from './limits.js';

type Executor = Db | Trx;

const CONNECTED_ORIGINS = ['registered', 'metadata'] as const;

/**
 * Apps people connect at an API, registered and metadata-document apps alike: both count toward
 * spec 8's 1000 (issue 26: metadata documents made rows past the cap).
 */
export async function countConnected(trx: Trx, apiId: string): Promise<number> {
  const row = await trx.selectFrom('oauth_apps').select((eb) => eb.fn.countAll<string>().as('n')).where('api_id', '=', apiId).where('origin', 'in', CONNECTED_ORIGINS).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The app people connect that a new one may replace (spec 4.3): the one unused longest that
 * nobody connected (no consent, no grant), registered or named by a metadata document. Blocked
 * apps are kept, like the cleanup job keeps them.
 */
export function replaceableConnected(trx: Trx, apiId: string) {
  return trx
    .selectFrom('oauth_apps as a')
    .select('a.id')
    .where('a.api_id', '=', apiId)
    .where('a.origin', 'in', CONNECTED_ORIGINS)
    .where('a.blocked', '=', false)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('consents as c').select('c.client_id').whereRef('c.api_id', '=', 'a.api_id').whereRef('c.client_id', '=', 'a.id'))))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('token_grants as g').select('g.id').whereRef('g.api_id', '=', 'a.api_id').whereRef('g.client_id', '=', 'a.id'))))
    .orderBy(sql`coalesce(a.last_used_at, a.created_at)`)
    .orderBy('a.id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Under the API's writers' lock: whether one more app people connect fits (spec 8's 1000),
 * replacing the replaceable one when the service is full; false when none can go.
 */
export async function makeRoomForConnectedApp(trx: Trx, apiId: string): Promise<boolean> {
  if ((await countConnected(trx, apiId)) < MAX_CONNECTED_APPS) return true;
  const replaceable = await replaceableConnected(trx, apiId);
  if (!replaceable) return false;
  await deleteConnectedApp(trx, apiId, replaceable.id);
  return true;
}

export async function connectedAppExists(trx: Trx, apiId: string, clientId: string): Promise<boolean> {
  return (await trx.selectFrom('oauth_apps').select('id').where('api_id', '=', apiId).where('id', '=', clientId).executeTakeFirst()) !== undefined;
}

export async function deleteConnectedApp(trx: Executor, apiId: string, clientId: string) {
  await trx.deleteFrom('oauth_apps').where('api_id', '=', apiId).where('id', '=', clientId).where('origin', 'in', CONNECTED_ORIGINS).execute();
  await notifyChange(trx, [changed.client(apiId, clientId)]);
}

export function insertConnectedApp(trx: Trx, row: Insertable<OauthAppsTable>) {
  return trx.insertInto('oauth_apps').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Keeps what a metadata document says on its app's row, made on first sight. The owner's block,
 * the creation time and the last use stay as they are.
 */
export async function saveMetadataApp(db: Executor, row: Insertable<OauthAppsTable> & { metadata_expires_at: Date }) {
  const saved = await db
    .insertInto('oauth_apps')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['api_id', 'id']).doUpdateSet({
        name: row.name,
        kind: row.kind,
        redirect_uris: row.redirect_uris,
        refresh_tokens: row.refresh_tokens,
        metadata_expires_at: row.metadata_expires_at,
        updated_at: row.updated_at,
      }).where('oauth_apps.origin', '=', 'metadata'),
    )
    .returningAll()
    .executeTakeFirst();
  await notifyChange(db, [changed.client(row.api_id, row.id)]);
  return saved;
}

/** Writes an app's last use; a no-op statement is never sent for a use within the hour. */
export async function markUsed(db: Executor, apiId: string, clientId: string, at: Date) {
  // No notification: when an app was last used decides nothing a cache answers (client-directory.ts).
  await db.updateTable('oauth_apps').set({ last_used_at: at }).where('api_id', '=', apiId).where('id', '=', clientId).execute();
}

// ---- The console's list, block and unblock.

/** How many people connected an app: distinct people with a consent remembered for it. */
const peopleConnected = (eb: ExpressionBuilder<Database & { a: OauthAppsTable }, 'a'>) =>
  eb
    .selectFrom('consents as c')
    .select((sub) => sub.fn.count<string>('c.person_id').distinct().as('n'))
    .whereRef('c.api_id', '=', 'a.api_id')
    .whereRef('c.client_id', '=', 'a.id')
    .as('people');

export interface ConnectedPageOptions {
  before: { at: Date; id: string } | null;
  limit: number;
}

/** Newest first, keyed on (created_at, id), with the number of people who connected each. */
export function connectedAppPage(db: Executor, apiId: string, options: ConnectedPageOptions) {
  let query = db
    .selectFrom('oauth_apps as a')
    .selectAll('a')
    .select(peopleConnected)
    .where('a.api_id', '=', apiId)
    .where('a.origin', 'in', CONNECTED_ORIGINS);
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('a.created_at', '<', at), eb.and([eb('a.created_at', '=', at), eb('a.id', '<', id)])]));
  }
  return query.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(options.limit).execute();
}

export function findConnectedApp(db: Executor, apiId: string, clientId: string) {
  return db
    .selectFrom('oauth_apps as a')
    .selectAll('a')
    .select(peopleConnected)
    .where('a.api_id', '=', apiId)
    .where('a.id', '=', clientId)
    .where('a.origin', 'in', CONNECTED_ORIGINS)
    .executeTakeFirst();
}

export async function setBlocked(trx: Trx, apiId: string, clientId: string, blocked: boolean, at: Date) {
  await trx.updateTable('oauth_apps').set({ blocked, updated_at: at }).where('api_id', '=', apiId).where('id', '=', clientId).execute();
  await notifyChange(trx, [changed.client(apiId, clientId)]);
}

/** Revokes every live grant of an app: its tokens answer inactive, its refresh tokens stop working. */
export async function revokeGrantsOf(trx: Trx, apiId: string, clientId: string, at: Date): Promise<number> {
  const result = await trx.updateTable('token_grants').set({ revoked_at: at }).where('api_id', '=', apiId).where('client_id', '=', clientId).where('revoked_at', 'is', null).executeTakeFirst();
  await notifyChange(trx, [changed.client(apiId, clientId)]);
  return Number(result.numUpdatedRows);
}

// ---- The cleanup job (spec 4.3: removed after 30 days without use).

/**
 * Deletes apps people connect unused since `before` (never used: made before it), except blocked
 * ones and those a person still holds a working refresh token of (unused, unexpired, its grant
 * not revoked). Their grants, codes, refresh tokens and consents go with them (foreign keys).
 */
export async function deleteUnusedConnectedApps(db: Executor, before: Date, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('oauth_apps as a')
    .where('a.origin', 'in', CONNECTED_ORIGINS)
    .where('a.blocked', '=', false)
    .where(sql<boolean>`coalesce(a.last_used_at, a.created_at) < ${before}`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('token_grants as g')
            .innerJoin('refresh_tokens as r', 'r.grant_id', 'g.id')
            .select('g.id')
            .whereRef('g.api_id', '=', 'a.api_id')
            .whereRef('g.client_id', '=', 'a.id')
            .where('g.revoked_at', 'is', null)
            .where('r.used_at', 'is', null)
            .where('r.expires_at', '>', now),
        ),
      ),
    )
    .returning(['a.api_id', 'a.id'])
    .execute();
  await notifyChange(db, result.map((row) => changed.client(row.api_id, row.id)));
  return result.length;
}
