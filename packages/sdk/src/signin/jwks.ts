import { importJWK, type JWK } from 'jose';
import type { GetJson } from './get-json.js';

type VerifyKey = Awaited<ReturnType<typeof importJWK>>;

/** The JWKS could not be fetched and the key is not cached: nobody can say whether the token is good. */
export class JwksUnavailable extends Error {}

/**
 * The issuer's signing keys (spec 4.3: "find the key by kid in JWKS (cache; refetch on unseen
 * kid)"). Keys are kept once fetched: a rotated-out key stays published for the token lifetime
 * plus a day, so a kid seen once stays good long enough, and a new kid is a new key. An unseen
 * kid fetches the set again, but not sooner than `minRefetchMs` after the last fetch, so tokens
 * with made-up kids cannot make the server hammer the issuer.
 */
export class JwksCache {
  readonly #keys = new Map<string, VerifyKey>();
  #lastAttempt = Number.NEGATIVE_INFINITY;
  #lastFailed = false;
  #loading: Promise<void> | null = null;
  /** How many times the set was fetched (for metrics and tests). */
  fetches = 0;

  constructor(
    readonly url: string,
    private readonly getJson: GetJson,
    private readonly now: () => number,
    private readonly minRefetchMs: number,
  ) {}

  /** The key of `kid`, or null when the issuer does not publish it. Throws JwksUnavailable. */
  async key(kid: string): Promise<VerifyKey | null> {
    const known = this.#keys.get(kid);
    if (known) return known;
    if (this.now() - this.#lastAttempt < this.minRefetchMs) {
      // A fetch under way (for another request with this kid, say) is waited for, not repeated.
      if (this.#loading) await this.#loading.catch(() => undefined);
      const key = this.#keys.get(kid);
      if (key) return key;
      if (this.#lastFailed) throw new JwksUnavailable(`the JWKS at ${this.url} could not be fetched`);
      return null;
    }
    await this.#refresh();
    return this.#keys.get(kid) ?? null;
  }

  #refresh(): Promise<void> {
    this.#loading ??= (async () => {
      this.#lastAttempt = this.now();
      this.fetches++;
      try {
        const set = (await this.getJson(this.url)) as { keys?: unknown };
        if (!set || !Array.isArray(set.keys)) throw new Error(`the JWKS at ${this.url} has no keys array`);
        for (const jwk of set.keys as JWK[]) {
          // Only RSA signing keys can check RS256; anything else in the set is not ours to use.
          if (!jwk || jwk.kty !== 'RSA' || typeof jwk.kid !== 'string' || (jwk.use !== undefined && jwk.use !== 'sig') || (jwk.alg !== undefined && jwk.alg !== 'RS256')) continue;
          if (!this.#keys.has(jwk.kid)) this.#keys.set(jwk.kid, await importJWK({ ...jwk, alg: 'RS256' }, 'RS256'));
        }
        this.#lastFailed = false;
      } catch (error) {
        this.#lastFailed = true;
        throw new JwksUnavailable((error as Error).message);
      }
    })().finally(() => (this.#loading = null));
    return this.#loading;
  }
}
