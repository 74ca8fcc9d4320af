import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { isConnectedApp, type ClientDirectory } from '../connected-apps/client-directory.js';
import type { AuthorizationService } from './authorization.js';
import { AuthorizePageError, checkAuthorizationRequest, checkClient, checkRedirectUri, pushedParams } from './authorize-request.js';
import { Params } from './form-params.js';
import { OAuthError } from './oauth-error.js';
import { sendAuthorizeErrorPage } from './responses.js';

/** GET /oauth/authorize and the resume step the pages return to (spec 4.2). */
export function authorizeRoutes(deps: { db: Db; clock: Clock; authorization: AuthorizationService; clients: ClientDirectory }) {
  return async (app: FastifyInstance) => {
    app.get('/oauth/authorize', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      let params: Params;
      let client;
      let redirectUri: string;
      try {
        params = Params.fromQuery(request.url);
        client = await checkClient(deps.clients, tenant, params, request.ip);
        params = await pushedParams(deps.db, deps.clock, tenant.api.id, params);
        if (params.get('client_id') !== client.id) throw new AuthorizePageError('The pushed request belongs to another client.');
        redirectUri = checkRedirectUri(client, params);
      } catch (error) {
        if (error instanceof AuthorizePageError) return sendAuthorizeErrorPage(reply, tenant, error.message, error.status);
        if (error instanceof OAuthError) return sendAuthorizeErrorPage(reply, tenant, error.description);
        throw error;
      }
      // From here on errors go back to the client; in the response mode asked for when it is valid.
      const mode = params.get('response_mode') === 'form_post' && !params.faulty('response_mode') ? 'form_post' : 'query';
      const target = { clientId: client.id, redirectUri, responseMode: mode, state: params.echoed('state') ?? null, ...(isConnectedApp(client) ? { connected: true } : {}) } as const;
      try {
        const authorization = await checkAuthorizationRequest(deps.db, tenant.api.id, client, redirectUri, params);
        if (tenant.api.status !== 'active') throw new OAuthError('temporarily_unavailable', 'Sign-ins are not accepted now');
        return await deps.authorization.proceed(tenant, authorization, null, request, reply);
      } catch (error) {
        if (error instanceof OAuthError) return deps.authorization.sendError(tenant, target, { error: error.error, error_description: error.description }, request, reply);
        throw error;
      }
    });

    app.get('/oauth/authorize/resume/:token', async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const tenant = request.tenant;
      const interaction = await deps.authorization.interaction(tenant, request.params.token, request);
      if (!interaction) return sendAuthorizeErrorPage(reply, tenant, 'This sign-in has expired or was started in another browser. Start again from the app.');
      if (tenant.api.status !== 'active') {
        return deps.authorization.sendError(tenant, interaction.request, { error: 'temporarily_unavailable', error_description: 'Sign-ins are not accepted now' }, request, reply);
      }
      return deps.authorization.proceed(tenant, interaction.request, interaction, request, reply);
    });
  };
}
