import type { Insertable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { AuthorizationCodesTable, RefreshTokensTable, TokenGrantsTable } from './tables.js';

type Executor = Db | Trx;

export async function insertPushedAuthorization(db: Executor, row: { request_uri_hash: string; api_id: string; client_id: string; params: Record<string, string>; expires_at: Date }) {
  await db.insertInto('pushed_authorizations').values({ ...row, params: JSON.stringify(row.params) }).execute();
}

/** Takes a pushed request once: a second use, another client or an expired one finds nothing. */
export function takePushedAuthorization(db: Executor, apiId: string, requestUriHash: string, clientId: string, now: Date) {
  return db
    .updateTable('pushed_authorizations')
    .set({ used_at: now })
    .where('api_id', '=', apiId)
    .where('request_uri_hash', '=', requestUriHash)
    .where('client_id', '=', clientId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('params')
    .executeTakeFirst();
}

export async function insertInteraction(db: Executor, row: { token_hash: string; api_id: string; request: unknown; created_at: Date; expires_at: Date }) {
  await db.insertInto('authorization_interactions').values({ ...row, request: JSON.stringify(row.request) }).execute();
}

export function findOpenInteraction(db: Executor, apiId: string, tokenHash: string, now: Date) {
  return db
    .selectFrom('authorization_interactions')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('token_hash', '=', tokenHash)
    .where('completed_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function updateInteractionResult(db: Executor, apiId: string, tokenHash: string, result: unknown) {
  await db.updateTable('authorization_interactions').set({ result: JSON.stringify(result) }).where('api_id', '=', apiId).where('token_hash', '=', tokenHash).execute();
}

/** Completes an interaction once; false when another request completed it first. */
export async function completeInteraction(db: Executor, apiId: string, tokenHash: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('authorization_interactions')
    .set({ completed_at: now })
    .where('api_id', '=', apiId)
    .where('token_hash', '=', tokenHash)
    .where('completed_at', 'is', null)
    .returning('token_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertGrant(db: Executor, row: Insertable<TokenGrantsTable>) {
  await db.insertInto('token_grants').values(row).execute();
}

export async function insertCode(db: Executor, row: Insertable<AuthorizationCodesTable>) {
  await db.insertInto('authorization_codes').values(row).execute();
}

/**
 * Marks a code used and answers it with its grant; undefined when unknown or already used. One
 * statement, atomic on its own: of two concurrent takes, the second waits for the first's row lock,
 * re-checks `used_at is null` and finds nothing, so no transaction (and no BEGIN/COMMIT) is needed.
 */
export function takeCode(db: Executor, apiId: string, codeHash: string, clientId: string, now: Date) {
  return db
    .updateTable('authorization_codes')
    .set({ used_at: now })
    .where('api_id', '=', apiId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    // Only the client it was issued to spends a code: another client's try leaves it usable.
    .where('grant_id', 'in', (eb) => eb.selectFrom('token_grants').select('id').where('api_id', '=', apiId).where('client_id', '=', clientId))
    .returningAll()
    .executeTakeFirst();
}

export function findCode(db: Executor, apiId: string, codeHash: string) {
  return db.selectFrom('authorization_codes').selectAll().where('api_id', '=', apiId).where('code_hash', '=', codeHash).executeTakeFirst();
}

export function findGrant(db: Executor, apiId: string, grantId: string) {
  return db.selectFrom('token_grants').selectAll().where('api_id', '=', apiId).where('id', '=', grantId).executeTakeFirst();
}

export async function revokeGrant(db: Executor, apiId: string, grantId: string, now: Date) {
  await db.updateTable('token_grants').set({ revoked_at: now }).where('api_id', '=', apiId).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
}

export async function insertRefreshToken(db: Executor, row: Insertable<RefreshTokensTable>) {
  await db.insertInto('refresh_tokens').values(row).execute();
}

/** Marks a refresh token used (it rotates on every use); undefined when unknown or already used. One atomic statement, as takeCode. */
export function takeRefreshToken(db: Executor, apiId: string, tokenHash: string, clientId: string, now: Date) {
  return db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('api_id', '=', apiId)
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('grant_id', 'in', (eb) => eb.selectFrom('token_grants').select('id').where('api_id', '=', apiId).where('client_id', '=', clientId))
    .returningAll()
    .executeTakeFirst();
}

export function findRefreshToken(db: Executor, apiId: string, tokenHash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('api_id', '=', apiId).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/**
 * What introspection and userinfo need to judge a grant in one round trip: whether it is revoked,
 * whether its person is suspended, and whether its session has ended.
 */
export function grantState(db: Executor, apiId: string, grantId: string) {
  return db
    .selectFrom('token_grants')
    .innerJoin('people', 'people.id', 'token_grants.person_id')
    .leftJoin('person_sessions', 'person_sessions.id', 'token_grants.session_id')
    .select([
      'token_grants.id',
      'token_grants.client_id',
      'token_grants.person_id',
      'token_grants.scopes',
      'token_grants.resource',
      'token_grants.offline',
      'token_grants.revoked_at',
      'token_grants.created_at',
      'people.status as person_status',
      'person_sessions.ended_at as session_ended_at',
      'person_sessions.expires_at as session_expires_at',
    ])
    .where('token_grants.api_id', '=', apiId)
    .where('token_grants.id', '=', grantId)
    .executeTakeFirst();
}
