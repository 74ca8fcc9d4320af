import { sql, type ExpressionBuilder, type Insertable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { AuthorizationCodesTable, RefreshTokensTable, TokenGrantsTable } from './tables.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';
import { runTemplated } from '../../platform/db/templated.js';

type Executor = Db | Trx;

/**
 * The issuer a request reached, as grants are matched against it: a grant is spent only at the
 * issuer it was made at. Grants from before issuers were recorded (null) were all made at the
 * portal host, so only the portal host (`legacy`) accepts them.
 */
export interface IssuerMatch {
  issuer: string;
  legacy: boolean;
}

/** Whether a grant recorded with `grantIssuer` belongs to the issuer a request reached. */
export function issuedAt(grantIssuer: string | null, at: IssuerMatch): boolean {
  return grantIssuer === null ? at.legacy : grantIssuer === at.issuer;
}

function sameIssuer(legacy: boolean, issuer: string) {
  return (eb: ExpressionBuilder<any, any>) =>
    legacy ? eb.or([eb('g.issuer', '=', issuer), eb('g.issuer', 'is', null)]) : eb('g.issuer', '=', issuer);
}

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

export async function insertInteraction(db: Executor, row: { token_hash: string; api_id: string; request: unknown; result?: unknown; created_at: Date; expires_at: Date }) {
  await db.insertInto('authorization_interactions').values({ ...row, request: JSON.stringify(row.request), result: JSON.stringify(row.result ?? {}) }).execute();
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

// What the token endpoint needs of a grant and its person, read in the statement that spends the
// code or refresh token: one round trip instead of three.
const GRANT_AND_PERSON = [
  'g.id as grant_id', 'g.client_id', 'g.person_id', 'g.session_id', 'g.scopes', 'g.resource', 'g.offline', 'g.auth_time', 'g.amr', 'g.revoked_at',
  'p.status as person_status', 'p.email', 'p.email_verified', 'p.name', 'p.picture', 'p.updated_at as person_updated_at',
] as const;

/*
 * GRANT_BY_KEY: the spending statements name their grant twice, by the join and by a sub-select of
 * the spent row's grant_id (an init plan, run once), so the grant is read by its primary key
 * whatever plan PostgreSQL picks. Prepared once per connection (named-statements.ts), they run
 * on a generic plan after five executions; with the join alone, that plan started from the
 * person (`people` where status = $6, one row in a small tenant), read every grant of that person
 * and probed the code for each: a code exchange cost 7 ms of PostgreSQL CPU at 2,500 grants of one
 * person and grew with every sign-in (bench/issuer: 473 falling to 153 exchanges a second over five
 * rounds).
 */

/**
 * The refresh token a spending statement also writes, in the same round trip, when what the
 * caller checks after it will pass: `when` holds the request's values those checks compare.
 */
export interface MintedRefresh {
  tokenHash: string;
  expiresAt: Date;
  when: { redirectUri?: string; codeChallenge?: string | null; resource: string | null };
}

/**
 * Marks a code used and answers it with its grant and person; undefined when unknown, already
 * used, issued to another client (whose try leaves it usable), or its person is not active (the
 * refusal is not the client's fault, so the code stays usable for a retry once they are). One
 * statement, atomic on its own: of two concurrent takes, the second waits for the first's row
 * lock, re-checks `used_at is null` and finds nothing, so no transaction (and no BEGIN/COMMIT) is
 * needed. With `mint`, the same statement (a CTE) writes the grant's next refresh token when the
 * exchange will succeed: unexpired, not revoked, offline, the redirect URI, PKCE and resource
 * matching. `minted` says whether it did.
 */
export async function takeCode(db: Executor, apiId: string, codeHash: string, clientId: string, at: IssuerMatch, now: Date, mint: MintedRefresh | null = null) {
  // Compiled once per form (templated.ts): the arguments below go where build() uses them.
  const args: unknown[] = [apiId, codeHash, clientId, at.issuer, now];
  if (mint) args.push(mint.tokenHash, mint.expiresAt, mint.when.redirectUri ?? '', mint.when.codeChallenge ?? '');
  if (mint && mint.when.resource !== null) args.push(mint.when.resource);
  const shape = `takeCode ${at.legacy ? 'legacy' : 'issuer'} ${!mint ? 'plain' : mint.when.resource === null ? 'mint' : 'mint resource'}`;
  const take = (arg: (index: number) => never) =>
    db
      .updateTable('authorization_codes as c')
      .from(['token_grants as g', 'people as p'])
      .set({ used_at: arg(4) })
      .whereRef('g.id', '=', 'c.grant_id')
      // The grant by its key, read once: see GRANT_BY_KEY.
      .where('g.id', '=', (eb) => eb.selectFrom('authorization_codes as k').select('k.grant_id').where('k.code_hash', '=', arg(1)).where('k.api_id', '=', arg(0)))
      .whereRef('p.id', '=', 'g.person_id')
      .where('c.api_id', '=', arg(0))
      .where('c.code_hash', '=', arg(1))
      .where('c.used_at', 'is', null)
      .where('g.client_id', '=', arg(2))
      .where(sameIssuer(at.legacy, arg(3)))
      .where('p.status', '=', 'active')
      .returning(['c.expires_at', 'c.redirect_uri', 'c.code_challenge', 'c.nonce', ...GRANT_AND_PERSON]);
  if (!mint) return withMinted((await runTemplated(db, shape, args, take))[0], false);
  const [row] = await runTemplated(db, shape, args, (arg) =>
    db
      .with('taken', () => take(arg))
      .with('minted', (w) =>
        w
          .insertInto('refresh_tokens')
          .columns(['token_hash', 'api_id', 'grant_id', 'created_at', 'expires_at'])
          .expression((eb) =>
            eb
              .selectFrom('taken')
              .select([sql<string>`${arg(5)}::text`.as('token_hash'), sql<string>`${arg(0)}::text`.as('api_id'), 'taken.grant_id', sql<Date>`${arg(4)}::timestamptz`.as('created_at'), sql<Date>`${arg(6)}::timestamptz`.as('expires_at')])
              .where('taken.offline', '=', true)
              .where('taken.revoked_at', 'is', null)
              .where('taken.expires_at', '>', arg(4))
              .where('taken.redirect_uri', '=', arg(7))
              .where('taken.code_challenge', '=', arg(8))
              .where((w2) => (mint.when.resource === null ? w2.lit(true) : w2('taken.resource', '=', arg(9)))),
          )
          .returning('grant_id'),
      )
      .selectFrom('taken')
      .selectAll('taken')
      .select(sql<boolean>`exists (select 1 from minted)`.as('minted')),
  );
  return row;
}

function withMinted<T extends object>(row: T | undefined, minted: boolean) {
  return row ? { ...row, minted } : undefined;
}

/** Why a code was not taken: whether it was used, whose client it is and whether its person is active. */
export function codeStanding(db: Executor, apiId: string, codeHash: string): Promise<UnspentStanding | undefined> {
  return db
    .selectFrom('authorization_codes as c')
    .innerJoin('token_grants as g', 'g.id', 'c.grant_id')
    .innerJoin('people as p', 'p.id', 'g.person_id')
    .select(['c.used_at', 'c.grant_id', 'g.client_id', 'p.status as person_status'])
    .where('c.api_id', '=', apiId)
    .where('c.code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** What decides the refusal of a code or refresh token that was not taken. */
export interface UnspentStanding {
  used_at: Date | null;
  grant_id: string;
  client_id: string;
  person_status: string;
}

export async function revokeGrant(db: Executor, apiId: string, grantId: string, now: Date) {
  await db.updateTable('token_grants').set({ revoked_at: now }).where('api_id', '=', apiId).where('id', '=', grantId).where('revoked_at', 'is', null).execute();
  await notifyChange(db, [changed.grant(grantId)]);
}

export async function insertRefreshToken(db: Executor, row: Insertable<RefreshTokensTable>) {
  await db.insertInto('refresh_tokens').values(row).execute();
}

/**
 * Marks a refresh token used (it rotates on every use) and answers it with its grant and person,
 * as takeCode does; a token whose person is not active is left unspent, so the app's retry after
 * a reactivation is not taken for a replay. With `mint`, the same statement writes the next
 * refresh token when the refresh will succeed (unexpired, not revoked, offline, resource matching).
 */
export async function takeRefreshToken(db: Executor, apiId: string, tokenHash: string, clientId: string, at: IssuerMatch, now: Date, mint: MintedRefresh | null = null) {
  // As takeCode: compiled once per form.
  const args: unknown[] = [apiId, tokenHash, clientId, at.issuer, now];
  if (mint) args.push(mint.tokenHash, mint.expiresAt);
  if (mint && mint.when.resource !== null) args.push(mint.when.resource);
  const shape = `takeRefreshToken ${at.legacy ? 'legacy' : 'issuer'} ${!mint ? 'plain' : mint.when.resource === null ? 'mint' : 'mint resource'}`;
  const take = (arg: (index: number) => never) =>
    db
      .updateTable('refresh_tokens as r')
      .from(['token_grants as g', 'people as p'])
      .set({ used_at: arg(4) })
      .whereRef('g.id', '=', 'r.grant_id')
      // The grant by its key, read once: see GRANT_BY_KEY.
      .where('g.id', '=', (eb) => eb.selectFrom('refresh_tokens as k').select('k.grant_id').where('k.token_hash', '=', arg(1)).where('k.api_id', '=', arg(0)))
      .whereRef('p.id', '=', 'g.person_id')
      .where('r.api_id', '=', arg(0))
      .where('r.token_hash', '=', arg(1))
      .where('r.used_at', 'is', null)
      .where('g.client_id', '=', arg(2))
      .where(sameIssuer(at.legacy, arg(3)))
      .where('p.status', '=', 'active')
      .returning(['r.expires_at', ...GRANT_AND_PERSON]);
  if (!mint) return withMinted((await runTemplated(db, shape, args, take))[0], false);
  const [row] = await runTemplated(db, shape, args, (arg) =>
    db
      .with('taken', () => take(arg))
      .with('minted', (w) =>
        w
          .insertInto('refresh_tokens')
          .columns(['token_hash', 'api_id', 'grant_id', 'created_at', 'expires_at'])
          .expression((eb) =>
            eb
              .selectFrom('taken')
              .select([sql<string>`${arg(5)}::text`.as('token_hash'), sql<string>`${arg(0)}::text`.as('api_id'), 'taken.grant_id', sql<Date>`${arg(4)}::timestamptz`.as('created_at'), sql<Date>`${arg(6)}::timestamptz`.as('expires_at')])
              .where('taken.offline', '=', true)
              .where('taken.revoked_at', 'is', null)
              .where('taken.expires_at', '>', arg(4))
              .where((w2) => (mint.when.resource === null ? w2.lit(true) : w2('taken.resource', '=', arg(7)))),
          )
          .returning('grant_id'),
      )
      .selectFrom('taken')
      .selectAll('taken')
      .select(sql<boolean>`exists (select 1 from minted)`.as('minted')),
  );
  return row;
}

/** A grant and its person as the spending statements answer them. */
export type TakenGrant = Omit<NonNullable<Awaited<ReturnType<typeof takeRefreshToken>>>, 'expires_at' | 'minted'>;

/** Why a refresh token was not taken, as codeStanding. */
export function refreshTokenStanding(db: Executor, apiId: string, tokenHash: string): Promise<UnspentStanding | undefined> {
  return db
    .selectFrom('refresh_tokens as r')
    .innerJoin('token_grants as g', 'g.id', 'r.grant_id')
    .innerJoin('people as p', 'p.id', 'g.person_id')
    .select(['r.used_at', 'r.grant_id', 'g.client_id', 'p.status as person_status'])
    .where('r.api_id', '=', apiId)
    .where('r.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * What introspection and userinfo need to judge a grant in one round trip: whether it is revoked,
 * whether its person is suspended, and whether its session has ended.
 */
export function grantState(db: Executor, apiId: string, grantId: string) {
  return grantStateQuery(db, apiId).where('token_grants.id', '=', grantId).executeTakeFirst();
}

/** A refresh token with its grant's state, in one round trip (introspection of a refresh token). */
export async function refreshTokenState(db: Executor, apiId: string, tokenHash: string) {
  const [row] = await runTemplated(db, 'refreshTokenState', [apiId, tokenHash], (arg) =>
    grantStateQuery(db, arg(0))
      .innerJoin('refresh_tokens', 'refresh_tokens.grant_id', 'token_grants.id')
      .select(['refresh_tokens.created_at as token_created_at', 'refresh_tokens.expires_at as token_expires_at', 'refresh_tokens.used_at as token_used_at'])
      .where('refresh_tokens.api_id', '=', arg(0))
      .where('refresh_tokens.token_hash', '=', arg(1)),
  );
  return row;
}

/**
 * A refresh token's own row (introspection): its grant's state comes from the node's cache of
 * grant states (cached-reads.ts), which every change of a grant, person or session invalidates,
 * so a warm node reads one row by its key instead of joining four tables (issue 28).
 */
export async function refreshTokenRow(db: Executor, apiId: string, tokenHash: string) {
  const [row] = await runTemplated(db, 'refreshTokenRow', [apiId, tokenHash], (arg) =>
    db.selectFrom('refresh_tokens').select(['grant_id', 'created_at', 'expires_at', 'used_at']).where('api_id', '=', arg(0)).where('token_hash', '=', arg(1)),
  );
  return row;
}

function grantStateQuery(db: Executor, apiId: string) {
  return db
    .selectFrom('token_grants')
    .innerJoin('people', 'people.id', 'token_grants.person_id')
    .leftJoin('person_sessions', 'person_sessions.id', 'token_grants.session_id')
    .select([
      'token_grants.id',
      'token_grants.client_id',
      'token_grants.person_id',
      'token_grants.session_id',
      'token_grants.scopes',
      'token_grants.resource',
      'token_grants.offline',
      'token_grants.revoked_at',
      'token_grants.created_at',
      'token_grants.issuer',
      'people.status as person_status',
      'person_sessions.ended_at as session_ended_at',
      'person_sessions.expires_at as session_expires_at',
    ])
    .where('token_grants.api_id', '=', apiId);
}
