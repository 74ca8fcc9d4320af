import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { addMs, SECOND } from '../../platform/clock.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { newId } from '../../platform/ids.js';
import * as q from './queries.js';

/** The cookie of a person's session on the tenant host (never sent to the console host). */
export const PERSON_SESSION_COOKIE = 'gh_ps';

export type LiveSession = NonNullable<Awaited<ReturnType<typeof q.findLiveSession>>>;

/** Sessions of people on an API's sign-in service; a session's id is the `sid` claim. */
export class PersonSessions {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Starts a session after a sign-in by the methods in `amr` (RFC 8176: pwd, otp). */
  async start(apiId: string, personId: string, amr: string[], ttlS: number): Promise<{ id: string; token: string; expiresAt: Date }> {
    const now = this.clock.now();
    const token = randomToken();
    const id = newId('sid');
    const expiresAt = addMs(now, ttlS * SECOND);
    await q.insertSession(this.db, {
      id, api_id: apiId, person_id: personId, token_hash: sha256Hex(token), auth_time: now, amr, created_at: now, expires_at: expiresAt,
    });
    await this.db.updateTable('people').set({ last_login_at: now }).where('api_id', '=', apiId).where('id', '=', personId).execute();
    return { id, token, expiresAt };
  }

  /** The session the request's cookie names, when live. */
  async current(apiId: string, request: FastifyRequest): Promise<LiveSession | null> {
    const token = request.cookies[PERSON_SESSION_COOKIE];
    if (!token || token.length > 100) return null;
    return (await q.findLiveSession(this.db, apiId, sha256Hex(token), this.clock.now())) ?? null;
  }

  /** The session with this id (the `sid` of its tokens), with its person, when live. */
  async live(apiId: string, sessionId: string): Promise<LiveSession | null> {
    return (await q.findLiveSessionById(this.db, apiId, sessionId, this.clock.now())) ?? null;
  }

  async end(apiId: string, sessionId: string): Promise<void> {
    await q.endSession(this.db, apiId, sessionId, this.clock.now());
  }

  find(apiId: string, sessionId: string) {
    return q.findSessionById(this.db, apiId, sessionId);
  }
}

export function setPersonSessionCookie(reply: FastifyReply, secure: boolean, session: { token: string; expiresAt: Date }) {
  reply.setCookie(PERSON_SESSION_COOKIE, session.token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: session.expiresAt });
}

export function clearPersonSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(PERSON_SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}
