import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { addMs, SECOND } from '../../platform/clock.js';
import { randomToken, sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { networkOf } from '../../platform/http/network.js';
import type { TokenBuckets } from '../../platform/token-bucket.js';
import type { ClientDirectory } from '../connected-apps/client-directory.js';
import { insertPushedAuthorization } from '../tokens/queries.js';
import { checkAuthorizationRequest, redirectUriMatches } from './authorize-request.js';
import { authenticateApp, isConfidential, presentedCredentials } from './client-auth.js';
import { PUBLIC_PAR } from './limits.js';
import { OAuthError, sendNoStore } from './oauth-error.js';
import { formParams } from './token-routes.js';

/** RFC 9126: a request_uri works once, for this long. */
export const PAR_TTL_S = 60;
const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** POST /oauth/par (RFC 9126): checks the request as authorize would, and keeps it for one use. */
export function parRoutes(deps: { db: Db; clock: Clock; clients: ClientDirectory; buckets: TokenBuckets }) {
  return async (app: FastifyInstance) => {
    app.post('/oauth/par', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      const params = formParams(request);
      const { app: client } = await authenticateApp(deps.clients, deps.clock, tenant, presentedCredentials(request, params), request.ip);
      // RFC 9126 2.1: request_uri is not allowed inside a pushed request.
      if (params.has('request_uri')) throw new OAuthError('invalid_request', 'request_uri cannot be pushed');
      const redirectUri = params.require('redirect_uri');
      if (!redirectUriMatches(client, redirectUri)) throw new OAuthError('invalid_request', 'The redirect_uri is not registered for this app');
      await checkAuthorizationRequest(deps.db, tenant.api.id, client, redirectUri, params);
      // A public client's request is unauthenticated and keeps a row: only requests that would be
      // kept count (a refused one costs nothing), per network (issue 26, protocol/limits.ts).
      if (!isConfidential(client)) {
        const limit = await deps.buckets.take(PUBLIC_PAR, networkOf(request.ip));
        if (!limit.allowed) {
          throw new OAuthError('temporarily_unavailable', `Too many pushed authorization requests from your network; try again in ${limit.retryAfterS} seconds, or send the parameters to the authorization endpoint`, 429, { 'retry-after': String(limit.retryAfterS) });
        }
      }
      const requestUri = REQUEST_URI_PREFIX + randomToken();
      const stored: Record<string, string> = { ...params.toObject(), client_id: client.id };
      delete stored.client_secret;
      await insertPushedAuthorization(deps.db, {
        request_uri_hash: sha256Hex(requestUri),
        api_id: tenant.api.id,
        client_id: client.id,
        params: stored,
        expires_at: addMs(deps.clock.now(), PAR_TTL_S * SECOND),
      });
      return sendNoStore(reply, { request_uri: requestUri, expires_in: PAR_TTL_S }, 201);
    });
  };
}
