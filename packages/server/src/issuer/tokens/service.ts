import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { addMs, SECOND } from '../../platform/clock.js';
import { constantTimeEqual, sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { newId, randomBase62 } from '../../platform/ids.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import { claimsOf } from '../people/claims.js';
import type { AppOrigin } from '../registry/tables.js';
import type { Tenant } from '../tenant.js';
import { OAuthError } from '../protocol/oauth-error.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { mintAccessToken, mintIdToken, type GrantFacts } from './minting.js';
import * as q from './queries.js';

/** Spec 8: an authorization code lives 60 seconds and works once. */
export const CODE_TTL_S = 60;
/** Spec 4.3 and 8: access tokens of apps people connect last at most 10 minutes, whatever the setting. */
export const CONNECTED_APP_TOKEN_TTL_S = 600;

/** The app a token request is for, as far as minting cares (the portal names no origin). */
export interface TokenClient {
  id: string;
  refresh_tokens: boolean;
  origin?: AppOrigin;
}
const REFRESH_PREFIX = 'ghr_';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

function factsOf(grant: q.TakenGrant): GrantFacts {
  return {
    id: grant.grant_id,
    clientId: grant.client_id,
    personId: grant.person_id,
    sessionId: grant.session_id,
    scopes: grant.scopes,
    resource: grant.resource,
    authTime: grant.auth_time,
    amr: grant.amr,
  };
}

/** RFC 7636 4.6: BASE64URL(SHA256(code_verifier)), the challenge it answers; null when malformed. */
function challengeOf(verifier: string): string | null {
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return null;
  return createHash('sha256').update(verifier).digest('base64url');
}

function pkceMatches(challengeOfVerifier: string | null, challenge: string): boolean {
  return challengeOfVerifier !== null && constantTimeEqual(challengeOfVerifier, challenge);
}

/** RFC 6749 6: a refresh may narrow the scope, never widen it. */
function narrowedScopes(granted: string[], scope: string | null): string[] {
  if (scope === null) return granted;
  const asked = [...new Set(scope.split(' ').filter(Boolean))];
  if (asked.some((name) => !granted.includes(name))) throw new OAuthError('invalid_scope', 'The scope is wider than what was granted');
  return granted.filter((name) => asked.includes(name));
}

/** The issuer a request reached, as grants are matched against it (tokens/queries.ts). */
export function issuerMatch(tenant: Tenant): q.IssuerMatch {
  return { issuer: tenant.issuer, legacy: tenant.host === 'portal' };
}

/** Grants, codes and tokens: what a sign-in gives an app, and its exchange for tokens. */
export class TokenService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly keys: SigningKeys,
  ) {}

  /** Records the grant of a finished authorization and answers its code (spec 4.2). */
  async issueCode(tenant: Tenant, request: AuthorizationRequest, session: { sessionId: string; personId: string; authTime: Date; amr: string[] }, scopes: string[]): Promise<string> {
    const now = this.clock.now();
    const code = randomBase62(43);
    const grantId = newId('grt');
    await this.db.transaction().execute(async (trx) => {
      await q.insertGrant(trx, {
        id: grantId,
        api_id: tenant.api.id,
        client_id: request.clientId,
        person_id: session.personId,
        session_id: session.sessionId,
        scopes,
        resource: request.resource,
        offline: scopes.includes('offline_access'),
        auth_time: session.authTime,
        amr: session.amr,
        created_at: now,
        // Codes and refresh tokens of this grant are spent only at this issuer (issue 17).
        issuer: tenant.issuer,
      });
      await q.insertCode(trx, {
        code_hash: sha256Hex(code),
        api_id: tenant.api.id,
        grant_id: grantId,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        nonce: request.nonce,
        expires_at: addMs(now, CODE_TTL_S * SECOND),
      });
    });
    return code;
  }

  /** grant_type=authorization_code (OAuth 2.1 4.1.3). A replayed code also revokes its grant. */
  async exchangeCode(tenant: Tenant, app: TokenClient, input: { code: string; redirectUri: string; codeVerifier: string; resource: string | null }): Promise<TokenResponse> {
    const now = this.clock.now();
    const codeHash = sha256Hex(input.code);
    const challenge = challengeOf(input.codeVerifier);
    const next = this.#nextRefreshToken(tenant, app, now, { redirectUri: input.redirectUri, codeChallenge: challenge, resource: input.resource });
    const taken = await q.takeCode(this.db, tenant.api.id, codeHash, app.id, issuerMatch(tenant), now, next?.mint ?? null);
    // OAuth 2.1 4.1.3: a code used twice means it leaked; what it issued is revoked.
    if (!taken) return this.#refuseUnspent(tenant, app.id, 'code', await q.codeStanding(this.db, tenant.api.id, codeHash), now);
    if (taken.expires_at <= now) throw new OAuthError('invalid_grant', 'The code has expired');
    if (taken.revoked_at) throw new OAuthError('invalid_grant', 'The grant was revoked');
    if (taken.redirect_uri !== input.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    if (!pkceMatches(challenge, taken.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    if (input.resource !== null && input.resource !== taken.resource) throw new OAuthError('invalid_target', 'resource differs from the one signed in for');
    return this.#tokens(tenant, app, taken, taken.scopes, taken.nonce, true, taken.minted ? next!.token : null);
  }

  /** grant_type=refresh_token: a new refresh token on every use; presenting a used one ends the chain. */
  async refresh(tenant: Tenant, app: TokenClient, input: { refreshToken: string; scope: string | null; resource: string | null }): Promise<TokenResponse> {
    if (!app.refresh_tokens) throw new OAuthError('unauthorized_client', 'Refresh tokens are off for this app');
    const now = this.clock.now();
    const tokenHash = sha256Hex(input.refreshToken);
    // A request refused for its resource or scope leaves a live token unspent: spending it would
    // make the client's corrected retry look like reuse and end the whole chain. Without either
    // there is nothing to refuse, so the usual refresh skips this read.
    if (input.resource !== null || input.scope !== null) {
      const presentedGrant = await q.refreshTokenState(this.db, tenant.api.id, tokenHash);
      if (presentedGrant && !presentedGrant.token_used_at && presentedGrant.client_id === app.id && q.issuedAt(presentedGrant.issuer, issuerMatch(tenant))) {
        if (input.resource !== null && input.resource !== presentedGrant.resource) throw new OAuthError('invalid_target', 'resource differs from the one signed in for');
        narrowedScopes(presentedGrant.scopes, input.scope);
      }
    }
    const next = this.#nextRefreshToken(tenant, app, now, { resource: input.resource });
    const taken = await q.takeRefreshToken(this.db, tenant.api.id, tokenHash, app.id, issuerMatch(tenant), now, next?.mint ?? null);
    // OAuth 2.1 4.3.1 and RFC 9700 4.14.2: reuse of a rotated token ends the whole chain.
    if (!taken) return this.#refuseUnspent(tenant, app.id, 'refresh token', await q.refreshTokenStanding(this.db, tenant.api.id, tokenHash), now);
    if (taken.revoked_at) throw new OAuthError('invalid_grant', 'The refresh token was revoked');
    if (taken.expires_at <= now) throw new OAuthError('invalid_grant', 'The refresh token has expired');
    if (input.resource !== null && input.resource !== taken.resource) throw new OAuthError('invalid_target', 'resource differs from the one signed in for');
    return this.#tokens(tenant, app, taken, narrowedScopes(taken.scopes, input.scope), null, false, taken.minted ? next!.token : null);
  }

  /**
   * The refresh token an exchange or refresh would hand out, for the spending statement to write
   * in its own round trip (tokens/queries.ts MintedRefresh); null when the app takes none.
   */
  #nextRefreshToken(tenant: Tenant, app: TokenClient, now: Date, when: q.MintedRefresh['when']): { token: string; mint: q.MintedRefresh } | null {
    if (!app.refresh_tokens) return null;
    const token = REFRESH_PREFIX + randomBase62(43);
    return { token, mint: { tokenHash: sha256Hex(token), expiresAt: addMs(now, tenant.settings.refresh_token_ttl_s * SECOND), when } };
  }

  /** RFC 7009 as spec 4.3 narrows it: an app's own refresh token ends its chain; anything else changes nothing. */
  async revoke(tenant: Tenant, appId: string, token: string): Promise<void> {
    if (!token.startsWith(REFRESH_PREFIX)) return;
    const state = await q.refreshTokenState(this.db, tenant.api.id, sha256Hex(token));
    if (state && state.client_id === appId && q.issuedAt(state.issuer, issuerMatch(tenant))) await q.revokeGrant(this.db, tenant.api.id, state.id, this.clock.now());
  }

  /**
   * Why a code or refresh token could not be spent: unknown, another client's (left usable), its
   * person suspended (left usable: not the client's fault, and spending it would make the app's
   * retry after a reactivation look like a replay and revoke the grant), or already used: a
   * replay, which revokes the grant it belongs to.
   */
  async #refuseUnspent(tenant: Tenant, clientId: string, what: 'code' | 'refresh token', row: q.UnspentStanding | undefined, now: Date): Promise<never> {
    if (!row) throw new OAuthError('invalid_grant', `Unknown ${what}`);
    if (row.used_at === null) {
      if (row.client_id !== clientId) throw new OAuthError('invalid_grant', `The ${what} was issued to another client`);
      // Not active when it was presented (a reactivation since then: the retry will find it usable).
      if (row.person_status !== 'active') throw new OAuthError('invalid_grant', 'The account is suspended');
      throw new OAuthError('invalid_grant', `The ${what} was issued by another issuer`);
    }
    await q.revokeGrant(this.db, tenant.api.id, row.grant_id, now);
    throw new OAuthError('invalid_grant', `The ${what} was already used`);
  }

  /** `minted`: the refresh token the spending statement already wrote, if it did. */
  async #tokens(tenant: Tenant, app: TokenClient, grant: q.TakenGrant, scopes: string[], nonce: string | null, first: boolean, minted: string | null = null): Promise<TokenResponse> {
    const now = this.clock.now();
    if (grant.person_status !== 'active') throw new OAuthError('invalid_grant', 'The account is suspended');
    if (!first && !grant.offline) throw new OAuthError('invalid_grant', 'The grant has no offline access');
    const connected = app.origin === 'registered' || app.origin === 'metadata';
    const ttl = connected ? Math.min(tenant.settings.access_token_ttl_s, CONNECTED_APP_TOKEN_TTL_S) : tenant.settings.access_token_ttl_s;
    // The key set keeps a retired key for the service's setting, the longest any token lives.
    const signer = await this.keys.signer(tenant.api.id, tenant.settings.access_token_ttl_s);
    const facts = factsOf(grant);
    const accessToken = await mintAccessToken(signer, tenant.issuer, facts, scopes, now, ttl);
    const response: TokenResponse = { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, scope: scopes.join(' ') };
    if (minted) response.refresh_token = minted;
    else if (grant.offline && app.refresh_tokens) {
      const refreshToken = REFRESH_PREFIX + randomBase62(43);
      await q.insertRefreshToken(this.db, {
        token_hash: sha256Hex(refreshToken),
        api_id: tenant.api.id,
        grant_id: grant.grant_id,
        created_at: now,
        expires_at: addMs(now, tenant.settings.refresh_token_ttl_s * SECOND),
      });
      response.refresh_token = refreshToken;
    }
    if (scopes.includes('openid')) {
      const person = { id: grant.person_id, name: grant.name, picture: grant.picture, updated_at: grant.person_updated_at, email: grant.email, email_verified: grant.email_verified };
      const claims = await claimsOf(this.db, tenant.api.id, person, scopes);
      response.id_token = await mintIdToken(signer, tenant.issuer, facts, accessToken, claims, nonce, now, ttl);
    }
    return response;
  }
}
