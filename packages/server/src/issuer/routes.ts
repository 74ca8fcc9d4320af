import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Services } from '../app.js';
import { signinPageRoutes } from './pages/routes.js';
import { authorizeRoutes } from './protocol/authorize-routes.js';
import { discoveryRoutes } from './protocol/discovery-routes.js';
import { introspectRoutes } from './protocol/introspect-routes.js';
import { logoutRoutes } from './protocol/logout-routes.js';
import { OAuthError, sendOAuthError } from './protocol/oauth-error.js';
import { parRoutes } from './protocol/par-routes.js';
import { tokenRoutes } from './protocol/token-routes.js';
import { userinfoRoutes } from './protocol/userinfo-routes.js';
import { logoRoutes } from './pages/logo.js';
import { registerTenantHook } from './tenant.js';

/** Spec 4.1: these answer cross-origin requests, without credentials. */
const CORS_PATHS = new Set([
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
  '/oauth/jwks',
  '/oauth/token',
  '/oauth/userinfo',
  '/oauth/revoke',
  '/oauth/register',
]);

/** The tenant face: an API's sign-in service on `<slug>.PORTAL_DOMAIN` (DESIGN section 5). */
export function issuerRoutes(services: Services, secureCookies: boolean) {
  return async (app: FastifyInstance) => {
    const { db, clock } = services;
    // The console's OpenAPI document describes the console; the protocol is described by discovery.
    app.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    await app.register(formbody, { bodyLimit: 64 * 1024 });
    registerTenantHook(app, { db, clock, apis: services.apis });

    app.addHook('onRequest', async (request, reply) => {
      if (!CORS_PATHS.has(request.url.split('?')[0]!)) return;
      // No Allow-Credentials: browsers send no cookies here, so no session can be ridden.
      reply.header('access-control-allow-origin', '*');
      // Browser apps may read the Bearer challenge of userinfo (RFC 6750 3).
      reply.header('access-control-expose-headers', 'WWW-Authenticate');
      if (request.method === 'OPTIONS') {
        return reply
          .status(204)
          .header('access-control-allow-methods', 'GET, POST, OPTIONS')
          .header('access-control-allow-headers', 'Authorization, Content-Type, DPoP')
          .header('access-control-max-age', '600')
          .send();
      }
    });
    for (const path of CORS_PATHS) app.options(path, async (_request, reply) => reply.status(204).send());

    // Protocol endpoints answer in OAuth's error shape, never problem+json (DESIGN section 9).
    app.setErrorHandler((error: FastifyError | OAuthError, request, reply) => {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      if (error.statusCode && error.statusCode < 500) {
        return sendOAuthError(reply, new OAuthError('invalid_request', error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The body is too large' : 'Malformed request', error.statusCode === 413 ? 413 : 400));
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).header('cache-control', 'no-store').send({ error: 'server_error', error_description: 'Internal error' });
    });

    const keys = services.signingKeys;
    await app.register(discoveryRoutes({ db, keys }));
    await app.register(authorizeRoutes({ db, clock, authorization: services.authorization }));
    await app.register(parRoutes({ db, clock }));
    await app.register(tokenRoutes({ db, clock, tokens: services.tokens }));
    await app.register(userinfoRoutes({ db, clock, keys }));
    await app.register(introspectRoutes({ db, clock, keys, buckets: services.tokenBuckets }));
    await app.register(logoutRoutes({ db, keys, sessions: services.personSessions, secureCookies }));
    await app.register(logoRoutes(services.logos));
    await app.register(signinPageRoutes({ authorization: services.authorization, accounts: services.personAccounts, sessions: services.personSessions, secureCookies }));
  };
}
