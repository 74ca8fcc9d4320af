// Who calls the account API (spec 4.5): a person, through an access token an owner's web app got
// for them with the reserved scope platform:api_keys and the issuer alone as audience.
import type { FastifyRequest } from 'fastify';
import type { Clock } from '../platform/clock.js';
import type { SigningKeys } from '../issuer/keys/signing-keys.js';
import { API_KEYS_SCOPE } from '../issuer/protocol/scopes.js';
import type { Tenant } from '../issuer/tenant.js';
import { verifiedAccessToken } from '../issuer/tokens/access-token.js';
import { KeyApiError } from './errors.js';
import { STEP_UP_MAX_AGE_S } from './limits.js';
import type { CachedReads } from '../issuer/cached-reads.js';

export interface AccountCaller {
  personId: string;
  /** The app the token was issued to: keys made with it name it (spec 6). */
  clientId: string;
  /** When the person last signed in (the token's auth_time), for step-up. */
  authTime: Date;
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

function invalidToken(description: string) {
  // RFC 6750 3: the challenge names the error.
  return new KeyApiError('invalid_token', description, 401, { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` });
}

/**
 * The caller of an account API request, or a refusal: 401 invalid_token for a token missing,
 * invalid, expired or meant for another audience; 403 insufficient_scope without the scope.
 * A paused service still lets people list, rename and revoke their keys (spec 3), so the token is
 * judged here without the service's status; create and roll check it themselves.
 */
export async function accountCaller(reads: CachedReads, clock: Clock, keys: SigningKeys, tenant: Tenant, request: FastifyRequest): Promise<AccountCaller> {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match) throw invalidToken('A Bearer access token is required');
  const claims = await verifiedAccessToken(reads, clock, keys, tenant, match[1]!);
  // Spec 4.5: aud is the issuer alone (the scope is never granted with a resource).
  const aud = Array.isArray(claims?.aud) && claims.aud.length === 1 ? claims.aud[0] : claims?.aud;
  if (!claims || aud !== tenant.issuer) throw invalidToken('The access token is not active here');
  if (!claims.scope.split(' ').includes(API_KEYS_SCOPE)) {
    throw new KeyApiError('insufficient_scope', `The token lacks ${API_KEYS_SCOPE}`, 403, {
      'www-authenticate': `Bearer error="insufficient_scope", scope="${API_KEYS_SCOPE}"`,
    });
  }
  return { personId: claims.sub, clientId: claims.client_id, authTime: new Date(claims.auth_time * 1000) };
}

/**
 * Spec 5.7 and RFC 9470: creating or rolling a key needs a sign-in within the last 10 minutes;
 * the app then signs the person in again with max_age and comes back.
 */
export function requireRecentSignIn(caller: AccountCaller, now: Date) {
  if (now.getTime() - caller.authTime.getTime() <= STEP_UP_MAX_AGE_S * 1000) return;
  const description = 'A sign-in within the last 10 minutes is required';
  throw new KeyApiError('insufficient_user_authentication', description, 401, {
    'www-authenticate': `Bearer error="insufficient_user_authentication", error_description="${description}", max_age="${STEP_UP_MAX_AGE_S}"`,
  });
}
