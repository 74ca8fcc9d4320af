import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../platform/clock.js';
import { addMs, MINUTE } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import type { LiveSession, PersonSessions } from '../issuer/people/sessions.js';

/** The portal's own cookie: which sign-in session (`sid`) it was given by its issuer. */
export const PORTAL_COOKIE = 'gh_portal';
/** The state of a sign-in on its way through the issuer: state, PKCE verifier, nonce, where to return. */
const SIGNIN_COOKIE = 'gh_portal_signin';
/** Which of the person's customers the portal shows, when they belong to several. */
export const CUSTOMER_COOKIE = 'gh_customer';
/** A sign-in through the issuer must come back within this long. */
const SIGNIN_TTL_MS = 15 * MINUTE;

export interface PendingSignIn {
  state: string;
  verifier: string;
  nonce: string;
  /** A path on this host to return to. */
  next: string;
}

/**
 * The portal's session: a sealed cookie (AES-GCM with SECRET_KEY) naming the issuer session it
 * was signed in by. It holds no authority of its own: every request checks that session is still
 * live and its person active, so signing out of the sign-in service (or a suspension) ends the
 * portal too, on every node at once.
 */
export class PortalSessions {
  constructor(
    private readonly box: SecretBox,
    private readonly sessions: PersonSessions,
    private readonly clock: Clock,
    private readonly secure: boolean,
  ) {}

  /** The person signed in to the portal, when the issuer session it names is live. */
  async current(apiId: string, request: FastifyRequest): Promise<LiveSession | null> {
    const sealed = request.cookies[PORTAL_COOKIE];
    const opened = sealed ? this.#open<{ api: string; sid: string }>(sealed) : null;
    if (!opened || opened.api !== apiId) return null;
    const session = await this.sessions.live(apiId, opened.sid);
    return session && session.status === 'active' ? session : null;
  }

  start(reply: FastifyReply, apiId: string, session: { sid: string; expiresAt: Date }) {
    reply.setCookie(PORTAL_COOKIE, this.box.seal(JSON.stringify({ api: apiId, sid: session.sid })), this.#options(session.expiresAt));
  }

  end(reply: FastifyReply) {
    reply.clearCookie(PORTAL_COOKIE, this.#options());
    reply.clearCookie(CUSTOMER_COOKIE, this.#options());
  }

  /** Remembers a sign-in leaving for the issuer; the callback takes it back once. */
  beginSignIn(reply: FastifyReply, pending: PendingSignIn) {
    const expiresAt = addMs(this.clock.now(), SIGNIN_TTL_MS);
    reply.setCookie(SIGNIN_COOKIE, this.box.seal(JSON.stringify({ ...pending, exp: expiresAt.getTime() })), this.#options(expiresAt));
  }

  takeSignIn(request: FastifyRequest, reply: FastifyReply): PendingSignIn | null {
    const sealed = request.cookies[SIGNIN_COOKIE];
    reply.clearCookie(SIGNIN_COOKIE, this.#options());
    const opened = sealed ? this.#open<PendingSignIn & { exp: number }>(sealed) : null;
    return opened && opened.exp > this.clock.now().getTime() ? opened : null;
  }

  chooseCustomer(reply: FastifyReply, customerId: string) {
    reply.setCookie(CUSTOMER_COOKIE, customerId, this.#options());
  }

  /** A sealed value we made, or null for anything else (forged, from another key, malformed). */
  #open<T>(sealed: string): T | null {
    try {
      return JSON.parse(this.box.open(sealed)) as T;
    } catch {
      return null;
    }
  }

  #options(expires?: Date) {
    return { httpOnly: true, sameSite: 'lax' as const, secure: this.secure, path: '/', ...(expires ? { expires } : {}) };
  }
}
