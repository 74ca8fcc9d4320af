import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { randomToken } from '../platform/crypto.js';
import { html } from '../platform/pages/html.js';
import { csrfToken, csrfValid, CSRF_FIELD } from '../platform/pages/csrf.js';
import { formBody } from '../platform/pages/forms.js';
import { textFault } from '../platform/text.js';
import { clearPersonSessionCookie } from '../issuer/people/sessions.js';
import { OAuthError } from '../issuer/protocol/oauth-error.js';
import { PORTAL_CALLBACK_PATH, portalApp } from '../issuer/registry/portal-app.js';
import { sendStatePage, signInPath, type PortalDeps } from './context.js';

/** A path on this host to return to after signing in: anything else (another host, `//x`) is `/`. */
export function localPath(value: unknown): string {
  return typeof value === 'string' && value.length <= 500 && /^\/(?![/\\])[^\s]*$/.test(value) && textFault(value) === null ? value : '/';
}

const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * Signing in to the portal is an authorization-code flow with PKCE against the API's own issuer
 * (one sign-in serves the portal and the sign-in service). The portal is a first-party client with
 * no secret; it exchanges its code in-process and keeps only the session id (`sid`) it was given.
 */
export function portalAuthRoutes(deps: PortalDeps) {
  return async (app: FastifyInstance) => {
    app.get('/auth/signin', async (request, reply) => {
      const tenant = request.tenant;
      const query = request.query as Record<string, unknown>;
      const email = typeof query.email === 'string' && query.email.length <= 254 && textFault(query.email) === null ? query.email : null;
      const pending = { state: randomToken(), verifier: randomToken(), nonce: randomToken(), next: localPath(query.next) };
      const client = await portalApp(deps.db, deps.clock, tenant.api.id, tenant.issuer, tenant.portalIssuer);
      deps.portal.beginSignIn(reply, pending);
      const url = new URL(tenant.issuer + '/oauth/authorize');
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: client.id,
        redirect_uri: tenant.issuer + PORTAL_CALLBACK_PATH,
        scope: 'openid profile email',
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: pkceChallenge(pending.verifier),
        code_challenge_method: 'S256',
        // prompt=create opens the sign-up screen (spec 4.2); login_hint fills in the address.
        ...(query.signup === '1' ? { prompt: 'create' } : {}),
        ...(email ? { login_hint: email } : {}),
        // A page that needs a recent sign-in (the keys page's create and roll) asks for one.
        ...(typeof query.max_age === 'string' && /^\d{1,6}$/.test(query.max_age) ? { max_age: query.max_age } : {}),
      }).toString();
      return reply.redirect(url.href, 303);
    });

    app.get('/auth/callback', async (request, reply) => {
      const tenant = request.tenant;
      const query = request.query as Record<string, unknown>;
      const pending = deps.portal.takeSignIn(request, reply);
      const retry = (message: string, status = 400) =>
        sendStatePage(deps, tenant, reply, 'Sign-in did not finish', html`<h1>Sign-in did not finish</h1><p class="error">${message}</p><p><a id="retry" href="${signInPath(pending?.next ?? '/')}">Sign in again</a></p>`, status);
      if (!pending || query.state !== pending.state) return retry('This sign-in expired or was not started here.');
      // RFC 9207: the answer must come from our issuer.
      if (query.iss !== tenant.issuer) return retry('The answer did not come from this sign-in service.');
      if (typeof query.error === 'string') {
        return retry(query.error === 'access_denied' ? 'The sign-in was declined.' : 'The sign-in service could not sign you in right now.', 403);
      }
      if (typeof query.code !== 'string' || query.code.length > 200) return retry('The answer carried no code.');
      const client = await portalApp(deps.db, deps.clock, tenant.api.id, tenant.issuer, tenant.portalIssuer);
      let idToken: string | undefined;
      try {
        const tokens = await deps.tokens.exchangeCode(tenant, { id: client.id, refresh_tokens: false }, {
          code: query.code, redirectUri: tenant.issuer + PORTAL_CALLBACK_PATH, codeVerifier: pending.verifier, resource: null,
        });
        idToken = tokens.id_token;
      } catch (error) {
        if (error instanceof OAuthError) return retry('The sign-in could not be completed. Please try again.');
        throw error;
      }
      // We minted this token a moment ago in this process; its claims need no signature check here.
      const claims = idToken ? decodeJwt(idToken) : {};
      if (claims.nonce !== pending.nonce || typeof claims.sid !== 'string') return retry('The sign-in could not be completed. Please try again.');
      const session = await deps.personSessions.live(tenant.api.id, claims.sid);
      if (!session || session.status !== 'active') return retry('Your account cannot sign in right now.', 403);
      deps.portal.start(reply, tenant.api.id, { sid: session.session_id, expiresAt: session.expires_at });
      return reply.redirect(pending.next, 303);
    });

    // Signs out of the portal and of the sign-in service of this host: one sign-in, one sign-out.
    app.post('/auth/signout', async (request, reply) => {
      const tenant = request.tenant;
      if (!csrfValid(request, formBody(request.body)[CSRF_FIELD], tenant.issuer)) return sendStatePage(deps, tenant, reply, 'Sign out', html`<h1>Sign out</h1><p class="error">The form expired. Please try again.</p><p><a href="/account">Back</a></p>`, 403);
      const person = await deps.portal.current(tenant.api.id, request);
      if (person) await deps.personSessions.end(tenant.api.id, person.session_id);
      deps.portal.end(reply);
      clearPersonSessionCookie(reply, deps.secureCookies);
      return reply.redirect('/signed-out', 303);
    });

    app.get('/signed-out', async (request, reply) => {
      csrfToken(request, reply, deps.secureCookies);
      return sendStatePage(deps, request.tenant, reply, 'Signed out', html`<h1>You are signed out</h1><p><a id="sign-in" href="${signInPath('/')}">Sign in again</a></p>`);
    });
  };
}
