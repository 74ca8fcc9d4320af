import { deny, type Admission, type Denied } from '../decision.js';
import type { Meter } from '../meter.js';
import { looksLikeJwt, verifyAccessToken, type VerifiedToken } from './access-token.js';
import { getJson, getJsonWith, type GetJson } from './get-json.js';
import { JwksCache, JwksUnavailable } from './jwks.js';
import { isWellFormedApiKey } from '@gatehouse/protocol';
import { keyHash } from '../key-hash.js';
import type { Principal, Verifier } from '../verify/verifier.js';

/** Options of {@link protectResource}. */
export interface ProtectedResourceOptions {
  /**
   * This server's public URL, exactly as registered as a server of the API in Gatehouse (sign-in,
   * servers): the `resource` agents ask tokens for, and what the tokens' `aud` must hold.
   * @default process.env.GATEHOUSE_RESOURCE_URL
   */
  resource?: string;
  /** Seconds of clock difference allowed when checking a token's expiry. @default 30 */
  clockSkewS?: number;
  /** Least time between two fetches of the issuer's JWKS for a key id not seen yet. @default 10_000 */
  jwksRefetchMs?: number;
  /** For tests: the fetch the issuer's JWKS is fetched with. @default node:http(s), resolving `*.localhost` to loopback */
  fetch?: typeof fetch;
  /**
   * A verifier of this server (createVerifier, with its server credentials): end-user API keys
   * sent as `Authorization: Bearer` are then accepted too, checked by introspection with spec
   * 4.4's rules and metered as the person's customer. Give it no meter of its own.
   */
  verifier?: Verifier;
  /**
   * The scopes a 401 challenge names in `scope` (MCP 2026-07-28: what the server's tools need), so
   * an agent asks for them at its first sign-in. `withMcpSignIn` passes its tools' permissions.
   * @default the server's permissions, as in its metadata's `scopes_supported`
   */
  challengeScopes?: readonly string[];
}

/** RFC 9728 2: the protected resource metadata this server publishes. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
}

/** What a request brings to {@link ProtectedResource.admit}. */
export interface CredentialInput {
  /** The `Authorization` header, if any: when present, the request is judged by it alone (spec 4.4). */
  authorization?: string | null;
  /** The customer key from the meter's key header, if any. */
  key?: string | null;
  /** The client's address, for the verifier's bad-key guard. */
  clientAddress?: string | null;
  /**
   * Permissions the request needs from an access token (spec 4.3, scope). Keys carry none and need
   * none. A function is called only once the token is verified (it may read the request's body).
   */
  scopes?: readonly string[] | (() => readonly string[] | Promise<readonly string[]>);
}

/** An admission, and for an access token the token it was made with. */
export type GuardedAdmission = Admission & { token?: VerifiedToken; principal?: Principal };

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const RETRY_5 = { 'retry-after': '5' };

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * RFC 6750 2.1: `Authorization: Bearer <token>`, the scheme compared case-insensitively. Every
 * request a verifier judges comes here: the usual header (the scheme, one space, a token of
 * printable ASCII) is read by hand, without the regular expression's match array; anything else
 * goes to the expression, which alone decides what it accepts.
 */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization) return undefined;
  const length = authorization.length;
  // "Bearer " in any case: 0x20 sets the lower-case bit of each letter.
  if (
    length > 7 &&
    authorization.charCodeAt(6) === 32 &&
    (authorization.charCodeAt(0) | 0x20) === 98 &&
    (authorization.charCodeAt(1) | 0x20) === 101 &&
    (authorization.charCodeAt(2) | 0x20) === 97 &&
    (authorization.charCodeAt(3) | 0x20) === 114 &&
    (authorization.charCodeAt(4) | 0x20) === 101 &&
    (authorization.charCodeAt(5) | 0x20) === 114
  ) {
    let i = 7;
    for (; i < length; i++) {
      const c = authorization.charCodeAt(i);
      // Printable ASCII other than the space is never \s; anything else is left to the expression.
      if (c < 0x21 || c > 0x7e) break;
    }
    if (i === length) return authorization.slice(7);
  }
  return BEARER.exec(authorization)?.[1];
}

const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

/**
 * An API or MCP server that accepts the access tokens of its API's sign-in service, next to
 * customer keys. It publishes its protected resource metadata (RFC 9728), verifies tokens locally
 * (spec 4.3), checks the permissions a request needs, and meters each request as the customer
 * the token's person belongs to. The issuer and the server's permissions come from the meter's
 * snapshot. Build one with {@link protectResource}; `@gatehouse/sdk/mcp` uses it for MCP servers.
 */
export class ProtectedResource {
  /** This server's URL as registered (the tokens' audience). */
  readonly resource: string;
  /** Where its metadata is served: the path-suffixed form of RFC 9728 3.1 for the resource's path, and the bare one. */
  readonly metadataPaths: readonly string[];
  /** The metadata's absolute URL, as 401 and 403 answers name it. */
  readonly metadataUrl: string;
  readonly #meter: Meter;
  readonly #getJson: GetJson;
  readonly #clockSkewS: number;
  readonly #jwksRefetchMs: number;
  #jwks: JwksCache | null = null;
  readonly #verifier: Verifier | null;
  readonly #challengeScopes: readonly string[] | null;

  constructor(meter: Meter, options: ProtectedResourceOptions = {}) {
    const resource = options.resource ?? process.env.GATEHOUSE_RESOURCE_URL;
    if (!resource) throw new TypeError('gatehouse: protectResource needs `resource`, this server\'s public URL (or GATEHOUSE_RESOURCE_URL)');
    let url: URL;
    try {
      url = new URL(resource);
    } catch {
      throw new TypeError(`gatehouse: resource must be an absolute URL, got ${resource}`);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash || resource.includes('#')) throw new TypeError('gatehouse: resource must be an http(s) URL without a fragment');
    const clockSkewS = options.clockSkewS ?? 30;
    if (!Number.isFinite(clockSkewS) || clockSkewS < 0 || clockSkewS > 300) throw new TypeError('gatehouse: clockSkewS must be from 0 to 300 seconds');
    const jwksRefetchMs = options.jwksRefetchMs ?? 10_000;
    if (!Number.isFinite(jwksRefetchMs) || jwksRefetchMs < 0) throw new TypeError('gatehouse: jwksRefetchMs must be 0 or more');
    this.resource = resource;
    this.#meter = meter;
    this.#verifier = options.verifier ?? null;
    this.#challengeScopes = options.challengeScopes && options.challengeScopes.length > 0 ? [...new Set(options.challengeScopes)] : null;
    this.#clockSkewS = clockSkewS;
    this.#jwksRefetchMs = jwksRefetchMs;
    this.#getJson = options.fetch ? getJsonWith(options.fetch, meter.options.requestTimeoutMs) : getJson(meter.options.requestTimeoutMs);
    // RFC 9728 3.1: the well-known segment goes between the host and the resource's path.
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
    this.metadataPaths = path ? [WELL_KNOWN + path, WELL_KNOWN] : [WELL_KNOWN];
    this.metadataUrl = url.origin + this.metadataPaths[0];
  }

  /** The issuer of the API, from the snapshot; null before one was fetched. */
  get #issuer(): string | null {
    return this.#meter.state.signin?.issuer ?? null;
  }

  /**
   * The permissions this server exposes, as registered in Gatehouse. An agent asks for exactly
   * these (MCP clients take `scopes_supported`), and the issuer requires a scope, so a server with
   * none advertises `openid` (DESIGN 8).
   */
  scopesSupported(): string[] {
    const server = this.#meter.state.signin?.servers.find((s) => s.resource === this.resource);
    return server && server.permissions.length > 0 ? [...server.permissions] : ['openid'];
  }

  /** Whether the API has a server registered at exactly this resource (tokens are issued only for those). */
  get registered(): boolean {
    return this.#meter.state.signin?.servers.some((s) => s.resource === this.resource) ?? false;
  }

  /** RFC 9728 2; null while the meter has no snapshot yet (answer 503). */
  async metadata(): Promise<ProtectedResourceMetadata | null> {
    if (!this.#meter.state.loaded) await this.#meter.ready.catch(() => undefined);
    const issuer = this.#issuer;
    if (!issuer) return null;
    return { resource: this.resource, authorization_servers: [issuer], scopes_supported: this.scopesSupported(), bearer_methods_supported: ['header'] };
  }

  /** The scopes a 401 names: the tools' needs when given, else every permission of this server. */
  challengeScopes(): string[] {
    return this.#challengeScopes ? [...this.#challengeScopes] : this.scopesSupported();
  }

  /**
   * `WWW-Authenticate` of a refusal: RFC 6750 3 with RFC 9728 5.1's resource_metadata. A 401 names
   * the scopes to ask for (MCP 2026-07-28); a 403 `insufficient_scope` the ones the request lacks.
   */
  challenge(error?: 'invalid_token' | 'insufficient_scope', details: { description?: string; scope?: string } = {}): string {
    const parts = [];
    if (error) parts.push(`error=${quoted(error)}`);
    if (details.description) parts.push(`error_description=${quoted(details.description)}`);
    const scope = details.scope ?? (error === 'insufficient_scope' ? '' : this.challengeScopes().join(' '));
    if (scope) parts.push(`scope=${quoted(scope)}`);
    parts.push(`resource_metadata=${quoted(this.metadataUrl)}`);
    return `Bearer ${parts.join(', ')}`;
  }

  #denied(status: Denied['status'], reason: Denied['reason'], headers: Record<string, string>, message?: string): Denied {
    const denied = deny(status, reason, headers);
    return message ? { ...denied, body: { ...denied.body, message } } : denied;
  }

  /** A key's 401 names this server's metadata too, so an agent can sign in instead. */
  #withChallenge(admission: Admission): Admission {
    if (admission.ok || admission.status !== 401) return admission;
    const error = admission.reason === 'missing_key' ? undefined : 'invalid_token';
    return { ...admission, headers: { ...admission.headers, 'www-authenticate': this.challenge(error) } };
  }

  #jwksFor(issuer: string): JwksCache {
    const url = `${issuer}/oauth/jwks`;
    if (this.#jwks?.url !== url) this.#jwks = new JwksCache(url, this.#getJson, this.#meter.options.now, this.#jwksRefetchMs);
    return this.#jwks;
  }

  /** How many times the issuer's JWKS was fetched (tests, metrics). */
  get jwksFetches(): number {
    return this.#jwks?.fetches ?? 0;
  }

  /**
   * Decides a request. With an `Authorization` header, that header alone: a bearer value with
   * dots is an access token (spec 4.4), verified and metered as the person's customer; any other
   * bearer value is a customer key, metered as today. Without one, the key header's key. Answers
   * 401 `invalid_token` (or a bare challenge without any credential), 403 `insufficient_scope`
   * naming the permissions missing, 403 `no_customer`, and every denial of the meter.
   */
  async admit(input: CredentialInput): Promise<GuardedAdmission> {
    const authorization = input.authorization ?? '';
    if (authorization === '') {
      if (!input.key) return this.#withChallenge(await this.#meter.admit({ key: null }));
      return this.#withChallenge(await this.#meter.admit({ key: input.key }));
    }
    const credential = bearerToken(authorization);
    if (!credential) return this.#denied(401, 'invalid_token', { 'www-authenticate': this.challenge('invalid_token', { description: 'send the credential as Authorization: Bearer' }) });
    if (!looksLikeJwt(credential)) {
      const asPerson = await this.#admitPersonKey(authorization, credential, input);
      return asPerson ?? this.#withChallenge(await this.#meter.admit({ key: credential }));
    }
    return this.#admitToken(credential, input.scopes ?? []);
  }

  /**
   * An end-user key (issue 15), when a verifier is given and the key is not a customer key of the
   * snapshot: the verifier's answer, metered as the person's customer. Null when the verifier
   * says the key is not a valid end-user key (401): it may be a customer key the snapshot does
   * not hold yet, which the meter looks up.
   */
  async #admitPersonKey(authorization: string, credential: string, input: CredentialInput): Promise<GuardedAdmission | null> {
    const verifier = this.#verifier;
    if (!verifier || !isWellFormedApiKey(credential)) return null;
    if (this.#meter.state.keys.has(keyHash(credential))) return null;
    const scopes = input.scopes ?? [];
    const needed = typeof scopes === 'function' ? await scopes() : scopes;
    const result = await verifier.check({ authorization, clientAddress: input.clientAddress, scopes: needed });
    if (!result.ok) {
      if (result.status === 401) return null;
      if (result.status === 403 && result.body.error === 'insufficient_scope') {
        // The verifier's challenge names the missing permissions; ours adds resource_metadata.
        const scope = /scope="([^"]*)"/.exec(result.headers['www-authenticate'] ?? '')?.[1] ?? '';
        return this.#denied(403, 'insufficient_scope', { 'www-authenticate': this.challenge('insufficient_scope', { scope }) }, `The API key lacks ${scope}, which this request needs.`);
      }
      return { ok: false, status: result.status as Denied['status'], reason: result.body.error as Denied['reason'], headers: result.headers, body: result.body as Denied['body'] };
    }
    if (result.customer) return { ok: true, customer: result.customer, finish: result.finish, principal: result.principal };
    const admission = await this.#meter.admitPerson(result.principal.sub);
    return admission.ok ? { ...admission, principal: result.principal } : admission;
  }

  async #admitToken(credential: string, scopes: NonNullable<CredentialInput['scopes']>): Promise<GuardedAdmission> {
    if (!this.#meter.state.loaded) await this.#meter.ready.catch(() => undefined);
    const issuer = this.#issuer;
    if (!issuer) return this.#denied(503, 'unavailable', RETRY_5);
    let check;
    try {
      check = await verifyAccessToken(credential, this.#jwksFor(issuer), { issuer, audience: this.resource, clockSkewS: this.#clockSkewS, now: this.#meter.options.now });
    } catch (error) {
      if (!(error instanceof JwksUnavailable)) throw error;
      this.#meter.options.onError(error);
      return this.#denied(503, 'unavailable', RETRY_5);
    }
    if (!check.ok) return this.#denied(401, 'invalid_token', { 'www-authenticate': this.challenge('invalid_token', { description: check.description }) }, `The access token is not valid (${check.description}): sign in again.`);
    const needed = typeof scopes === 'function' ? await scopes() : scopes;
    const missing = needed.filter((scope) => !check.token.scopes.includes(scope));
    if (missing.length > 0) {
      const scope = missing.join(' ');
      return this.#denied(403, 'insufficient_scope', { 'www-authenticate': this.challenge('insufficient_scope', { scope, description: `this request needs ${scope}` }) }, `The access token lacks ${scope}, which this request needs.`);
    }
    const admission = await this.#meter.admitPerson(check.token.personId);
    return admission.ok ? { ...admission, token: check.token } : admission;
  }
}

/**
 * Protects an API or MCP server with sign-in: agents get access tokens from the API's issuer
 * (found through the protected resource metadata), customers may still send keys, and every
 * request is metered. Framework code serves {@link ProtectedResource.metadata} at each of
 * {@link ProtectedResource.metadataPaths} and calls {@link ProtectedResource.admit} per request.
 * @example
 * const guard = protectResource(meter, { resource: 'https://api.example.com/' });
 * app.get(guard.metadataPaths, async (req, res) => res.json(await guard.metadata()));
 * app.use(async (req, res, next) => {
 *   const d = await guard.admit({ authorization: req.headers.authorization, key: req.get('x-api-key'), scopes: ['read:weather'] });
 *   if (!d.ok) return res.status(d.status).set(d.headers).json(d.body);
 *   res.on('finish', () => d.finish(res.statusCode));
 *   next();
 * });
 */
export function protectResource(meter: Meter, options: ProtectedResourceOptions = {}): ProtectedResource {
  return new ProtectedResource(meter, options);
}
