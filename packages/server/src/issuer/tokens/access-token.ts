import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { BoundedCache } from '../../platform/bounded-cache.js';
import type { Clock } from '../../platform/clock.js';
import type { CachedReads } from '../cached-reads.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import type { Tenant } from '../tenant.js';
import { grantIdOfJti } from './minting.js';
import { issuedAt } from './queries.js';

export interface AccessTokenClaims extends JWTPayload {
  iss: string;
  sub: string;
  aud: string | string[];
  client_id: string;
  scope: string;
  exp: number;
  iat: number;
  auth_time: number;
  jti: string;
  sid: string;
}

/**
 * Checks one of our access tokens as a server would (spec 4.3: RS256, typ at+jwt, a published
 * kid, iss, exp), then that it is still active (spec 3: its grant not revoked, its person not
 * suspended, its session not ended, its service not paused). Null for anything else.
 */
export async function activeAccessToken(reads: CachedReads, clock: Clock, keys: SigningKeys, tenant: Tenant, token: string): Promise<AccessTokenClaims | null> {
  const claims = await verifiedAccessToken(reads, clock, keys, tenant, token);
  return claims && tenant.api.status === 'active' ? claims : null;
}

/**
 * activeAccessToken without the service's status: the account API lets people list, rename and
 * revoke their keys while the service is paused (spec 3).
 */
export async function verifiedAccessToken(reads: CachedReads, clock: Clock, keys: SigningKeys, tenant: Tenant, token: string): Promise<AccessTokenClaims | null> {
  const claims = await signedClaims(clock, keys, tenant, token);
  if (!claims) return null;
  const grantId = grantIdOfJti(claims.jti);
  if (!grantId) return null;
  const state = await reads.grantState(tenant.api.id, grantId);
  if (!state || state.revoked_at || state.person_status !== 'active' || state.client_id !== claims.client_id) return null;
  // The iss claim was checked above; the grant must be of this issuer too (issue 17).
  if (!issuedAt(state.issuer, { issuer: tenant.issuer, legacy: tenant.host === 'portal' })) return null;
  // Spec 3: an access token is inactive once its session ended. Tokens an offline grant mints
  // by refresh after that (iat later than the end) are the point of offline access and stay good.
  if (state.session_ended_at !== null && claims.iat * 1000 <= state.session_ended_at.getTime()) return null;
  if (!state.offline && state.session_expires_at !== null && state.session_expires_at <= clock.now()) return null;
  return claims;
}

// Tokens whose signature this node checked, by issuer and token: an RS256 check costs more than
// the rest of an introspection, and a resource server presents the same token many times. A
// signature never stops being valid; what can change is checked on every use (expiry, the key
// still published, the grant's state), so nothing here needs invalidating.
const checkedSignatures = new BoundedCache<string, { claims: AccessTokenClaims; kid: string }>(10_000);

/** The claims of a token signed by a published key of the tenant, for its issuer, unexpired. */
async function signedClaims(clock: Clock, keys: SigningKeys, tenant: Tenant, token: string): Promise<AccessTokenClaims | null> {
  const cacheKey = `${tenant.api.id} ${tenant.issuer} ${token}`;
  const checked = checkedSignatures.get(cacheKey);
  if (checked) {
    // jose's rule with no tolerance: expired once the current second reaches exp.
    if (checked.claims.exp <= Math.floor(clock.now().getTime() / 1000)) return null;
    return (await keys.publicKey(tenant.api.id, checked.kid, tenant.settings.access_token_ttl_s)) ? checked.claims : null;
  }
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'RS256' || header.typ !== 'at+jwt' || typeof header.kid !== 'string') return null;
    kid = header.kid;
  } catch {
    return null;
  }
  const key = await keys.publicKey(tenant.api.id, kid, tenant.settings.access_token_ttl_s);
  if (!key) return null;
  let claims: AccessTokenClaims;
  try {
    const verified = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      typ: 'at+jwt',
      issuer: tenant.issuer,
      currentDate: clock.now(),
      clockTolerance: 0,
      requiredClaims: ['sub', 'aud', 'exp', 'iat', 'jti', 'client_id', 'sid'],
    });
    claims = verified.payload as AccessTokenClaims;
  } catch {
    return null;
  }
  checkedSignatures.set(cacheKey, { claims, kid });
  return claims;
}

export function audienceList(aud: string | string[]): string[] {
  return Array.isArray(aud) ? aud : [aud];
}
