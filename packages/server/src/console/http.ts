import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../platform/errors.js';
import type { ClientInfo } from '../accounts/accounts.js';
import type { Caller } from './caller.js';

export const SESSION_COOKIE = 'gh_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the console's caller hook: the person or workspace key calling, or null. */
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    /** The route serves callers who are not signed in (sign-up, login, invitations, the OpenAPI document). */
    public?: boolean;
  }
}

/**
 * Route options of a console route anyone may call; every other route needs a caller. Their
 * bodies are a few fields (an address, a password, a ticket), so they take 16 KB rather than the
 * megabyte an SDK report needs: a stranger's megabyte is refused by its length, before it is read.
 */
export const publicRoute = { config: { public: true }, bodyLimit: 16 * 1024 } as const;

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
}

export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw new Problem('not_signed_in');
  return request.caller;
}

/** Routes about the person themself (profile, password, two-factor) need a session, not a key. */
export function requireUser(request: FastifyRequest): Caller & { kind: 'user' } {
  const caller = requireCaller(request);
  if (caller.kind !== 'user') throw new Problem('session_required');
  return caller;
}

export function setSessionCookie(reply: FastifyReply, secure: boolean, session: { token: string; expiresAt: Date }) {
  reply.setCookie(SESSION_COOKIE, session.token, { httpOnly: true, sameSite: 'lax', secure, path: '/', expires: session.expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean) {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}

export function rateLimitedProblem(retryAfterS: number): Problem {
  return new Problem('rate_limited', `Try again in ${retryAfterS} seconds`, undefined, { 'retry-after': String(retryAfterS) });
}
