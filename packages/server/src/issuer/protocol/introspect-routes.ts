import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isWellFormedApiKey } from '@gatehouse/protocol';
import type { KeyIntrospector } from '../../end-user-keys/introspection.js';
import type { Clock } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import type { TokenBuckets } from '../../platform/token-bucket.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import type { Tenant } from '../tenant.js';
import { activeAccessToken, audienceList } from '../tokens/access-token.js';
import { issuedAt, refreshTokenRow } from '../tokens/queries.js';
import { issuerMatch } from '../tokens/service.js';
import { authenticateIntrospector, presentedCredentials, type AuthenticatedClient } from './client-auth.js';
import { networkOf } from '../../platform/http/network.js';
import { OAuthError } from './oauth-error.js';
import { formParams } from './token-routes.js';
import type { CachedReads } from '../cached-reads.js';

// Spec 8: valid server credentials 100/s with bursts up to 1000 each; every other request
// (web apps, wrong secrets) 50/s with bursts up to 500 per network.
export const SERVER_INTROSPECTION = { name: 'introspect-server', ratePerS: 100, burst: 1000 };
export const OTHER_INTROSPECTION = { name: 'introspect-network', ratePerS: 50, burst: 500 };

const INACTIVE = { active: false } as const;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** POST /oauth/introspect (RFC 7662 as spec 4.3 narrows it). */
export function introspectRoutes(deps: { db: Db; reads: CachedReads; clock: Clock; keys: SigningKeys; buckets: TokenBuckets; endUserKeys: KeyIntrospector }) {
  /** Spec 4.3: servers can also check end-user keys; a web app sees only its own tokens. */
  async function judgeApiKey(tenant: Tenant, caller: AuthenticatedClient, key: string) {
    if (caller.kind !== 'server') return INACTIVE;
    return deps.endUserKeys.judge(tenant, caller.server, key);
  }

  async function judgeRefreshToken(tenant: Tenant, caller: AuthenticatedClient, token: string) {
    // Only a web app sees its own refresh tokens; a server never does.
    if (caller.kind !== 'app') return INACTIVE;
    const row = await refreshTokenRow(deps.db, tenant.api.id, sha256Hex(token));
    if (!row || row.used_at || row.expires_at <= deps.clock.now()) return INACTIVE;
    const state = await deps.reads.grantState(tenant.api.id, row.grant_id);
    if (!state || state.revoked_at || state.person_status !== 'active' || state.client_id !== caller.app.id || tenant.api.status !== 'active') return INACTIVE;
    // Issue 17: a refresh token is active only at the issuer that made it.
    if (!issuedAt(state.issuer, issuerMatch(tenant))) return INACTIVE;
    return {
      active: true,
      token_use: 'refresh_token',
      client_id: state.client_id,
      sub: state.person_id,
      scope: state.scopes.join(' '),
      iss: tenant.issuer,
      iat: seconds(row.created_at),
      exp: seconds(row.expires_at),
    };
  }

  async function judgeAccessToken(tenant: Tenant, caller: AuthenticatedClient, token: string) {
    const claims = await activeAccessToken(deps.reads, deps.clock, deps.keys, tenant, token);
    if (!claims) return INACTIVE;
    // A server sees tokens whose audience names it exactly; a web app sees its own tokens.
    if (caller.kind === 'server' && !audienceList(claims.aud).includes(caller.server.resource_url)) return INACTIVE;
    if (caller.kind === 'app' && claims.client_id !== caller.app.id) return INACTIVE;
    return {
      active: true,
      token_use: 'access_token',
      client_id: claims.client_id,
      sub: claims.sub,
      scope: claims.scope,
      aud: claims.aud,
      iss: claims.iss,
      iat: claims.iat,
      exp: claims.exp,
    };
  }

  return async (app: FastifyInstance) => {
    app.post('/oauth/introspect', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      const params = formParams(request);
      const caller = await authenticateIntrospector(deps.reads, deps.clock, tenant.api.id, presentedCredentials(request, params));
      const limit = caller?.kind === 'server'
        ? await deps.buckets.take(SERVER_INTROSPECTION, `${tenant.api.id}:${caller.server.client_id}`)
        : await deps.buckets.take(OTHER_INTROSPECTION, `${tenant.api.id}:${networkOf(request.ip)}`);
      if (!limit.allowed) throw new OAuthError('temporarily_unavailable', 'Too many introspection requests', 429, { 'retry-after': '1' });
      if (!caller) throw new OAuthError('invalid_client', 'Unknown client or wrong secret', 401, request.headers.authorization ? { 'www-authenticate': 'Basic realm="oauth"' } : {});
      const token = params.require('token');
      // Spec 4.4: a value with dots is a JWT; one in the key format with its checksum is an
      // end-user key (a refresh token, ghr_ and 43 characters, is one character short of it).
      const answer = token.includes('.')
        ? await judgeAccessToken(tenant, caller, token)
        : isWellFormedApiKey(token)
          ? await judgeApiKey(tenant, caller, token)
          : await judgeRefreshToken(tenant, caller, token);
      return reply.status(200).header('cache-control', 'max-age=30').type('application/json').send(answer);
    });
  };
}
