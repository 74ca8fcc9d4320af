import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { CodePurpose, EmailCodesTable, SessionsTable, UsersTable } from './tables.js';

type Executor = Db | Trx;

export function findUserByEmail(db: Executor, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Executor, id: string) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(trx: Trx, row: Insertable<UsersTable>) {
  await trx.insertInto('users').values(row).execute();
}

export async function updateUser(trx: Executor, id: string, changes: Updateable<UsersTable>) {
  return trx.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Records an authenticator time step as spent, only if it is newer than the last one spent.
 * The condition sits in the update itself: two requests racing with one code each read the old
 * step, and only the first to write may win (RFC 6238 section 5.2: a code is accepted once).
 */
export function claimTotpStep(trx: Trx, userId: string, step: number) {
  return trx
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
}

export async function insertEmailCode(trx: Trx, row: Insertable<EmailCodesTable>) {
  await trx.insertInto('email_codes').values(row).execute();
}

/** The newest code for an address: a new code supersedes the ones before it. */
export function latestEmailCode(trx: Trx, purpose: CodePurpose, email: string) {
  return trx
    .selectFrom('email_codes')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('email', '=', email)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

export async function countCodeAttempt(trx: Trx, id: string) {
  await trx.updateTable('email_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', id).execute();
}

export async function consumeEmailCode(trx: Trx, id: string, at: Date) {
  await trx.updateTable('email_codes').set({ consumed_at: at }).where('id', '=', id).execute();
}

export async function insertTicket(trx: Trx, row: { id: string; purpose: CodePurpose; email: string; token_hash: string; expires_at: Date; created_at: Date }) {
  await trx.insertInto('tickets').values({ ...row, used_at: null }).execute();
}

/** Marks a ticket used if it is still valid; the update is the single-use guarantee. */
export function useTicket(trx: Trx, purpose: CodePurpose, tokenHash: string, now: Date) {
  return trx
    .updateTable('tickets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['email'])
    .executeTakeFirst();
}

export async function insertSession(trx: Trx, row: Insertable<SessionsTable>) {
  await trx.insertInto('sessions').values(row).execute();
}

export function findSessionByHash(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.workspace_id',
      'sessions.last_seen_at',
      'users.id',
      'users.email',
      'users.name',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

export async function touchSession(db: Db, sessionId: string, at: Date) {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', sessionId).execute();
}

export async function setSessionWorkspace(db: Executor, sessionId: string, workspaceId: string | null) {
  await db.updateTable('sessions').set({ workspace_id: workspaceId }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Executor, sessionId: string) {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of a person except `keep` (null ends all). */
export async function deleteSessionsOfUser(trx: Executor, userId: string, keep: string | null) {
  let query = trx.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) query = query.where('id', '!=', keep);
  await query.execute();
}

export async function insertChallenge(trx: Trx, row: { id: string; user_id: string; token_hash: string; expires_at: Date; created_at: Date }) {
  await trx.insertInto('login_challenges').values({ ...row, used_at: null }).execute();
}

export function findChallenge(trx: Trx, tokenHash: string) {
  return trx.selectFrom('login_challenges').selectAll().where('token_hash', '=', tokenHash).forUpdate().executeTakeFirst();
}

export async function countChallengeAttempt(trx: Trx, id: string) {
  await trx.updateTable('login_challenges').set({ attempts: sql`attempts + 1` }).where('id', '=', id).execute();
}

export async function useChallenge(trx: Trx, id: string, at: Date) {
  await trx.updateTable('login_challenges').set({ used_at: at }).where('id', '=', id).execute();
}

export async function replaceRecoveryCodes(trx: Trx, userId: string, rows: { id: string; code_hash: string }[]) {
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  if (rows.length) {
    await trx.insertInto('recovery_codes').values(rows.map((r) => ({ ...r, user_id: userId, used_at: null }))).execute();
  }
}

/** Spends a recovery code once: the update only matches an unused code. */
export function useRecoveryCode(trx: Trx, userId: string, codeHash: string, at: Date) {
  return trx
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}
