import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { networkOf } from '../../platform/http/network.js';
import type { TokenBuckets } from '../../platform/token-bucket.js';
import type { ClientDirectory } from '../connected-apps/client-directory.js';
import type { TokenService } from '../tokens/service.js';
import { authenticateApp, presentedCredentials } from './client-auth.js';
import { Params } from './form-params.js';
import { TOKEN_REQUESTS, TOKEN_RETRY_AFTER_S } from './limits.js';
import { OAuthError, sendNoStore } from './oauth-error.js';

/** Token-like endpoints take application/x-www-form-urlencoded only (RFC 6749 3.2). */
export function formParams(request: FastifyRequest): Params {
  const type = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new OAuthError('invalid_request', 'Send application/x-www-form-urlencoded');
  return Params.fromBody(request.body);
}

/** POST /oauth/token (spec 4.3) and POST /oauth/revoke (RFC 7009 as spec 4.3 narrows it). */
export function tokenRoutes(deps: { db: Db; clock: Clock; tokens: TokenService; clients: ClientDirectory; buckets: TokenBuckets }) {
  return async (app: FastifyInstance) => {
    app.post('/oauth/token', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      // Spec 7: too many requests from one network. Counted first, so wrong secrets and malformed
      // requests count as well (protocol/limits.ts).
      const limit = await deps.buckets.take(TOKEN_REQUESTS, `${tenant.api.id}:${networkOf(request.ip)}`);
      if (!limit.allowed) throw new OAuthError('temporarily_unavailable', 'Too many token requests from your network', 429, { 'retry-after': String(TOKEN_RETRY_AFTER_S) });
      const params = formParams(request);
      const { app: client } = await authenticateApp(deps.clients, deps.clock, tenant, presentedCredentials(request, params), request.ip);
      const grantType = params.require('grant_type');
      if (tenant.api.status !== 'active') throw new OAuthError('temporarily_unavailable', 'Sign-ins are not accepted now', 503);
      const resources = params.all('resource');
      if (resources.length > 1) throw new OAuthError('invalid_target', 'Name exactly one resource');
      const resource = resources[0] ?? null;
      if (grantType === 'authorization_code') {
        const code = params.require('code');
        const redirectUri = params.require('redirect_uri');
        const codeVerifier = params.get('code_verifier');
        if (codeVerifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
        const tokens = await deps.tokens.exchangeCode(tenant, client, { code, redirectUri, codeVerifier, resource });
        await deps.clients.markUsed(tenant, client);
        return sendNoStore(reply, tokens);
      }
      if (grantType === 'refresh_token') {
        const refreshToken = params.require('refresh_token');
        const tokens = await deps.tokens.refresh(tenant, client, { refreshToken, scope: params.get('scope') ?? null, resource });
        await deps.clients.markUsed(tenant, client);
        return sendNoStore(reply, tokens);
      }
      throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    });

    app.post('/oauth/revoke', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      const params = formParams(request);
      const { app: client } = await authenticateApp(deps.clients, deps.clock, tenant, presentedCredentials(request, params), request.ip);
      const token = params.require('token');
      await deps.tokens.revoke(tenant, client.id, token);
      // RFC 7009 2.2: 200 whether or not the token was known or already revoked.
      return reply.status(200).header('cache-control', 'no-store').send();
    });
  };
}
