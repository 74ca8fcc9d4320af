import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JwksCache } from './jwks.js';

/** What a verified access token says (spec 4.3, RFC 9068). */
export interface VerifiedToken {
  /** The person (`sub`): a person of the API's sign-in service. */
  personId: string;
  clientId: string;
  scopes: string[];
  /** Expiry, epoch seconds. */
  expiresAt: number;
}

export type TokenCheck = { ok: true; token: VerifiedToken } | { ok: false; description: string };

export interface TokenRules {
  /** The API's issuer: `iss` must equal it exactly. */
  issuer: string;
  /** This server's URL as registered: `aud` must hold it exactly. */
  audience: string;
  /** Seconds of clock difference allowed on `exp` (and `nbf`). */
  clockSkewS: number;
  now: () => number;
}

/** A value with dots is a JWT access token, anything else an API key (spec 4.4). */
export const looksLikeJwt = (credential: string) => credential.includes('.');

/**
 * Checks an access token locally by every rule of spec 4.3: alg RS256 and typ at+jwt in the
 * header, the key found by kid in the issuer's JWKS, the signature, `iss` exactly the issuer,
 * `aud` holding this server's URL exactly, `exp` in the future within the allowed skew. Throws
 * JwksUnavailable when the key set cannot be fetched.
 */
export async function verifyAccessToken(token: string, jwks: JwksCache, rules: TokenRules): Promise<TokenCheck> {
  let kid: string;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== 'RS256') return { ok: false, description: 'the token is not signed with RS256' };
    // RFC 9068 2.1: typ is at+jwt; RFC 7515 4.1.9 lets it carry the application/ prefix.
    if (typeof header.typ !== 'string' || !/^(application\/)?at\+jwt$/i.test(header.typ)) return { ok: false, description: 'the token is not an access token (typ at+jwt)' };
    if (typeof header.kid !== 'string' || header.kid === '') return { ok: false, description: 'the token names no key (kid)' };
    kid = header.kid;
  } catch {
    return { ok: false, description: 'the token is not a JWT' };
  }
  const key = await jwks.key(kid);
  if (!key) return { ok: false, description: 'the token is signed with a key the issuer does not publish' };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      typ: 'at+jwt',
      issuer: rules.issuer,
      audience: rules.audience,
      clockTolerance: rules.clockSkewS,
      currentDate: new Date(rules.now()),
      requiredClaims: ['sub', 'exp'],
    });
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return {
      ok: true,
      token: {
        personId: payload.sub!,
        clientId: typeof payload.client_id === 'string' ? payload.client_id : '',
        scopes: scope.split(' ').filter((s) => s !== ''),
        expiresAt: payload.exp!,
      },
    };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, description: 'the token has expired' };
    if (error instanceof errors.JWTClaimValidationFailed) return { ok: false, description: `the token's ${error.claim} claim is not accepted here` };
    if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, description: 'the token signature does not verify' };
    return { ok: false, description: 'the token is not valid' };
  }
}
