import type { Insertable } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { PeopleTable, PersonSessionsTable } from './tables.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';

type Executor = Db | Trx;

export function findPerson(db: Executor, apiId: string, personId: string) {
  return db.selectFrom('people').selectAll().where('api_id', '=', apiId).where('id', '=', personId).executeTakeFirst();
}

export function findPersonByEmail(db: Executor, apiId: string, email: string) {
  return db.selectFrom('people').selectAll().where('api_id', '=', apiId).where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export function insertPerson(db: Executor, row: Insertable<PeopleTable>) {
  return db.insertInto('people').values(row).returningAll().executeTakeFirstOrThrow();
}

export function insertSession(db: Executor, row: Insertable<PersonSessionsTable>) {
  return db.insertInto('person_sessions').values(row).execute();
}

const liveSessions = (db: Executor, apiId: string, now: Date) =>
  db
    .selectFrom('person_sessions')
    .innerJoin('people', 'people.id', 'person_sessions.person_id')
    .select([
      'person_sessions.id as session_id',
      'person_sessions.auth_time',
      'person_sessions.amr',
      'person_sessions.expires_at',
      'people.id as person_id',
      'people.email',
      'people.name',
      'people.status',
    ])
    .where('person_sessions.api_id', '=', apiId)
    .where('person_sessions.ended_at', 'is', null)
    .where('person_sessions.expires_at', '>', now);

/** A live session with its person, found by its id (the `sid` of the tokens it issued). */
export function findLiveSessionById(db: Executor, apiId: string, sessionId: string, now: Date) {
  return liveSessions(db, apiId, now).where('person_sessions.id', '=', sessionId).executeTakeFirst();
}

/** A live session with its person, found by the hash of the cookie's token. */
export function findLiveSession(db: Executor, apiId: string, tokenHash: string, now: Date) {
  return liveSessions(db, apiId, now).where('person_sessions.token_hash', '=', tokenHash).executeTakeFirst();
}

export function findSessionById(db: Executor, apiId: string, sessionId: string) {
  return db.selectFrom('person_sessions').selectAll().where('api_id', '=', apiId).where('id', '=', sessionId).executeTakeFirst();
}

export async function endSession(db: Executor, apiId: string, sessionId: string, at: Date) {
  await db.updateTable('person_sessions').set({ ended_at: at }).where('api_id', '=', apiId).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
  await notifyChange(db, [changed.session(sessionId)]);
}

/** Whether the person ever consented to the app, for any server: its redirect URI is then one they chose. */
export async function hasConsentedTo(db: Executor, apiId: string, personId: string, clientId: string): Promise<boolean> {
  const row = await db.selectFrom('consents').select('client_id').where('api_id', '=', apiId).where('person_id', '=', personId).where('client_id', '=', clientId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export function findConsent(db: Executor, apiId: string, personId: string, clientId: string, resource: string) {
  return db
    .selectFrom('consents')
    .select('scopes')
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('client_id', '=', clientId)
    .where('resource', '=', resource)
    .executeTakeFirst();
}

/** Remembers what a person granted an app for one resource, adding to what they granted before. */
export async function saveConsent(db: Executor, row: { api_id: string; person_id: string; client_id: string; resource: string; scopes: string[]; updated_at: Date }) {
  const existing = await findConsent(db, row.api_id, row.person_id, row.client_id, row.resource);
  const scopes = [...new Set([...(existing?.scopes ?? []), ...row.scopes])];
  await db
    .insertInto('consents')
    .values({ ...row, scopes })
    .onConflict((oc) => oc.columns(['person_id', 'client_id', 'resource']).doUpdateSet({ scopes, updated_at: row.updated_at }))
    .execute();
}
