import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../app.js';
import { signinPageRoutes } from './pages/routes.js';
import { authorizeRoutes } from './protocol/authorize-routes.js';
import { discoveryRoutes } from './protocol/discovery-routes.js';
import { introspectRoutes } from './protocol/introspect-routes.js';
import { logoutRoutes } from './protocol/logout-routes.js';
import { OAuthError, sendOAuthError } from './protocol/oauth-error.js';
import { parRoutes } from './protocol/par-routes.js';
import { sendRequestErrorPage } from './protocol/responses.js';
import { Problem } from '../platform/errors.js';
import { tokenRoutes } from './protocol/token-routes.js';
import { registrationRoutes } from './connected-apps/registration-routes.js';
import { userinfoRoutes } from './protocol/userinfo-routes.js';
import { logoRoutes } from './pages/logo.js';
import { registerTenantHook } from './tenant.js';
import { isPagePath } from './page-paths.js';
import { accountApiRoutes } from '../end-user-keys/account-routes.js';

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

/**
 * The JSON endpoints of the protocol: they get nosniff and HSTS but not a page's headers (CSP,
 * framing, referrer), which nothing reading JSON heeds (platform/http/security-headers.ts).
 */
const JSON_PATHS = new Set([
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
  '/oauth/jwks',
  '/oauth/token',
  '/oauth/revoke',
  '/oauth/introspect',
  '/oauth/userinfo',
]);

/** A tenant-host request Fastify could not route (bad percent-encoding): a page or an OAuth error. */
export function answerMalformedUrl(request: FastifyRequest, reply: FastifyReply) {
  if (isPagePath(request.url)) return sendRequestErrorPage(reply, null, 'The address is malformed.', 400);
  return sendOAuthError(reply, new OAuthError('invalid_request', 'The request URL is malformed'));
}

/** A tenant-host path that is nothing: a page where a browser would look, else OAuth's error shape. */
export function answerUnknownPath(request: FastifyRequest, reply: FastifyReply) {
  if (isPagePath(request.url)) return sendRequestErrorPage(reply, request.tenant?.branding ?? null, 'There is no page at this address.', 404);
  return sendOAuthError(reply, new OAuthError('invalid_request', 'No such endpoint on this sign-in service', 404));
}

/**
 * Protocol endpoints answer in OAuth's error shape, never problem+json (DESIGN section 9); the
 * pages a browser shows answer with a page.
 */
export function issuerErrorHandler(error: FastifyError | OAuthError | Problem, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof OAuthError) return sendOAuthError(reply, error);
  // A console route reached on this host (it answers not_found on any other host than its own).
  if (error instanceof Problem) return error.status === 404 ? answerUnknownPath(request, reply) : sendOAuthError(reply, new OAuthError('invalid_request', error.detail ?? error.title, error.status));
  if (error.statusCode && error.statusCode < 500) {
    const status = error.statusCode === 413 ? 413 : 400;
    const description = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The body is too large' : 'Malformed request';
    if (isPagePath(request.url)) return sendRequestErrorPage(reply, request.tenant?.branding ?? null, `${description}.`, status);
    return sendOAuthError(reply, new OAuthError('invalid_request', description, status));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).header('cache-control', 'no-store').send({ error: 'server_error', error_description: 'Internal error' });
}

/**
 * The tenant face on `<slug>.PORTAL_DOMAIN` (DESIGN section 5): an API's sign-in service and, through `alongside` (the customer portal), the
 * other routes of its host, which share its tenant hook, form parsing and error answers.
 */
export function issuerRoutes(services: Services, secureCookies: boolean, alongside?: (app: FastifyInstance) => Promise<void>) {
  return async (app: FastifyInstance) => {
    const { db, clock } = services;
    // The console's OpenAPI document describes the console; the protocol is described by discovery.
    app.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
      if (JSON_PATHS.has(route.url)) route.config = { ...(route.config ?? {}), jsonOnly: true };
    });
    await app.register(formbody, { bodyLimit: 64 * 1024 });
    registerTenantHook(app, { db, reads: services.issuerReads, clock, apis: services.apis, domains: services.domains, consoleUrl: services.config.baseUrl });

    app.addHook('onRequest', async (request, reply) => {
      const query = request.url.indexOf('?');
      if (!CORS_PATHS.has(query < 0 ? request.url : request.url.slice(0, query))) return;
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

    app.setErrorHandler(issuerErrorHandler);

    const keys = services.signingKeys;
    const clients = services.clients;
    await app.register(discoveryRoutes({ db, keys, clients }));
    await app.register(authorizeRoutes({ db, clock, authorization: services.authorization, clients }));
    await app.register(parRoutes({ db, clock, clients, buckets: services.tokenBuckets }));
    await app.register(tokenRoutes({ db, clock, tokens: services.tokens, clients, buckets: services.tokenBuckets }));
    await app.register(registrationRoutes(services.registration));
    await app.register(userinfoRoutes({ db, reads: services.issuerReads, clock, keys }));
    await app.register(introspectRoutes({ db, reads: services.issuerReads, clock, keys, buckets: services.tokenBuckets, endUserKeys: services.keyIntrospector }));
    await app.register(accountApiRoutes({ db, reads: services.issuerReads, clock, keys, endUserKeys: services.endUserKeys, buckets: services.tokenBuckets }));
    await app.register(logoutRoutes({ db, keys, sessions: services.personSessions, secureCookies }));
    await app.register(logoRoutes(services.logos));
    await app.register(signinPageRoutes({ authorization: services.authorization, accounts: services.personAccounts, sessions: services.personSessions, secureCookies }));
    if (alongside) await app.register(alongside);
  };
}
