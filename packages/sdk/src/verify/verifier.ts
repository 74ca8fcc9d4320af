import { isWellFormedApiKey } from '@gatehouse/protocol';
import type { Admission, MeteredCustomer } from '../decision.js';
import { keyHash } from '../key-hash.js';
import type { Meter } from '../meter.js';
import { looksLikeJwt, verifyAccessToken } from '../signin/access-token.js';
import { getJson, getJsonWith } from '../signin/get-json.js';
import { JwksCache, JwksUnavailable } from '../signin/jwks.js';
import { bearerToken } from '../signin/protected-resource.js';
import { introspectCall, IntrospectionUnavailable, type IntrospectCall, type IntrospectionAnswer } from './introspect-call.js';
import { BadKeyGuard, PersonRate, setBounded } from './limits.js';

// `req.principal` for the node, Express and MCP adapters' `verify` (see decision.ts for why here).
declare module 'node:http' {
  interface IncomingMessage {
    /** Who the request is, set by `verify` on admitted requests. */
    principal?: Principal;
  }
}

/** Options of {@link createVerifier}. */
export interface VerifierOptions {
  /** The API's sign-in service. @default process.env.GATEHOUSE_ISSUER */
  issuer?: string;
  /** This server's URL exactly as registered as a server of the API (access tokens' `aud` must hold it). @default process.env.GATEHOUSE_RESOURCE_URL */
  resource?: string;
  /** The server's credentials (`rs_…`), for introspection. @default process.env.GATEHOUSE_SERVER_ID */
  clientId?: string;
  /** @default process.env.GATEHOUSE_SERVER_SECRET */
  clientSecret?: string;
  /** When given, an admitted request is metered to the person's customer. */
  meter?: Meter;
  /** Seconds of clock difference allowed on a token's `exp`. @default 30 */
  clockSkewS?: number;
  /** Least time between two JWKS fetches for unseen `kid`s. @default 10_000 */
  jwksRefetchMs?: number;
  /** Timeout of each call to the issuer. @default 5_000 */
  requestTimeoutMs?: number;
  /** Most introspection answers kept (by key hash); past it the oldest goes first. @default 50_000 */
  maxCachedKeys?: number;
  /** Most client addresses the abuse guard remembers, and most people whose rate is counted. @default 50_000 */
  maxTracked?: number;
  /** Background errors (introspection or JWKS unreachable). @default console.warn of the message */
  onError?: (error: Error) => void;
  /** For tests: how the issuer is called. @default node:http(s), resolving `*.localhost` to loopback */
  fetch?: typeof fetch;
  /** For tests: the clock, epoch milliseconds. @default Date.now */
  now?: () => number;
}

/** Who an admitted request is. */
export interface Principal {
  /** The person (`sub`) of the API's sign-in service. */
  sub: string;
  /** The permissions the credential holds at this server. */
  scope: string[];
  via: 'api_key' | 'access_token';
  /** The end-user key's id (`via: 'api_key'`). */
  keyId?: string;
  /** The app the access token was issued to (`via: 'access_token'`). */
  clientId?: string;
  /** The person's customer, when the verifier meters. */
  customerId?: string;
}

export interface CheckInput {
  /** The request's `Authorization` header: the request is judged by it alone (spec 4.4). */
  authorization?: string | null;
  /** The client's address, for the bad-key guard. */
  clientAddress?: string | null;
  /** Permissions the request needs. */
  scopes?: readonly string[];
}

export interface Verified {
  ok: true;
  principal: Principal;
  /** With a meter: the metered customer. */
  customer?: MeteredCustomer;
  /** Records the final HTTP status with the meter (call once, before the response completes); does nothing without one. */
  finish(status: number): void;
}

export interface Refused {
  ok: false;
  status: number;
  headers: Record<string, string>;
  body: { error: string; message: string };
}

export type VerifierResult = Verified | Refused;

/** Spec 4.4's numbers. */
export const INTROSPECTION_TTL_MS = 30_000;
export const STALE_IF_ERROR_MS = 10 * 60_000;
export const BAD_KEYS_PER_MINUTE = 20;
/** After a failed introspection, keys are not sent for this long: stale answers serve, unseen keys get 503 (its Retry-After). */
export const UNREACHABLE_BACKOFF_MS = 5_000;

const noop = () => {};
const INVALID = 'Bearer error="invalid_token"';
const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

function refused(status: number, error: string, message: string, headers: Record<string, string> = {}): Refused {
  return { ok: false, status, headers, body: { error, message } };
}

const DENY_MISSING = refused(401, 'invalid_token', 'Send an API key or an access token as Authorization: Bearer.', { 'www-authenticate': INVALID });
const DENY_KEY = refused(401, 'invalid_token', 'The API key is not valid.', { 'www-authenticate': INVALID });
const DENY_UNAVAILABLE = refused(503, 'unavailable', 'The service cannot check credentials right now.', { 'retry-after': '5' });

interface CacheEntry {
  answer: IntrospectionAnswer;
  freshUntil: number;
  staleUntil: number;
  /** For an active key: its principal and the answer without a meter, made once. */
  principal: Principal | null;
  admitted: Verified | null;
}

export interface VerifierMetrics {
  /** Calls of /oauth/introspect made (concurrent checks of one key share one). */
  introspections: number;
  /** Checks answered from a fresh cached answer. */
  cacheHits: number;
  /** Checks answered from an expired answer while the service was unreachable. */
  staleServed: number;
  /** 503s: nothing usable cached while the service was unreachable (or the JWKS for a token). */
  unavailable: number;
  /** 429s of the bad-key guard. */
  abuseRefused: number;
  /** 429s of requests_per_minute. */
  rateLimited: number;
  cachedKeys: number;
}

/**
 * Verifies the credentials people send to an API: access tokens locally (spec 4.3), end-user API
 * keys by introspection with spec 4.4's caller-side rules. Build one with {@link createVerifier}.
 */
// For the SDK's own tests (not exported from the package): what the answer cache is keyed by.
let cacheKeysOf: (verifier: Verifier) => string[];

/** The keys of a verifier's answer cache, for tests: SHA-256 hex of each key, never a key. */
export const cachedKeyHashes = (verifier: Verifier): string[] => cacheKeysOf(verifier);

export class Verifier {
  static {
    cacheKeysOf = (verifier) => [...verifier.#cache.keys()];
  }
  readonly issuer: string;
  readonly resource: string;
  readonly meter: Meter | null;
  readonly #introspect: IntrospectCall;
  readonly #jwks: JwksCache;
  readonly #now: () => number;
  readonly #onError: (error: Error) => void;
  readonly #clockSkewS: number;
  readonly #maxCachedKeys: number;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #inflight = new Map<string, Promise<IntrospectionAnswer>>();
  readonly #guard: BadKeyGuard;
  readonly #rate: PersonRate;
  #unreachableUntil = 0;
  #closed = false;
  readonly #metrics = { introspections: 0, cacheHits: 0, staleServed: 0, unavailable: 0, abuseRefused: 0, rateLimited: 0 };

  constructor(options: VerifierOptions = {}) {
    const issuer = options.issuer ?? process.env.GATEHOUSE_ISSUER;
    const resource = options.resource ?? process.env.GATEHOUSE_RESOURCE_URL;
    const clientId = options.clientId ?? process.env.GATEHOUSE_SERVER_ID;
    const clientSecret = options.clientSecret ?? process.env.GATEHOUSE_SERVER_SECRET;
    // Spec 4.4: with the server credentials missing, key acceptance refuses to start.
    if (!clientId || !clientSecret) throw new TypeError('gatehouse: createVerifier needs the server\'s credentials, clientId and clientSecret (or GATEHOUSE_SERVER_ID and GATEHOUSE_SERVER_SECRET)');
    if (!issuer) throw new TypeError('gatehouse: createVerifier needs `issuer`, the API\'s sign-in service (or GATEHOUSE_ISSUER)');
    if (!resource) throw new TypeError('gatehouse: createVerifier needs `resource`, this server\'s URL as registered (or GATEHOUSE_RESOURCE_URL)');
    for (const [name, value] of [['issuer', issuer], ['resource', resource]] as const) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new TypeError(`gatehouse: ${name} must be an absolute URL, got ${value}`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`gatehouse: ${name} must be an http(s) URL`);
    }
    const number = (name: string, value: number | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) => {
      const n = value ?? fallback;
      if (!Number.isFinite(n) || n < min || n > max) throw new TypeError(`gatehouse: ${name} must be a number from ${min} to ${max}`);
      return n;
    };
    this.#clockSkewS = number('clockSkewS', options.clockSkewS, 30, 0, 300);
    const jwksRefetchMs = number('jwksRefetchMs', options.jwksRefetchMs, 10_000, 0);
    const timeoutMs = number('requestTimeoutMs', options.requestTimeoutMs, 5_000, 10);
    this.#maxCachedKeys = number('maxCachedKeys', options.maxCachedKeys, 50_000, 1);
    const maxTracked = number('maxTracked', options.maxTracked, 50_000, 1);
    // Gatehouse issuers have no path; a trailing slash would make every token's iss differ.
    this.issuer = issuer.replace(/\/+$/, '');
    this.resource = resource;
    this.meter = options.meter ?? null;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? ((error) => console.warn(`gatehouse verifier: ${error.message}`));
    this.#introspect = introspectCall(`${this.issuer}/oauth/introspect`, clientId, clientSecret, timeoutMs, options.fetch);
    this.#jwks = new JwksCache(`${this.issuer}/oauth/jwks`, options.fetch ? getJsonWith(options.fetch, timeoutMs) : getJson(timeoutMs), this.#now, jwksRefetchMs);
    this.#guard = new BadKeyGuard(BAD_KEYS_PER_MINUTE, 60_000, maxTracked);
    this.#rate = new PersonRate(maxTracked);
  }

  /**
   * Judges one request by its `Authorization` header: `{ ok: true, principal, finish }` or
   * `{ ok: false, status, headers, body }`, to be answered as is.
   */
  check(input: CheckInput): Promise<VerifierResult> {
    const result = this.checkNow(input);
    return result instanceof Promise ? result : Promise.resolve(result);
  }

  /** The same, returned as is when no waiting is needed (a cached key without a meter), else a promise. */
  checkNow(input: CheckInput): VerifierResult | Promise<VerifierResult> {
    if (this.#closed) return DENY_UNAVAILABLE;
    const credential = input.authorization ? bearerToken(input.authorization) : undefined;
    if (!credential) return DENY_MISSING;
    const scopes = input.scopes ?? [];
    if (looksLikeJwt(credential)) return this.#checkToken(credential, scopes);
    const address = input.clientAddress ?? '';
    const now = this.#now();
    const blocked = this.#guard.blockedFor(address, now);
    if (blocked > 0) {
      this.#metrics.abuseRefused++;
      return refused(429, 'too_many_invalid_keys', 'Too many invalid API keys from this address: wait a minute.', { 'retry-after': String(Math.ceil(blocked / 1000)) });
    }
    // The cache is read before the format check: only well-formed keys are ever introspected, so a
    // key whose hash is cached passed that check already, and the hot path skips its CRC-32.
    const hash = keyHash(credential);
    const entry = this.#cache.get(hash);
    if (entry !== undefined && now < entry.freshUntil) {
      this.#metrics.cacheHits++;
      return this.#judge(entry, scopes, address, now);
    }
    // Spec 4.4: a bad format or checksum is refused without calling the service.
    if (entry === undefined && !isWellFormedApiKey(credential)) return this.#badKey(address, now);
    return this.#refreshAndJudge(credential, hash, entry, scopes, address);
  }

  #badKey(address: string, now: number): Refused {
    this.#guard.recordBad(address, now);
    return DENY_KEY;
  }

  #judge(entry: CacheEntry, scopes: readonly string[], address: string, now: number): VerifierResult | Promise<VerifierResult> {
    const answer = entry.answer;
    // A cached answer outlives no key: past its exp it is expired, whatever the cache says.
    if (!answer.active || (answer.exp !== null && now >= answer.exp * 1000)) return this.#badKey(address, now);
    const missing = this.#missing(answer.scope, scopes);
    if (missing) return missing;
    if (answer.requestsPerMinute !== null) {
      const wait = this.#rate.take(answer.sub, answer.requestsPerMinute, now);
      if (wait > 0) {
        this.#metrics.rateLimited++;
        return refused(429, 'rate_limited', 'Too many requests: slow down.', { 'retry-after': String(Math.ceil(wait / 1000)) });
      }
    }
    if (this.meter === null) return entry.admitted!;
    return this.#metered(entry.principal!);
  }

  /** 403 naming the permissions missing (spec 4.4), or null when the credential holds them all. */
  #missing(held: readonly string[], needed: readonly string[]): Refused | null {
    if (needed.length === 0) return null;
    // Held nearly always: checked without making the list of what is missing.
    let all = true;
    for (let i = 0; i < needed.length && all; i++) all = held.includes(needed[i]!);
    if (all) return null;
    const missing = needed.filter((scope) => !held.includes(scope));
    const scope = missing.join(' ');
    return refused(403, 'insufficient_scope', `This request needs ${scope}.`, { 'www-authenticate': `Bearer error="insufficient_scope", scope=${quoted(scope)}` });
  }

  async #refreshAndJudge(key: string, hash: string, entry: CacheEntry | undefined, scopes: readonly string[], address: string): Promise<VerifierResult> {
    let answer: IntrospectionAnswer;
    try {
      if (this.#now() < this.#unreachableUntil) throw new IntrospectionUnavailable('the service was unreachable moments ago');
      answer = await this.#coalesced(key, hash);
    } catch (error) {
      if (!(error instanceof IntrospectionUnavailable)) throw error;
      const now = this.#now();
      // Spec 4.4 stale_if_error: what we knew keeps serving 10 minutes past its cached answer.
      if (entry !== undefined && now < entry.staleUntil) {
        this.#metrics.staleServed++;
        return this.#judge(entry, scopes, address, now);
      }
      this.#metrics.unavailable++;
      return DENY_UNAVAILABLE;
    }
    const now = this.#now();
    return this.#judge(this.#store(hash, answer, now), scopes, address, now);
  }

  /** One introspection per key at a time: concurrent checks of a key wait for the same answer. */
  #coalesced(key: string, hash: string): Promise<IntrospectionAnswer> {
    let call = this.#inflight.get(hash);
    if (!call) {
      this.#metrics.introspections++;
      call = this.#introspect(key)
        .catch((error: Error) => {
          if (error instanceof IntrospectionUnavailable) {
            this.#unreachableUntil = this.#now() + UNREACHABLE_BACKOFF_MS;
            this.#onError(error);
          }
          throw error;
        })
        .finally(() => this.#inflight.delete(hash));
      this.#inflight.set(hash, call);
    }
    return call;
  }

  #store(hash: string, answer: IntrospectionAnswer, now: number): CacheEntry {
    // The answer's max-age (30 s from Gatehouse), never longer than spec 4.4's 30 s.
    const ttl = Math.min(INTROSPECTION_TTL_MS, answer.maxAgeS === null ? INTROSPECTION_TTL_MS : answer.maxAgeS * 1000);
    const principal: Principal | null = answer.active ? Object.freeze({ sub: answer.sub, scope: answer.scope, via: 'api_key' as const, keyId: answer.keyId }) : null;
    const entry: CacheEntry = {
      answer,
      freshUntil: now + ttl,
      staleUntil: now + ttl + STALE_IF_ERROR_MS,
      principal,
      admitted: principal ? Object.freeze({ ok: true as const, principal, finish: noop }) : null,
    };
    // Re-inserted, so the bound drops the key answered longest ago first.
    this.#cache.delete(hash);
    setBounded(this.#cache, hash, entry, this.#maxCachedKeys);
    return entry;
  }

  async #checkToken(token: string, scopes: readonly string[]): Promise<VerifierResult> {
    let check;
    try {
      check = await verifyAccessToken(token, this.#jwks, { issuer: this.issuer, audience: this.resource, clockSkewS: this.#clockSkewS, now: this.#now });
    } catch (error) {
      if (!(error instanceof JwksUnavailable)) throw error;
      this.#onError(error);
      this.#metrics.unavailable++;
      return DENY_UNAVAILABLE;
    }
    if (!check.ok) return refused(401, 'invalid_token', `The access token is not valid (${check.description}): sign in again.`, { 'www-authenticate': INVALID });
    const missing = this.#missing(check.token.scopes, scopes);
    if (missing) return missing;
    const principal: Principal = { sub: check.token.personId, scope: check.token.scopes, via: 'access_token', clientId: check.token.clientId };
    if (this.meter === null) return { ok: true, principal, finish: noop };
    return this.#metered(principal);
  }

  /**
   * Meters the request as the customer the person belongs to (the snapshot's members), as
   * protectResource does for tokens: a person the snapshot does not know makes the meter fetch
   * it again (at most once per negativeCacheTtlMs per person), then 403 `no_customer`. Every
   * denial of the meter (402, 403, 429, 503) is answered as it is.
   */
  #metered(principal: Principal): VerifierResult | Promise<VerifierResult> {
    const admission = this.meter!.admitPerson(principal.sub);
    return admission instanceof Promise ? admission.then((a) => this.#fromAdmission(principal, a)) : this.#fromAdmission(principal, admission);
  }

  #fromAdmission(principal: Principal, admission: Admission): VerifierResult {
    if (!admission.ok) return { ok: false, status: admission.status, headers: admission.headers, body: admission.body };
    return { ok: true, principal: { ...principal, customerId: admission.customer.id }, customer: admission.customer, finish: admission.finish };
  }

  metrics(): VerifierMetrics {
    return { ...this.#metrics, cachedKeys: this.#cache.size };
  }

  /** Stops answering (503) and forgets every cached answer. The meter, if any, is the caller's to close. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#inflight.values()]);
    this.#cache.clear();
  }
}

/**
 * A verifier of access tokens and end-user API keys for this server.
 * @example
 * const verifier = createVerifier({ issuer: 'https://weather.example.com', resource: 'https://api.weather.example/', clientId: 'rs_…', clientSecret: '…' });
 * const result = await verifier.check({ authorization: req.headers.authorization, clientAddress: req.socket.remoteAddress, scopes: ['read:weather'] });
 */
export function createVerifier(options: VerifierOptions = {}): Verifier {
  return new Verifier(options);
}
