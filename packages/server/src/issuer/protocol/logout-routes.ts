import { textFault } from '../../platform/text.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { compactVerify, decodeProtectedHeader } from 'jose';
import type { Db } from '../../platform/db/database.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import { csrfToken, csrfValid, CSRF_FIELD } from '../../platform/pages/csrf.js';
import { html } from '../../platform/pages/html.js';
import { redirectSource, sendPage } from '../../platform/pages/send-page.js';
import { clearPersonSessionCookie, type LiveSession, type PersonSessions } from '../people/sessions.js';
import { findApp } from '../registry/lookups.js';
import type { Tenant } from '../tenant.js';
import { Params } from './form-params.js';
import { sendAuthorizeErrorPage } from './responses.js';

interface IdTokenHint {
  sub: string;
  clientId: string;
  sid: string | null;
}

/**
 * Our own ID token as a logout hint: signature, issuer and audience are checked, expiry is not
 * (OIDC RP-Initiated Logout 1.0 2: an expired ID token is still a fine hint).
 */
async function readHint(keys: SigningKeys, tenant: Tenant, token: string): Promise<IdTokenHint | null> {
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'RS256' || typeof header.kid !== 'string') return null;
    const key = await keys.publicKey(tenant.api.id, header.kid, tenant.settings.access_token_ttl_s);
    if (!key) return null;
    const { payload } = await compactVerify(token, key, { algorithms: ['RS256'] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    const aud = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (claims.iss !== tenant.issuer || typeof claims.sub !== 'string' || typeof aud !== 'string') return null;
    return { sub: claims.sub, clientId: aud, sid: typeof claims.sid === 'string' ? claims.sid : null };
  } catch {
    return null;
  }
}

/** GET /oauth/logout (OIDC RP-Initiated Logout) and the confirmation it may ask for (spec 4.3). */
export function logoutRoutes(deps: { db: Db; keys: SigningKeys; sessions: PersonSessions; secureCookies: boolean }) {
  type Target = { uri: string | null; state: string | null };

  /** The registered sign-out URI asked for, or an error message when it cannot be used. */
  async function target(tenant: Tenant, clientId: string | null, uri: string | undefined, state: string | undefined): Promise<Target | string> {
    if (uri === undefined) return { uri: null, state: null };
    if (clientId === null) return 'A sign-out address needs client_id or id_token_hint.';
    const app = await findApp(deps.db, tenant.api.id, clientId);
    if (!app || !app.post_logout_redirect_uris.includes(uri)) return 'The sign-out address is not registered for this app.';
    return { uri, state: state ?? null };
  }

  /** Ends the browser's own session, the only one a browser can sign out of. */
  async function signOut(tenant: Tenant, reply: FastifyReply, session: LiveSession | null) {
    if (session) await deps.sessions.end(tenant.api.id, session.session_id);
    clearPersonSessionCookie(reply, deps.secureCookies);
  }

  function finish(tenant: Tenant, reply: FastifyReply, to: Target) {
    if (to.uri) {
      const url = new URL(to.uri);
      if (to.state !== null) url.searchParams.set('state', to.state);
      return reply.header('cache-control', 'no-store').redirect(url.href, 303);
    }
    return sendPage(reply, { title: 'Signed out', branding: tenant.branding, body: html`<h1>You are signed out</h1><p class="note">You can close this window.</p>` });
  }

  return async (app: FastifyInstance) => {
    app.get('/oauth/logout', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      let params: Params;
      try {
        params = Params.fromQuery(request.url);
        params.assertWellFormed();
      } catch {
        return sendAuthorizeErrorPage(reply, tenant, 'The sign-out request is malformed.');
      }
      const hintToken = params.get('id_token_hint');
      const hint = hintToken ? await readHint(deps.keys, tenant, hintToken) : null;
      const clientId = params.get('client_id') ?? hint?.clientId ?? null;
      if (hint && params.get('client_id') !== undefined && params.get('client_id') !== hint.clientId) {
        return sendAuthorizeErrorPage(reply, tenant, 'client_id does not match the id_token_hint.');
      }
      const to = await target(tenant, clientId, params.get('post_logout_redirect_uri'), params.get('state'));
      if (typeof to === 'string') return sendAuthorizeErrorPage(reply, tenant, to);
      // Anyone can get an ID token of this service for themselves, so a valid hint proves only that
      // its sender once signed in. Only a hint of this browser's own session (its sid) signs out at
      // once; any other would let a link sign visitors out, or bounce them to an app unasked.
      const session = await deps.sessions.current(tenant.api.id, request);
      if (hint && session && hint.sid === session.session_id && hint.sub === session.person_id) {
        await signOut(tenant, reply, session);
        return finish(tenant, reply, to);
      }
      // Without such a hint anyone could link here: the person confirms first.
      const csrf = csrfToken(request, reply, deps.secureCookies);
      return sendPage(reply, {
        title: 'Sign out',
        branding: tenant.branding,
        // The post redirects to the app's sign-out URI, and browsers apply form-action to that hop too.
        ...(to.uri !== null ? { formActions: [redirectSource(to.uri)] } : {}),
        body: html`<h1>Sign out of ${tenant.branding.name}?</h1>
<form method="post" action="/oauth/logout">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
${clientId !== null ? html`<input type="hidden" name="client_id" value="${clientId}">` : ''}
${to.uri !== null ? html`<input type="hidden" name="post_logout_redirect_uri" value="${to.uri}">` : ''}
${to.state !== null ? html`<input type="hidden" name="state" value="${to.state}">` : ''}
<button type="submit" name="confirm" value="yes">Sign out</button></form>`,
      });
    });

    app.post('/oauth/logout', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (!csrfValid(request, body[CSRF_FIELD], tenant.issuer)) return sendAuthorizeErrorPage(reply, tenant, 'The form expired. Try signing out again.', 403);
      // The text rule of every input (platform/text.ts): a value that breaks it counts as absent.
      const text = (name: string) => {
        const value = body[name];
        return typeof value === 'string' && value !== '' && textFault(value) === null ? value : undefined;
      };
      const to = await target(tenant, text('client_id') ?? null, text('post_logout_redirect_uri'), text('state'));
      if (typeof to === 'string') return sendAuthorizeErrorPage(reply, tenant, to);
      await signOut(tenant, reply, await deps.sessions.current(tenant.api.id, request));
      return finish(tenant, reply, to);
    });
  };
}
