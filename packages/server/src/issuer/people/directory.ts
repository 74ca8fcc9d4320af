import type { ApiService } from '../../apis/service.js';
import type { AuditService } from '../../audit/service.js';
import { actorOf, type Caller } from '../../console/caller.js';
import type { Clock } from '../../platform/clock.js';
import { decodeCursor, pageOf } from '../../platform/cursor.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { fail, ok, Problem, validationProblem, type Result } from '../../platform/errors.js';
import * as q from './directory-queries.js';
import type { PersonStatus } from './tables.js';

/** Sessions a person's list shows; more live at once is a sign of a script, not a person. */
export const MAX_LISTED_SESSIONS = 100;

type ListedPerson = NonNullable<Awaited<ReturnType<typeof q.findListedPerson>>>;
type RoleRow = Awaited<ReturnType<typeof q.rolesOfPeople>>[number];
export type PersonOut = ReturnType<typeof toPersonOut>;

function toPersonOut(person: ListedPerson, roles: RoleRow[]) {
  return {
    id: person.id,
    email: person.email,
    name: person.name,
    email_verified: person.email_verified,
    status: person.status,
    roles: roles.filter((r) => r.person_id === person.id).map((r) => ({ id: r.id, name: r.name })),
    created_at: person.created_at.toISOString(),
    ...(person.last_login_at ? { last_login_at: person.last_login_at.toISOString() } : {}),
  };
}

/**
 * The people who signed in at an API's sign-in service, as its owner sees them (DESIGN 8): listed,
 * suspended or reactivated, given roles. A suspended person's sessions end at once; their access
 * tokens and keys answer inactive at introspection while the suspension lasts (spec 3).
 */
export class PeopleDirectory {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
  ) {}

  async list(caller: Caller, apiId: string, options: { cursor?: string; limit: number; status?: PersonStatus; q?: string }) {
    await this.apis.access(caller, apiId, 'viewer');
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) throw validationProblem('query.cursor', 'not a cursor this API gave', options.cursor);
    const rows = await q.personPage(this.db, apiId, { before, status: options.status ?? null, search: options.q?.trim() || null, limit: options.limit + 1 });
    const { page, next } = pageOf(rows, options.limit);
    const roles = await q.rolesOfPeople(this.db, apiId, page.map((p) => p.id));
    return { people: page.map((person) => toPersonOut(person, roles)), ...(next ? { next_cursor: next } : {}) };
  }

  async get(caller: Caller, apiId: string, personId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    return this.#out(this.db, apiId, await this.#find(this.db, apiId, personId));
  }

  /** Suspends or reactivates a person (editors); suspending ends their live sessions. */
  async setStatus(caller: Caller, apiId: string, personId: string, status: PersonStatus): Promise<PersonOut> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    return this.db.transaction().execute(async (trx) => {
      const person = await this.#find(trx, apiId, personId);
      if (person.status === status) return this.#out(trx, apiId, person);
      const now = this.clock.now();
      await q.setPersonStatus(trx, apiId, personId, status, now);
      const ended = status === 'suspended' ? await q.endLiveSessions(trx, apiId, personId, now) : 0;
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        api: { id: apiId, name: api.name },
        action: status === 'suspended' ? 'signin_person.suspend' : 'signin_person.reactivate',
        target: { type: 'signin_person', id: personId },
        summary: status === 'suspended' ? `Suspended ${person.email} and ended ${ended} sessions` : `Reactivated ${person.email}`,
        details: status === 'suspended' ? { sessions_ended: ended } : {},
      });
      return this.#out(trx, apiId, { ...person, status });
    });
  }

  /** Sets a person's roles to exactly `roleIds`, each a role of this API (editors). */
  async setRoles(caller: Caller, apiId: string, personId: string, roleIds: string[]): Promise<Result<PersonOut>> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    return this.db.transaction().execute(async (trx) => {
      const person = await this.#find(trx, apiId, personId);
      const known = await q.rolesOfApi(trx, apiId, roleIds);
      const errors = roleIds.flatMap((id, index) => (known.has(id) ? [] : [{ location: `body.role_ids.${index}`, message: 'is not a role of this API', value: id }]));
      if (errors.length > 0) return fail<PersonOut>('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors);
      const before = (await q.rolesOfPeople(trx, apiId, [personId])).map((r) => r.id);
      const same = before.length === roleIds.length && roleIds.every((id) => before.includes(id));
      if (!same) {
        await q.replacePersonRoles(trx, personId, roleIds);
        await this.audit.record(trx, actorOf(caller), {
          workspaceId: api.workspace_id,
          api: { id: apiId, name: api.name },
          action: 'signin_person.roles',
          target: { type: 'signin_person', id: personId },
          summary: `Set the roles of ${person.email} (${roleIds.length})`,
          details: { added: roleIds.filter((id) => !before.includes(id)), removed: before.filter((id) => !roleIds.includes(id)) },
        });
      }
      return ok(await this.#out(trx, apiId, person));
    });
  }

  /**
   * A person's live sessions on the sign-in pages (viewers), newest first, at most
   * MAX_LISTED_SESSIONS: a session is a browser signed in, and its id is the `sid` of its tokens.
   */
  async sessions(caller: Caller, apiId: string, personId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    await this.#find(this.db, apiId, personId);
    const rows = await q.liveSessionsOf(this.db, apiId, personId, this.clock.now(), MAX_LISTED_SESSIONS);
    return {
      sessions: rows.map((row) => ({
        id: row.id,
        amr: row.amr,
        auth_time: row.auth_time.toISOString(),
        created_at: row.created_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
      })),
    };
  }

  /**
   * Ends one live session of a person (editors): that browser is signed out, and the access
   * tokens issued in it answer inactive (spec 3); tokens of an offline grant refreshed later stay
   * good, as after a sign-out. An ended, expired or unknown session, or another person's, is 404.
   */
  async endSession(caller: Caller, apiId: string, personId: string, sessionId: string): Promise<void> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    await this.db.transaction().execute(async (trx) => {
      const person = await this.#find(trx, apiId, personId);
      if (!(await q.endLiveSession(trx, apiId, personId, sessionId, this.clock.now()))) throw new Problem('not_found', 'No such live session');
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        api: { id: apiId, name: api.name },
        action: 'signin_person.session_end',
        target: { type: 'signin_person', id: personId },
        summary: `Ended a session of ${person.email}`,
        details: { session_id: sessionId },
      });
    });
  }

  async #find(db: Db | Trx, apiId: string, personId: string): Promise<ListedPerson> {
    const person = await q.findListedPerson(db, apiId, personId);
    if (!person) throw new Problem('not_found', 'No such person');
    return person;
  }

  async #out(db: Db | Trx, apiId: string, person: ListedPerson) {
    return toPersonOut(person, await q.rolesOfPeople(db, apiId, [person.id]));
  }
}
