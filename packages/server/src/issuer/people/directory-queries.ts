// The owner console's reads and changes of the people of an API's sign-in service. Every query
// takes the API id; none selects a password hash.
import type { Db, Trx } from '../../platform/db/database.js';
import type { PersonStatus } from './tables.js';
import { changed, notifyChange } from '../../platform/db/change-feed.js';

type Executor = Db | Trx;

const PERSON_COLUMNS = ['id', 'email', 'name', 'email_verified', 'status', 'created_at', 'last_login_at'] as const;

export interface PersonPageOptions {
  before: { at: Date; id: string } | null;
  status: PersonStatus | null;
  search: string | null;
  limit: number;
}

/** Newest first, keyed on (created_at, id) like the customer list. */
export function personPage(db: Executor, apiId: string, options: PersonPageOptions) {
  let query = db.selectFrom('people').select(PERSON_COLUMNS).where('api_id', '=', apiId);
  if (options.status) query = query.where('status', '=', options.status);
  if (options.search) {
    const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern)]));
  }
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

export function findListedPerson(db: Executor, apiId: string, personId: string) {
  return db.selectFrom('people').select(PERSON_COLUMNS).where('api_id', '=', apiId).where('id', '=', personId).executeTakeFirst();
}

/** The roles each of these people holds, by role name. */
export async function rolesOfPeople(db: Executor, apiId: string, personIds: string[]) {
  if (personIds.length === 0) return [];
  return db
    .selectFrom('person_roles')
    .innerJoin('signin_roles', 'signin_roles.id', 'person_roles.role_id')
    .select(['person_roles.person_id', 'signin_roles.id', 'signin_roles.name'])
    .where('signin_roles.api_id', '=', apiId)
    .where('person_roles.person_id', 'in', personIds)
    .orderBy('signin_roles.name')
    .orderBy('signin_roles.id')
    .execute();
}

export async function setPersonStatus(trx: Trx, apiId: string, personId: string, status: PersonStatus, at: Date) {
  await trx.updateTable('people').set({ status, updated_at: at }).where('api_id', '=', apiId).where('id', '=', personId).execute();
  await notifyChange(trx, [changed.person(personId)]);
}

/** Ends every live session of a person; the number ended. */
export async function endLiveSessions(trx: Trx, apiId: string, personId: string, at: Date): Promise<number> {
  const result = await trx
    .updateTable('person_sessions')
    .set({ ended_at: at })
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  await notifyChange(trx, [changed.person(personId)]);
  return Number(result.numUpdatedRows);
}

/** Which of these role ids are roles of this API. */
export async function rolesOfApi(db: Executor, apiId: string, roleIds: string[]): Promise<Set<string>> {
  if (roleIds.length === 0) return new Set();
  const rows = await db.selectFrom('signin_roles').select('id').where('api_id', '=', apiId).where('id', 'in', roleIds).execute();
  return new Set(rows.map((r) => r.id));
}

/** Sets a person's roles to exactly `roleIds` (checked to be the API's by the caller). */
export async function replacePersonRoles(trx: Trx, personId: string, roleIds: string[]) {
  await trx.deleteFrom('person_roles').where('person_id', '=', personId).execute();
  if (roleIds.length === 0) return;
  await trx.insertInto('person_roles').values(roleIds.map((roleId) => ({ person_id: personId, role_id: roleId }))).execute();
}

/** Live sessions of a person (not ended, not expired), newest first, at most `limit`. */
export function liveSessionsOf(db: Executor, apiId: string, personId: string, now: Date, limit: number) {
  return db
    .selectFrom('person_sessions')
    .select(['id', 'auth_time', 'amr', 'created_at', 'expires_at'])
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Ends one live session of a person; answers whether it was live. */
export async function endLiveSession(trx: Trx, apiId: string, personId: string, sessionId: string, at: Date): Promise<boolean> {
  const result = await trx
    .updateTable('person_sessions')
    .set({ ended_at: at })
    .where('api_id', '=', apiId)
    .where('person_id', '=', personId)
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  const ended = Number(result.numUpdatedRows) > 0;
  if (ended) await notifyChange(trx, [changed.session(sessionId)]);
  return ended;
}
