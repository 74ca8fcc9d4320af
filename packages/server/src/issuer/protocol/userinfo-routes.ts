import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import { personClaims } from '../people/claims.js';
import { activeAccessToken, audienceList } from '../tokens/access-token.js';
import { OAuthError } from './oauth-error.js';
import type { CachedReads } from '../cached-reads.js';

function bearerError(error: 'invalid_token' | 'insufficient_scope', description: string, status: number) {
  // RFC 6750 3: the challenge names the error.
  return new OAuthError(error, description, status, { 'www-authenticate': `Bearer error="${error}", error_description="${description}"` });
}

/** GET /oauth/userinfo (OIDC Core 5.3): the ID-token claims of the granted scopes. */
export function userinfoRoutes(deps: { db: Db; reads: CachedReads; clock: Clock; keys: SigningKeys }) {
  return async (app: FastifyInstance) => {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(request.headers.authorization ?? '');
      if (!match) {
        return reply.status(401).header('www-authenticate', 'Bearer').header('cache-control', 'no-store').send();
      }
      const claims = await activeAccessToken(deps.reads, deps.clock, deps.keys, tenant, match[1]!);
      if (!claims || !audienceList(claims.aud).includes(tenant.issuer)) throw bearerError('invalid_token', 'The access token is not active here', 401);
      const scopes = claims.scope.split(' ');
      if (!scopes.includes('openid')) throw bearerError('insufficient_scope', 'The token was not granted openid', 403);
      const person = await personClaims(deps.db, tenant.api.id, claims.sub, scopes);
      if (!person) throw bearerError('invalid_token', 'The access token is not active here', 401);
      return reply.header('cache-control', 'no-store').send({ sub: claims.sub, ...person });
    };
    app.get('/oauth/userinfo', handler);
    app.post('/oauth/userinfo', handler);
  };
}
