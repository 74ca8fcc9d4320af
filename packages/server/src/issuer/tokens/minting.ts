import { createHash, randomBytes, sign } from 'node:crypto';
import type { Signer } from '../keys/signing-keys.js';

export interface GrantFacts {
  id: string;
  clientId: string;
  personId: string;
  sessionId: string;
  scopes: string[];
  resource: string | null;
  authTime: Date;
  amr: string[];
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * An access token's audience (spec 4.3): the server named in `resource`; with `openid` granted
 * also the issuer (userinfo); the issuer alone when no server was named.
 */
export function accessTokenAudience(issuer: string, grant: Pick<GrantFacts, 'resource' | 'scopes'>): string | string[] {
  if (!grant.resource) return issuer;
  return grant.scopes.includes('openid') ? [grant.resource, issuer] : grant.resource;
}

/** A jti that names its grant, so introspection finds the grant without storing each token. */
export function newJti(grantId: string): string {
  return `${grantId}.${randomBytes(12).toString('base64url')}`;
}

export function grantIdOfJti(jti: string): string | null {
  const dot = jti.indexOf('.');
  return dot > 0 ? jti.slice(0, dot) : null;
}

/**
 * A compact JWS signed with RS256 by node:crypto's sign on libuv's thread pool (its callback
 * form). The RSA private-key operation is the largest part of a token response (two of them, the
 * access token and the ID token, about 330 µs each on this machine); on the event loop they held
 * every other request of the process behind them, on the pool they run beside the next requests'
 * parsing and round trips (measured in docs/decisions.md, issue 28). The key object and the
 * encoded header are made once per key (keys/signing-keys.ts), where jose's SignJWT rebuilt the
 * header each time. The payload is JSON.stringify of the claims, as jose writes it.
 */
function signCompact(encodedHeader: string, signer: Signer, payload: Record<string, unknown>): Promise<string> {
  const input = `${encodedHeader}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), signer.privateKey, (error, signature) => {
      if (error) reject(error);
      else resolve(`${input}.${signature.toString('base64url')}`);
    });
  });
}

/** An RFC 9068 access token: RS256, typ at+jwt, kid, and exactly the claims of spec 4.3. */
export function mintAccessToken(signer: Signer, issuer: string, grant: GrantFacts, scopes: string[], now: Date, ttlS: number): Promise<string> {
  const iat = seconds(now);
  return signCompact(signer.accessTokenHeader, signer, {
    client_id: grant.clientId,
    scope: scopes.join(' '),
    auth_time: seconds(grant.authTime),
    sid: grant.sessionId,
    iss: issuer,
    sub: grant.personId,
    aud: accessTokenAudience(issuer, { resource: grant.resource, scopes }),
    iat,
    exp: iat + ttlS,
    jti: newJti(grant.id),
  });
}

/** OIDC Core 3.1.3.6: the left half of the SHA-256 of the access token, base64url. */
export function atHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

/** An ID token for the client (spec 4.3): the person's claims of the granted scopes. */
export function mintIdToken(
  signer: Signer,
  issuer: string,
  grant: GrantFacts,
  accessToken: string,
  claims: Record<string, unknown>,
  nonce: string | null,
  now: Date,
  ttlS: number,
): Promise<string> {
  const iat = seconds(now);
  return signCompact(signer.idTokenHeader, signer, {
    ...claims,
    auth_time: seconds(grant.authTime),
    amr: grant.amr,
    ...(nonce !== null ? { nonce } : {}),
    sid: grant.sessionId,
    at_hash: atHash(accessToken),
    iss: issuer,
    sub: grant.personId,
    aud: grant.clientId,
    iat,
    exp: iat + ttlS,
  });
}
